#!/bin/sh
# ikebana (west) with ikebana (east), PSK, IKE aes_gcm256-sha2_256-dh19, ESP aes_gcm128, transport: ikebana initiates on kernel-xfrm (same SPIs and keys in both kernels, ping through ESP, delete from west removes the SAs on both), then responds on kernel-mem (KEYMAT from status --private equals the peer's, delete from east); then ikebana on east crashes and initiates again: ikebana replaces the old IKE SA (INITIAL_CONTACT or uniqueids) with one SA pair and ESP flowing, and stops with a Delete that removes the peer's SAs; mark= puts its mark on every SA and policy of both kernels, and only marked traffic takes the tunnel; both ends initiating at once (crossed on the wire by 300 ms of netem delay) keep the same one IKE SA and Child SA
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
topology west-east
ikb_case ikebana initiator kernel-xfrm
ikb_delete_case ikebana west
ikb_reset
ikb_case ikebana responder kernel-mem
ikb_delete_case ikebana east
ikb_reset
ikb_restart_case ikebana
ikb_reset
ikb_mark_case
ikb_reset
ikb_crossing_case
pass
