#!/bin/sh
# MOBIKE (RFC 4555) into a NAT, against strongSwan on road-nic-east:
# ikebana on road (mobike=yes) initiates to strongSwan on east without a
# NAT (IKE on 4500, ESP bare); then nic maps 198.51.100.5 to its own
# address (tc act_nat) and road's address moves 198.51.100.2 -> .5: the
# NAT detection of ikebana's
# UPDATE_SA_ADDRESSES finds the NAT, both ends' SAs become ESP in UDP at
# the NAT's address (same IKE SA and SPIs), pings go both ways, and road
# sends NAT-keepalives.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_UML/lib/scenario/nat.sh"
. "$IKB_UML/lib/scenario/mobike.sh"
NAT=no
topology road-nic-east
mobike_inner
mobike_nat_case strongswan 198.51.100.2 198.51.100.5
pass
