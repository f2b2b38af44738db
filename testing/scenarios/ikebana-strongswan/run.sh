#!/bin/sh
# ikebana (west) with strongSwan (east), PSK, IKE aes_gcm256-sha2_256-dh19, ESP aes_gcm128, transport: ikebana initiates on kernel-xfrm (same SPIs and keys in both kernels, ping through ESP, delete from west removes the SAs on both), then responds on kernel-mem (KEYMAT from status --private equals the peer's, delete from east); then strongswan on east crashes and initiates again: ikebana replaces the old IKE SA (INITIAL_CONTACT or uniqueids) with one SA pair and ESP flowing, and stops with a Delete that removes the peer's SAs; then SA packet limits: ikebana with ipsec-max-packets=400 rekeys at its soft EXPIRE as west pings east, and answers strongSwan's rekey at its rekey_packets, new SPIs in both kernels each time
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_UML/lib/scenario/limits.sh"
topology west-east
ikb_case strongswan initiator kernel-xfrm
ikb_delete_case strongswan west
ikb_reset
ikb_case strongswan responder kernel-mem
ikb_delete_case strongswan east
ikb_reset
ikb_restart_case strongswan
ikb_reset
ikb_limits_case strongswan
pass
