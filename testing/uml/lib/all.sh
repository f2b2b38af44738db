# Sourced by a scenario's run.sh (inside UML): loads every helper.
#   . "$IKB_UML/lib/all.sh"
# shellcheck shell=sh source-path=SCRIPTDIR
# shellcheck source=common.sh
. "$IKB_UML/lib/common.sh"
# shellcheck source=topology.sh
. "$IKB_UML/lib/topology.sh"
# shellcheck source=xfrm.sh
. "$IKB_UML/lib/xfrm.sh"
# shellcheck source=assert.sh
. "$IKB_UML/lib/assert.sh"
# shellcheck source=traffic.sh
. "$IKB_UML/lib/traffic.sh"
# shellcheck source=dump.sh
. "$IKB_UML/lib/dump.sh"
# shellcheck source=pki.sh
. "$IKB_UML/lib/pki.sh"
# shellcheck source=peers/peer.sh
. "$IKB_UML/lib/peers/peer.sh"
# shellcheck source=peers/manual.sh
. "$IKB_UML/lib/peers/manual.sh"
# shellcheck source=peers/strongswan.sh
. "$IKB_UML/lib/peers/strongswan.sh"
# shellcheck source=peers/libreswan.sh
. "$IKB_UML/lib/peers/libreswan.sh"
# shellcheck source=peers/ikebana.sh
. "$IKB_UML/lib/peers/ikebana.sh"
# shellcheck source=explain.sh
. "$IKB_UML/lib/explain.sh"

# init's timeout sends TERM: still show the reader what the hosts were doing.
trap 'log "scenario killed by its timeout"; dump_all; exit 124' TERM
