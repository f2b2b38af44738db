#!/bin/sh
# What the kernel refuses, and what the backend does about it.
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/kernel-xfrm.sh"
topology west-east
a=$(addr_of west) b=$(addr_of east)
sa() { echo sa-add --src "$a" --dst "$b" --spi "$1" --dir out --reqid 1; }
gcm="--aead rfc4106(gcm(aes)) --key $(hexkey 20) --icv 128 --window 64"

# shellcheck disable=SC2046,SC2086 # word lists on purpose
out=$(xc_refused west $(sa 0x4001) --aead 'rfc4106(nosuch(aes))' --key "$(hexkey 20)" --icv 128)
log "refused: $out"
echo "$out" | grep -q 'xfrmctl: sa-add: kernel: .*(' || fail "no kernel message: $out"
# shellcheck disable=SC2046
out=$(xc_refused west $(sa 0x4002) --enc 'cbc(nosuch)' --enc-key "$(hexkey 16)" --auth 'hmac(sha256)' --auth-key "$(hexkey 32)")
log "refused: $out"
echo "$out" | grep -q 'kernel: ' || fail "no kernel message: $out"
expect_no_sa west
[ -z "$(ip -n west xfrm policy)" ] || fail "a policy was left"

# nic-offload: veth has no ESP offload.
# shellcheck disable=SC2046,SC2086
out=$(xc west $(sa 0x4101) $gcm --offload yes --dev eth0)
log "offload=yes: $out"
echo "$out" | grep -q 'runs in software' || fail "no software notice for nic-offload=yes"
expect_sa west count=1 spi=0x00004101
# shellcheck disable=SC2046,SC2086
out=$(xc_refused west $(sa 0x4102) $gcm --offload crypto --dev eth0)
log "offload=crypto refused: $out"
echo "$out" | grep -qE 'kernel: |cannot offload ESP: the kernel put SA' || fail "no refusal message: $out"
# shellcheck disable=SC2046,SC2086
out=$(xc_refused west $(sa 0x4103) $gcm --offload packet --dev eth0)
log "offload=packet refused: $out"
echo "$out" | grep -q 'kernel: ' || fail "no kernel message: $out"
[ "$(sa_count west)" = 1 ] || fail "refused offload SAs were left: $(sa_count west) SAs"

# pcrypt: this kernel has no pcrypt module.
# shellcheck disable=SC2046,SC2086
out=$(xc west $(sa 0x4201) $gcm --pcrypt)
log "pcrypt: $out"
echo "$out" | grep -q 'warning: pcrypt=yes' || fail "no pcrypt warning"
expect_sa west count=1 spi=0x00004201
xc west flush-own
expect_no_sa west
pass
