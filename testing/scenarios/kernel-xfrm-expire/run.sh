#!/bin/sh
# Events: the kernel's EXPIRE multicast, decoded and filtered to ours.
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/kernel-xfrm.sh"
topology west-east
a=$(addr_of west) b=$(addr_of east)
ev=$HOSTS/west/log/watch.log

# watch takes charge as the daemon does: start it before installing.
timeout -k 2 60 ip netns exec west "$XFRMCTL" watch --count 1 --timeout 40 >"$ev" 2>&1 &
watch=$!
wait_for 10 "xfrmctl watch" grep -q watching "$ev"

key=$(hexkey 20)
gcm="--aead rfc4106(gcm(aes)) --key $key --icv 128 --window 64"
# shellcheck disable=SC2086
xc west sa-add --src "$a" --dst "$b" --spi 0x5001 --dir out --reqid 3 $gcm \
	--soft-bytes 2000 --hard-bytes 1000000
# shellcheck disable=SC2086
xc west sa-add --src "$b" --dst "$a" --spi 0x5002 --dir in --reqid 3 $gcm
# shellcheck disable=SC2086
xc east sa-add --src "$a" --dst "$b" --spi 0x5001 --dir in --reqid 3 $gcm
# shellcheck disable=SC2086
xc east sa-add --src "$b" --dst "$a" --spi 0x5002 --dir out --reqid 3 $gcm
xc west policy-add --src "$a" --dst "$b" --dir out --reqid 3
xc east policy-add --src "$b" --dst "$a" --dir out --reqid 3
# A manual SA that soon soft-expires: not ours, so watch must not see that,
# and it survives watch's exit.
ip -n west xfrm state add src "$a" dst "$b" proto esp spi 0x7777 reqid 7 mode transport \
	aead 'rfc4106(gcm(aes))' 0x"$key" 128 limit time-soft 1 || fail "manual SA"

t 20 ip netns exec west ping -n -q -c 4 -i 0.2 -s 1000 "$b" >/dev/null || fail "ping"
wait "$watch"
rc=$?
cat "$ev"
[ "$rc" = 0 ] || fail "watch ended with $rc"
grep -q "^EXPIRE soft dst=$b spi=0x00005001 proto=50 reqid=3" "$ev" ||
	fail "no soft EXPIRE for 0x5001 with reqid 3"
log "ok: soft EXPIRE event: $(grep EXPIRE "$ev")"
[ "$(sa_count west)" = 1 ] || fail "after watch: $(sa_count west) SAs on west, expected the manual one"
ip -n west xfrm state get src "$a" dst "$b" proto esp spi 0x7777 >/dev/null || fail "manual SA gone"
[ -z "$(ip -n west xfrm policy)" ] || fail "policies left after watch"
log "ok: watch's exit removed ours and kept the manual SA"
pass
