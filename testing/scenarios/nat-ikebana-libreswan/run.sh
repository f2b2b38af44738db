#!/bin/sh
# NAT traversal against libreswan 4.10 on road-nic-east, ikebana in both
# roles:
#   1  ikebana on road initiates, libreswan on east answers (right=%any),
#      tunnel mode between the hosts' own addresses (libreswan 4.10 narrows
#      no transport-mode TS of a peer behind a NAT): ESP in UDP, ping both
#      ways, iperf3; keep-alive=2 holds nic's mapping, whose conntrack
#      timeout is 4 s, through 10 idle seconds
#   2  libreswan on road initiates in transport mode, ikebana on east
#      answers; nic forgets road's mapping while road pings and maps it to
#      ports 41000-41999: ikebana follows (XFRM_MSG_MAPPING), and east
#      reaches road again
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_UML/lib/scenario/nat.sh"
topology road-nic-east
need_nat nic
IKEBANA_SETUP='\tkeep-alive=2'
nat_case ikebana libreswan tunnel lsubnet=198.51.100.2/32 rsubnet=192.0.2.2/32
nat_keepalive_case 198.51.100.2
nat_reset
nat_case libreswan ikebana transport
nat_mapping_case
pass
