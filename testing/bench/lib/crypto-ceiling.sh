#!/bin/sh
# Guest side of testing/bench/crypto-ceiling, inside UML (started by
# testing/uml/boot with SECS, SETS, KE_SECS and IKB_BUILD).
#   1. For each esp= set in SETS (and plaintext first): transport-mode SAs
#      set by hand with `ip xfrm` between west and east (random keys, the
#      kernel algorithm that esp-proposals maps the set to), then iperf3
#      TCP west -> east for SECS seconds. No daemon runs: this is what the
#      kernel alone does with that algorithm, the ceiling for any daemon.
#      Each transfer must cross the SAs (west's outbound ESP counter grows
#      by at least one packet per 1500 bytes received).
#   2. ke_rate_bench: NSS key exchanges per second per group, in the same
#      guest, KE_SECS seconds per operation.
# Writes $RESULTS/esp.tsv (set, kernel algorithm, Mbit/s), $RESULTS/ke.md
# and $RESULTS/machine.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_REPO/testing/bench/lib/guest.sh"
: "${SECS:=3}" "${KE_SECS:=1}"
: "${SETS:=aes_gcm128 aes_gcm256 chacha20_poly1305 null-sha1 null-aes_xcbc aes128-sha1 aes256-sha1 aes256-aes_xcbc 3des-sha1 aes_ctr128-sha1 aes_ctr256-sha1}"
# boot passes NAME=VALUE words without spaces: SETS may come comma-separated
SETS=$(echo "$SETS" | tr , ' ')

bench_setup west-east esp.tsv

# hexkey BYTES: a random key.
hexkey() { echo "0x$(head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n')"; }

# alg_args SET: the `ip xfrm state` algorithm words for a libreswan esp=
# set, as plugins/esp-proposals maps it (aes_gcm128-null is the AEAD: the
# kernel has no integrity for it). Keys carry the salt or nonce.
alg_args() {
	_enc=${1%%-*} _integ=${1#*-}
	[ "$_integ" = "$1" ] && _integ=
	case $_enc in
	aes_gcm128) echo "aead rfc4106(gcm(aes)) $(hexkey 20) 128"; return ;;
	aes_gcm256) echo "aead rfc4106(gcm(aes)) $(hexkey 36) 128"; return ;;
	chacha20_poly1305) echo "aead rfc7539esp(chacha20,poly1305) $(hexkey 36) 128"; return ;;
	null) _e="enc ecb(cipher_null) \"\"" ;;
	aes128) _e="enc cbc(aes) $(hexkey 16)" ;;
	aes256) _e="enc cbc(aes) $(hexkey 32)" ;;
	3des) _e="enc cbc(des3_ede) $(hexkey 24)" ;;
	aes_ctr128) _e="enc rfc3686(ctr(aes)) $(hexkey 20)" ;;
	aes_ctr256) _e="enc rfc3686(ctr(aes)) $(hexkey 36)" ;;
	*) fail "crypto-ceiling: no kernel mapping for esp=$1" ;;
	esac
	case $_integ in
	sha1) echo "$_e auth-trunc hmac(sha1) $(hexkey 20) 96" ;;
	aes_xcbc) echo "$_e auth-trunc xcbc(aes) $(hexkey 16) 96" ;;
	sha2_256) echo "$_e auth-trunc hmac(sha256) $(hexkey 32) 128" ;;
	*) fail "crypto-ceiling: no kernel mapping for integrity $_integ in esp=$1" ;;
	esac
}

# install SET: the same two SAs in both namespaces, an out policy each way.
install() {
	_alg=$(alg_args "$1")
	for _h in west east; do
		{
			echo "xfrm state add src $A dst $B proto esp spi 0x1001 reqid 1 mode transport $_alg replay-window 128 flag esn"
			echo "xfrm state add src $B dst $A proto esp spi 0x1002 reqid 1 mode transport $_alg replay-window 128 flag esn"
		} >"$HOSTS/$_h/log/manual.batch"
	done
	echo "xfrm policy add src $A dst $B dir out tmpl proto esp reqid 1 mode transport" >>"$HOSTS/west/log/manual.batch"
	echo "xfrm policy add src $B dst $A dir out tmpl proto esp reqid 1 mode transport" >>"$HOSTS/east/log/manual.batch"
	for _h in west east; do
		_err=$(ip -n "$_h" -b "$HOSTS/$_h/log/manual.batch" 2>&1) ||
			fail "esp=$1: the kernel refused the hand-set SAs on $_h: $_err"
	done
}

flush() {
	for _h in west east; do
		ip -n "$_h" xfrm state flush
		ip -n "$_h" xfrm policy flush
	done
}

# measure SET: iperf3 for SECS seconds; appends a row. For an ESP set the
# transfer must have crossed the SA.
measure() {
	_o0=$(esp_packets west dir=out)
	_json=$(t $((SECS * 4 + 60)) ip netns exec west iperf3 -c "$B" -t "$SECS" -J 2>&1) ||
		fail "iperf3 west -> east (esp=$1) failed: $(echo "$_json" | jq -r '.error // empty' 2>/dev/null)"
	_bytes=$(echo "$_json" | jq -r '.end.sum_received.bytes')
	_mbit=$(echo "$_json" | jq -r '.end.sum_received.bits_per_second / 1e6 | . * 100 | round / 100')
	_o1=$(esp_packets west dir=out)
	if [ "$1" != plaintext ]; then
		[ $((_o1 - _o0)) -ge $((_bytes / 1500)) ] && [ "$_o1" -gt "$_o0" ] ||
			fail "esp=$1: $_bytes bytes received but west sent only $((_o1 - _o0)) ESP packets"
	fi
	# the first SA's algorithms (both carry the same)
	_k=$(ip -n west xfrm state | awk '/^src / && s++ { exit }
		$1 ~ /^(aead|enc|auth-trunc)$/ { printf "%s%s", (n++ ? " + " : ""), $2 } END { print "" }')
	printf '%s\t%s\t%s\n' "$1" "${_k:--}" "$_mbit" >>"$tsv"
	log "ok: esp=$1 (${_k:-no SA}): $_mbit Mbit/s"
}

bench_iperf_server

measure plaintext
for set in $SETS; do
	install "$set"
	measure "$set"
	flush
done
kill "$srv" 2>/dev/null

t 120 "$IKB_BUILD/testing/unit/crypto/ke_rate_bench" "$KE_SECS" >"$RESULTS/ke.md" ||
	fail "ke_rate_bench failed: $(cat "$RESULTS/ke.md")"
log "ok: key exchanges per second measured"
pass
