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
# pcrypt=yes on west: its SAs run through pcrypt, which this kernel has
PEER_CONN_EXTRA='\tpcrypt=yes\n\treplay-window=512'
peer ikebana west east responder psk ike=$IKB_IKE esp=aes_gcm128
PEER_CONN_EXTRA=
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

# pcrypt: one instance over the AEAD, and no second one when another
# process asks again (xfrmctl, as a restarted daemon would): the kernel
# answers NEWALG by wrapping what is there, pcrypt(pcrypt(...))
_pcr() { grep -c '^driver.*: pcrypt(rfc4106(' /proc/crypto; }
_nest() { grep -c '^driver.*: pcrypt(pcrypt(' /proc/crypto; }
_st=$(t 20 "$IKB_CLI" --rundir "$HOSTS/west/run" status --json | jq -r '[.ike_sas[].child_sas[].pcrypt] | unique | join(",")')
[ "$_st" = on ] || fail "west's status says pcrypt '$_st', expected on"
[ "$(_pcr)" = 1 ] || fail "the kernel has $(_pcr) pcrypt instances over rfc4106, expected 1"
K=0x0102030405060708090a0b0c0d0e0f1011121314
for spi in 0x4201 0x4202; do
	ip netns exec west "$IKB_BUILD/testing/tools/xfrmctl" sa-add --src 192.0.2.9 --dst 192.0.2.10 \
		--spi "$spi" --aead 'rfc4106(gcm(aes))' --key "$K" --icv 128 --pcrypt >"$HOSTS/west/log/xfrmctl.out" 2>&1 ||
		fail "xfrmctl sa-add --pcrypt: $(cat "$HOSTS/west/log/xfrmctl.out")"
done
[ "$(_pcr)" = 1 ] && [ "$(_nest)" = 0 ] ||
	fail "pcrypt nested: $(grep '^driver.*pcrypt' /proc/crypto | tr '\n' ' ')"
log "ok: pcrypt on for west's SAs, one pcrypt instance, none nested after two more probes"
pass
