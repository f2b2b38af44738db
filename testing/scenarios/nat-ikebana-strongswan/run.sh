#!/bin/sh
# NAT traversal against strongSwan on road-nic-east, ikebana in both roles:
#   1  ikebana on road initiates, strongSwan on east answers (right=%any):
#      ESP in UDP, ping both ways, iperf3; keepalive=2 holds nic's mapping,
#      whose conntrack timeout is 4 s, through 10 idle seconds
#   2  strongSwan on road initiates, ikebana on east answers; nic forgets
#      road's mapping while road pings and maps it to ports 41000-41999:
#      ikebana follows (XFRM_MSG_MAPPING), and east reaches road again
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_UML/lib/scenario/nat.sh"
topology road-nic-east
need_nat nic
IKEBANA_SETUP='\tkeep-alive=2'
nat_case ikebana strongswan transport
nat_keepalive_case
nat_reset
nat_case strongswan ikebana transport
nat_mapping_case
pass
