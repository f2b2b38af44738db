#!/bin/sh
# The responder's path (ALLOCSPI, then UPDSA) and SAs with marks.
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/kernel-xfrm.sh"
topology west-east
a=$(addr_of west) b=$(addr_of east)
key=$(hexkey 20)

spi=$(xc east spi-alloc --src "$a" --dst "$b" --reqid 4)
log "allocated $spi"
st=$(ip -n east xfrm state get src "$a" dst "$b" proto esp spi "$spi")
echo "$st"
echo "$st" | grep -q 'reqid 1229062148 ' || fail "larval SA without kernel-xfrm's reqid"
echo "$st" | grep -q aead && fail "larval SA already has an algorithm"
xc east sa-update --src "$a" --dst "$b" --spi "$spi" --dir in --reqid 4 \
	--aead 'rfc4106(gcm(aes))' --key "$key" --icv 128 --window 128 --esn
expect_sa east count=1 dir=in alg=aes_gcm128 replay=128 esn=1
[ "$(sa_count east)" = 1 ] || fail "sa-update added an SA instead of filling the larval one"
log "ok: sa-update filled the larval SA $spi"

xc west sa-add --src "$a" --dst "$b" --spi 0x6001 --dir out --reqid 4 \
	--aead 'rfc4106(gcm(aes))' --key "$key" --icv 128 --mark 0x5/0xff
ip -n west xfrm state | grep -q 'mark 0x5/0xff' || fail "no mark on the SA"
q=$(xc west sa-query --dst "$b" --spi 0x6001)
log "ok: marked SA queried without its mark: $q"
xc west sa-del --dst "$b" --spi 0x6001
expect_no_sa west
out=$(xc_refused west sa-del --dst "$b" --spi 0x6001)
echo "$out" | grep -q 'kernel: ' || fail "no kernel message for a missing SA: $out"
log "ok: deleting it again: $out"
pass
