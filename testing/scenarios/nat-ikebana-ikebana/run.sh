#!/bin/sh
# NAT traversal between two ikebanas on road-nic-east:
#   1  road initiates from behind the NAT in transport mode: ESP in UDP,
#      ping both ways, iperf3, no bare ESP on nic's outside link; keep-alive=2
#      holds nic's 4 s mapping through 10 idle seconds
#   2  tunnel mode between the hosts' own addresses; nic maps road to
#      another address (192.0.2.253) and forgets the old mapping while road
#      pings: east moves its SAs and policies there and reaches road again
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_UML/lib/scenario/nat.sh"
topology road-nic-east
need_nat nic
IKEBANA_SETUP='\tkeep-alive=2'
nat_case ikebana ikebana transport
nat_keepalive_case
nat_reset
nat_case ikebana ikebana tunnel lsubnet=198.51.100.2/32 rsubnet=192.0.2.2/32
nat_address_case 198.51.100.2
pass
