#!/bin/sh
# On-demand tunnels between ikebana and libreswan (see description).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_UML/lib/scenario/trap.sh"
PAIRS=2
topology west-east-pairs
W=198.51.100 E=203.0.113
p_auto=ondemand
peer libreswan east west add tunnel lsubnet=$E.0/24 rsubnet=$W.0/24 name=od
peer ikebana west east add tunnel lsubnet=$W.0/24 rsubnet=$E.0/24 name=od
p_auto=
capture_start west:eth0
trap_expect_trap west $W.0/24 $E.0/24
trap_expect_trap east $E.0/24 $W.0/24
expect_no_sa west
capture_wait

# libreswan's trap fires; ikebana answers on its own trap's policies
wait_for 30 "a ping $E.1 -> $W.1 through libreswan's on-demand tunnel" _ping_from east $E.1 $W.1
expect_sa west mode=tunnel
trap_expect_one_out west $W.0/24 $E.0/24
expect_esp_grows west _ping_from west $W.1 $E.1 3

# down: both ends lose the SAs and keep their traps
_ikb west down od || fail "ikebana down od failed"
wait_for 20 "west's SAs to go" _no_sas west
wait_for 20 "east's SAs to go" _no_sas east
trap_expect_trap west $W.0/24 $E.0/24
trap_expect_trap east $E.0/24 $W.0/24

# ikebana's trap fires
wait_for 30 "a ping $W.1 -> $E.1 through ikebana's on-demand tunnel" _ping_from west $W.1 $E.1
expect_sa west mode=tunnel
grep -q 'ACQUIRE for' "$HOSTS/west/log/ikebanad.log" || fail "west logged no ACQUIRE"
trap_expect_one_out west $W.0/24 $E.0/24
expect_esp_grows west _ping_from west $W.2 $E.2 3

capture_stop
trap_no_clear west:eth0 "icmp and src net $W.0/24" "ICMP of the tunnel's hosts"
pass
