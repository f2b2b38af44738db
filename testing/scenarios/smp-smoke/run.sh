#!/bin/sh
# The SMP test kernel boots with 2 vCPUs and carries IPsec (issue 21,
# item 1): one smoke run; the scaling benches use the same kernel.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
[ "$(nproc)" = 2 ] || fail "nproc says $(nproc), expected 2 (ncpus=2)"
online=$(cat /sys/devices/system/cpu/online)
[ "$online" = 0-1 ] || fail "CPUs online: $online, expected 0-1"
for cpu in 0 1; do
	got=$(taskset -c "$cpu" sh -c 'awk "{ print \$39 }" /proc/self/stat')
	[ "$got" = "$cpu" ] || fail "a process pinned to CPU $cpu ran on CPU $got"
done
log "ok: $(uname -r), 2 vCPUs online ($online), a process runs on each"
for m in pcrypt xfrm_interface; do
	modprobe "$m" || fail "modprobe $m failed"
	grep -q "^$m " /proc/modules || fail "$m is not loaded"
done
log "ok: pcrypt and xfrm_interface load"
topology west-east
IKB_KERNEL=kernel-xfrm
_ikb_conf west
peer ikebana west east responder psk ike=$IKB_IKE esp=aes_gcm128
peer strongswan east west initiator psk ike=$IKB_IKE esp=aes_gcm128
expect_sa west alg=aes_gcm128 timeout=30
# _ping_on CPU: west pings east from a process pinned to CPU
_ping_on() {
	_o=$(ip netns exec west taskset -c "$1" ping -n -q -c 3 -i 0.2 -W 2 \
		"$(addr_of east 4)" 2>&1) || fail "ping on CPU $1: $_o"
	log "ok: ping west -> east on CPU $1: $(echo "$_o" | grep -o '[0-9]* received')"
}
for cpu in 0 1; do
	expect_esp_grows west _ping_on "$cpu"
done
log "ok: ESP both ways with the pings on CPU 0 and on CPU 1"
pass
