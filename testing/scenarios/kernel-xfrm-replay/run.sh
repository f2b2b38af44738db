#!/bin/sh
# The two windows that stay in the legacy u8 field: 0 and 32.
. "$IKB_UML/lib/all.sh"
. "$SCENARIO_DIR/../kernel-xfrm-lib/xfrmctl.sh"
topology west-east
a=$(addr_of west) b=$(addr_of east)
transport_policies west east
key=$(hexkey 20)

sa_pair west east 0x3001 0x3002 transport --aead 'rfc4106(gcm(aes))' --key "$key" --icv 128 --window 0
expect_sa east count=1 dir=in replay=0 esn=0
ip -n east xfrm state get src "$a" dst "$b" proto esp spi 0x3001 | grep -q 'esn context' &&
	fail "window 0 got an ESN replay context"
expect_esp_grows west ping_ok west east
log "ok: window 0"

for h in west east; do
	xc "$h" sa-del --dst "$b" --spi 0x3001
	xc "$h" sa-del --dst "$a" --spi 0x3002
done
expect_no_sa west
expect_no_sa east

sa_pair west east 0x3201 0x3202 transport --aead 'rfc4106(gcm(aes))' --key "$key" --icv 128 --window 32
expect_sa east count=1 dir=in replay=32 esn=0
expect_sa west count=1 dir=out replay=0 esn=0
st=$(ip -n east xfrm state get src "$a" dst "$b" proto esp spi 0x3201)
echo "$st"
echo "$st" | grep -q 'replay-window 32' || fail "legacy replay-window is not 32"
echo "$st" | grep -q 'esn context' && fail "window 32 without ESN got an ESN context"
expect_esp_grows west ping_ok west east
q=$(xc east sa-query --dst "$b" --spi 0x3201)
log "ok: window 32: $q"
pass
