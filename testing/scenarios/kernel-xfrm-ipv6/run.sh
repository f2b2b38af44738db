#!/bin/sh
# IPv6 addresses through every message, and the largest window.
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/kernel-xfrm.sh"
topology west-east
a=$(addr_of west 6) b=$(addr_of east 6)
key=$(hexkey 20)
for h in west east; do
	[ $h = west ] && d1=out d2=in || { d1=in d2=out; }
	xc $h sa-add --src "$a" --dst "$b" --spi 0x9001 --dir $d1 --reqid 6 \
		--aead 'rfc4106(gcm(aes))' --key "$key" --icv 128 --window 4096 --esn
	xc $h sa-add --src "$b" --dst "$a" --spi 0x9002 --dir $d2 --reqid 6 \
		--aead 'rfc4106(gcm(aes))' --key "$key" --icv 128 --window 4096 --esn
done
# Host to host, TCP/UDP/ICMPv6 alike; ND stays in clear because its
# packets come from link-local addresses, which these selectors leave out.
xc west policy-add --src "$a" --dst "$b" --dir out --reqid 6
xc west policy-add --src "$b" --dst "$a" --dir in --reqid 6
xc east policy-add --src "$b" --dst "$a" --dir out --reqid 6
xc east policy-add --src "$a" --dst "$b" --dir in --reqid 6
expect_sa east count=1 dir=in replay=4096 esn=1
ip -n east xfrm state | grep -q 'replay_window 4096, bitmap-length 128' || fail "no 128-word bitmap"
ip -n west xfrm policy | grep -q "src $a/128 dst $b/128" || fail "no /128 policy"
capture_start west:eth0
expect_esp_grows west ping_ok west east 3 6
expect_only_esp west:eth0
q=$(xc east sa-query --dst "$b" --spi 0x9001)
[ "$(field "$q" packets)" -gt 0 ] || fail "sa-query: $q"
log "ok: sa-query east 0x9001: $q"
pass
