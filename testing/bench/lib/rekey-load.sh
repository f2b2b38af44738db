#!/bin/sh
# Guest side of testing/bench/rekey-load (inside UML): the rekey-load
# scenario's nine cases (testing/uml/lib/scenario/rekey.sh) for SECS
# seconds at RATE datagrams a second each way per case, loss reported
# rather than failed. Writes $RESULTS/rekey.tsv (rk_check's rows) and
# $RESULTS/machine.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_REPO/testing/bench/lib/guest.sh"
# shellcheck disable=SC2034 # read by rekey.sh
RK_SECS=${SECS:-420} RK_RATE=${RATE:-150}
# shellcheck disable=SC2034
RK_MIN_CHILD=${MIN_CHILD:-3} RK_MIN_IKE=${MIN_IKE:-1}
# shellcheck disable=SC2034
RK_LOSS_FAILS=no RK_TSV=$RESULTS/rekey.tsv
. "$IKB_UML/lib/scenario/rekey.sh"
bench_guest_machine
rk_setup
rk_control
rk_traffic
echo "$RK_IDLE" >"$RESULTS/idle"
rk_check
pass
