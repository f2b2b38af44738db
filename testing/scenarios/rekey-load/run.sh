#!/bin/sh
# Rekeys under load lose nothing (issue 19 item 4): ikebana on west with
# strongSwan, libreswan and ikebana, three conns per peer at once (ikebana
# initiates and rekeys; the peer does; ikebana rekeys the IKE SA while the
# peer rekeys the Child SA); Child SAs rekeyed every 10-12 s and IKE SAs
# every 26-28 s while sequence-numbered UDP flows both ways; nothing lost
# or duplicated, the rekeys counted from west's SAD and log (see
# testing/uml/lib/scenario/rekey.sh).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/rekey.sh"
rk_setup
rk_control
rk_traffic
rk_check
pass
