#!/bin/sh
# MOBIKE (RFC 4555) against strongSwan on road-nic-east without NAT, tunnel
# mode between road's 10.9.2.1 and east's 10.9.1.1, ikebana in both roles:
#   1  ikebana on road (mobike=yes) initiates, strongSwan on east answers;
#      road's address moves 198.51.100.2 -> .3: ikebana sends
#      UPDATE_SA_ADDRESSES from .3 and strongSwan's SAs follow; same IKE SA
#      and SPIs, pings both ways, only ESP and IKE on road's link
#   2  strongSwan on road initiates, ikebana on east (mobike=yes) answers;
#      road moves 198.51.100.2 -> .4: strongSwan's UPDATE_SA_ADDRESSES
#      moves ikebana's IKE SA and Child SA, same SPIs, pings both ways
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_UML/lib/scenario/nat.sh"
. "$IKB_UML/lib/scenario/mobike.sh"
NAT=no
topology road-nic-east
mobike_inner
mobike_road_case strongswan 198.51.100.2 198.51.100.3
nat_reset
road_move 198.51.100.3 198.51.100.2
mobike_east_case strongswan 198.51.100.2 198.51.100.4
pass
