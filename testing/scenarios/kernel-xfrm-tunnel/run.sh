#!/bin/sh
# Tunnel mode with a cipher and a separate integrity algorithm (CRYPT +
# AUTH_TRUNC), subnet to subnet. The subnets are addresses on lo, routed
# through the link with the subnet address as source.
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/kernel-xfrm.sh"
topology west-east
a=$(addr_of west) b=$(addr_of east)
ip -n west addr add 10.1.0.1/24 dev lo && ip -n east addr add 10.2.0.1/24 dev lo &&
	ip -n west route add 10.2.0.0/24 via "$b" src 10.1.0.1 &&
	ip -n east route add 10.1.0.0/24 via "$a" src 10.2.0.1 || fail "subnets"

sa_pair west east 0x2001 0x2002 tunnel --enc 'cbc(aes)' --enc-key "$(hexkey 16)" \
	--auth 'hmac(sha256)' --auth-key "$(hexkey 32)" --window 64
# tunnel_policies HOST LOCALNET REMOTENET LOCAL REMOTE
tunnel_policies() {
	xc "$1" policy-add --src "$2" --dst "$3" --dir out --mode tunnel \
		--tmpl-src "$4" --tmpl-dst "$5" --reqid 1
	for _d in in fwd; do
		xc "$1" policy-add --src "$3" --dst "$2" --dir "$_d" --mode tunnel \
			--tmpl-src "$5" --tmpl-dst "$4" --reqid 1
	done
}
tunnel_policies west 10.1.0.0/24 10.2.0.0/24 "$a" "$b"
tunnel_policies east 10.2.0.0/24 10.1.0.0/24 "$b" "$a"
[ "$(ip -n west xfrm policy | grep -c 'mode tunnel')" = 3 ] || fail "west: not 3 tunnel policies"
ip -n west xfrm policy | grep -q 'tmpl src 192.0.2.2 dst 192.0.2.1' || fail "west: inbound template"
expect_sa west count=2 mode=tunnel alg=aes128-sha2_256
expect_sa east count=1 dir=in mode=tunnel alg=aes128-sha2_256 replay=64 esn=0
ip -n east xfrm state | grep -q 'auth-trunc hmac(sha256) 0x[0-9a-f]* 128' ||
	fail "east: integrity not truncated to 128 bits"
log "ok: cbc(aes) + hmac(sha256)/128 tunnel SAs"

_iperf_to() { # FROM TOHOST ADDR
	timeout -k 2 60 ip netns exec "$2" iperf3 -s -1 >/dev/null 2>&1 &
	_srv=$!
	wait_for 10 "iperf3 server on $2" _iperf_listening "$2"
	_rate=$(t 60 ip netns exec "$1" iperf3 -c "$3" -n 4M -f m 2>&1 | awk '/receiver/ { print $7, $8 }')
	wait "$_srv" 2>/dev/null
	[ -n "$_rate" ] || fail "iperf3 $1 -> $3 failed"
	log "ok: iperf3 $1 -> $3: $_rate"
}
capture_start west:eth0 east:eth0
expect_esp_grows west ping_ok west 10.2.0.1
expect_esp_grows east _iperf_to east west 10.1.0.1
expect_only_esp west:eth0 east:eth0
q=$(xc east sa-query --dst "$b" --spi 0x2001)
[ "$(field "$q" packets)" -gt 0 ] || fail "sa-query: $q"
log "ok: sa-query east 0x2001: $q"
pass
