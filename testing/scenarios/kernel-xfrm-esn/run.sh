#!/bin/sh
# The backend's main path: AEAD SAs with a window over 32 and ESN, which
# need XFRMA_REPLAY_ESN_VAL (the legacy u8 field would wrap 2048 to 0).
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/kernel-xfrm.sh"
topology west-east
a=$(addr_of west) b=$(addr_of east)
sa_pair west east 0x1001 0x1002 transport --aead 'rfc4106(gcm(aes))' \
	--key "$(hexkey 20)" --icv 128 --window 2048 --esn
transport_policies west east

# Inbound: the full window in the ESN replay state; outbound: 1, the least
# the kernel takes with ESN.
expect_sa west count=1 dir=in alg=aes_gcm128 esn=1 replay=2048
expect_sa west count=1 dir=out alg=aes_gcm128 esn=1 replay=1
expect_sa east count=1 dir=in alg=aes_gcm128 esn=1 replay=2048
st=$(ip -n east xfrm state get src "$a" dst "$b" proto esp spi 0x1001)
echo "$st"
echo "$st" | grep -q 'reqid 1229062145 ' || fail "reqid not in kernel-xfrm's range"
echo "$st" | grep -q 'flag .*esn' || fail "no esn flag"
echo "$st" | grep -q 'seq-hi 0x0' || fail "no ESN replay context (seq-hi)"
echo "$st" | grep -q 'replay_window 2048, bitmap-length 64' || fail "ESN bitmap is not 64 words for 2048"
log "ok: east's inbound SA has the ESN replay context, window 2048, 64-word bitmap"

q0=$(xc east sa-query --dst "$b" --spi 0x1001)
capture_start west:eth0 east:eth0
expect_esp_grows west ping_ok west east
expect_esp_grows east iperf_ok east west
expect_esp_grows west iperf_ok west east
q1=$(xc east sa-query --dst "$b" --spi 0x1001)
p0=$(field "$q0" packets) p1=$(field "$q1" packets)
[ "$p1" -gt "$p0" ] || fail "sa-query packets did not grow: $p0 -> $p1"
[ "$(field "$q1" add_time)" -gt 0 ] || fail "sa-query has no add_time"
[ "$(field "$q1" replay_fail)" = 0 ] || fail "replay failures: $q1"
log "ok: sa-query on east: packets $p0 -> $p1 ($q1)"
expect_only_esp west:eth0 east:eth0

# Ownership: a manual SA stays when kernel-xfrm flushes its own.
ip -n west xfrm state add src "$a" dst "$b" proto esp spi 0x7777 reqid 7 mode transport \
	aead 'rfc4106(gcm(aes))' 0x"$(hexkey 20)" 128 || fail "manual SA"
xc west dump
xc west flush-own
[ "$(sa_count west)" = 1 ] || fail "flush-own left $(sa_count west) SAs, expected the manual one"
ip -n west xfrm state get src "$a" dst "$b" proto esp spi 0x7777 >/dev/null || fail "manual SA gone"
[ -z "$(ip -n west xfrm policy)" ] || fail "flush-own left policies: $(ip -n west xfrm policy)"
log "ok: flush-own removed ours, kept the manual SA"
pass
