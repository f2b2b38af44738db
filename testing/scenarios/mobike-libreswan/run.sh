#!/bin/sh
# MOBIKE (RFC 4555) against libreswan 4.10 on road-nic-east without NAT,
# tunnel mode between road's 10.9.2.1 and east's 10.9.1.1: ikebana on road
# (mobike=yes) initiates, libreswan on east (mobike=yes) answers; road's
# address moves 198.51.100.2 -> .3: ikebana sends UPDATE_SA_ADDRESSES from
# .3 and libreswan migrates its SAs; same IKE SA and SPIs, pings both
# ways. (libreswan 4.10 moves as initiator only as a road warrior with
# XFRM_MSG_MIGRATE, so only the responder role is tested against it.)
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_UML/lib/scenario/nat.sh"
. "$IKB_UML/lib/scenario/mobike.sh"
NAT=no
topology road-nic-east
mobike_inner
mobike_road_case libreswan 198.51.100.2 198.51.100.3
pass
