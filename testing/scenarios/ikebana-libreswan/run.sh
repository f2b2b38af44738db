#!/bin/sh
# ikebana (west) with libreswan (east), PSK, IKE aes_gcm256-sha2_256-dh19, ESP aes_gcm128, transport: ikebana initiates on kernel-xfrm (same SPIs and keys in both kernels, ping through ESP, delete from west removes the SAs on both), then responds on kernel-mem (KEYMAT from status --private equals the peer's, delete from east); then libreswan on east crashes and initiates again: ikebana replaces the old IKE SA (INITIAL_CONTACT or uniqueids) with one SA pair and ESP flowing, and stops with a Delete that removes the peer's SAs
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
topology west-east
ikb_case libreswan initiator kernel-xfrm
ikb_delete_case libreswan west
ikb_reset
ikb_case libreswan responder kernel-mem
ikb_delete_case libreswan east
ikb_reset
ikb_restart_case libreswan
pass
