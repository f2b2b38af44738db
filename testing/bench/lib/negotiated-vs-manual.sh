#!/bin/sh
# Guest side of testing/bench/negotiated-vs-manual, inside UML (started by
# testing/uml/boot with ROUNDS, BYTES, ESP and IKB_BUILD). Each round:
#   1. ikebana on west and east (kernel-xfrm) negotiate a transport-mode
#      Child SA with esp=$ESP;
#   2. the SAs and policies are read back from each namespace (keys too);
#   3. iperf3 sends BYTES west -> east through them: "negotiated";
#   4. both daemons are stopped by PID, and must have removed their SAs;
#   5. the same SAs and policies go back in by hand (`ip xfrm state add`,
#      `ip xfrm policy add`, one `ip -b` batch per host), and must read back
#      identical, keys included;
#   6. iperf3 again: "manual"; then everything is flushed.
# Every transfer must cross the SAs: west's outbound and east's inbound
# ESP packet counters must grow by at least BYTES / 1500 packets.
# Writes $RESULTS/rounds.tsv (round, negotiated and manual Mbit/s) and
# $RESULTS/machine (the guest's kernel and CPUs).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_REPO/testing/bench/lib/guest.sh"
: "${ROUNDS:=3}" "${BYTES:=64M}" "${ESP:=aes_gcm128}"

case $BYTES in
*M) nbytes=$((${BYTES%M} * 1048576)) ;;
*K) nbytes=$((${BYTES%K} * 1024)) ;;
*) nbytes=$BYTES ;;
esac
min_packets=$((nbytes / 1500))

# Each connection starts from scratch (bench_fresh_tcp): without it the
# kernel would hand the second transfer to east the first one's ssthresh
# (tcp_metrics), and short transfers would favour whichever phase runs first.
bench_setup west-east rounds.tsv

# One iperf3 server on east for every transfer.
bench_iperf_server

# measure WHAT: one transfer of BYTES west -> east; prints Mbit/s. Fails
# when it does not run or does not cross the ESP SAs.
measure() {
	_o0=$(esp_packets west dir=out) _i0=$(esp_packets east dir=in)
	# the server takes a moment to finish the last test: "busy" is asked
	# again, up to 5 times, anything else fails
	_try=0
	until _json=$(t 300 ip netns exec west iperf3 -c "$B" -n "$BYTES" -J 2>&1); do
		_err=$(echo "$_json" | jq -r '.error // empty' 2>/dev/null)
		case $_err in *busy*) ;; *) fail "iperf3 west -> east ($1) failed: $_err" ;; esac
		_try=$((_try + 1))
		[ "$_try" -lt 5 ] || fail "iperf3 west -> east ($1): the server stayed busy: $_err"
		poll_for 2 false
	done
	_mbit=$(echo "$_json" | jq -r '.end.sum_received.bits_per_second / 1e6 | . * 100 | round / 100')
	_o1=$(esp_packets west dir=out) _i1=$(esp_packets east dir=in)
	if [ $((_o1 - _o0)) -lt "$min_packets" ] || [ $((_i1 - _i0)) -lt "$min_packets" ]; then
		fail "$1: the transfer did not cross the ESP SAs (west out $_o0 -> $_o1, east in $_i0 -> $_i1 packets, expected at least $min_packets more)"
	fi
	log "ok: $1: $_mbit Mbit/s, ESP west out +$((_o1 - _o0)), east in +$((_i1 - _i0)) packets" >&2
	echo "$_mbit"
}

# measured WHAT: measure's figure; when it fails, what it said goes to
# the log (fail inside $(...) would print into the variable).
measured() {
	measure "$1" >"$RESULTS/measure.out" 2>"$RESULTS/measure.err"
	_mrc=$?
	cat "$RESULTS/measure.err" >&2
	[ "$_mrc" = 0 ] || { cat "$RESULTS/measure.out" >&2; return 1; }
	cat "$RESULTS/measure.out"
}

round() {
	_r=$1
	log "=== round $_r: negotiate (esp=$ESP)"
	# shellcheck disable=SC2034 # read by _ikb_conf (cases.sh)
	IKB_KERNEL=kernel-xfrm
	_ikb_conf west
	_ikb_conf east
	peer ikebana east west responder psk esp="$ESP"
	peer ikebana west east initiator psk esp="$ESP"
	expect_sa west timeout=30
	expect_sa east timeout=30
	for _h in west east; do
		xfrm_norm "$_h" >"$HOSTS/$_h/log/sa.$_r"
		xfrm_policy_batch "$_h" >"$HOSTS/$_h/log/policy.$_r"
		[ "$(wc -l <"$HOSTS/$_h/log/sa.$_r")" = 2 ] ||
			fail "$_h: expected 2 SAs: $(cat "$HOSTS/$_h/log/sa.$_r")"
	done
	[ "$_r" = 1 ] && [ "${WARMUP:-yes}" = yes ] && measure warm-up >/dev/null
	_neg=$(measured "round $_r negotiated") || exit 1
	bench_ikb_stop west east
	for _h in west east; do
		{ xfrm_state_batch <"$HOSTS/$_h/log/sa.$_r"; cat "$HOSTS/$_h/log/policy.$_r"; } \
			>"$HOSTS/$_h/log/manual.$_r"
		ip -n "$_h" -b "$HOSTS/$_h/log/manual.$_r" ||
			fail "$_h: ip -b $(cat "$HOSTS/$_h/log/manual.$_r")"
		xfrm_norm "$_h" >"$HOSTS/$_h/log/sa-manual.$_r"
		cmp -s "$HOSTS/$_h/log/sa.$_r" "$HOSTS/$_h/log/sa-manual.$_r" ||
			fail "$_h: the hand-set SAs differ from the negotiated ones:
$(diff "$HOSTS/$_h/log/sa.$_r" "$HOSTS/$_h/log/sa-manual.$_r")"
		[ "$(xfrm_policy_batch "$_h" | sort)" = "$(sort "$HOSTS/$_h/log/policy.$_r")" ] ||
			fail "$_h: the hand-set policies differ: $(xfrm_policy_batch "$_h")"
	done
	log "ok: the same SAs (SPIs, algorithm, keys, replay window, lifetimes) and policies set by hand"
	_man=$(measured "round $_r manual") || exit 1
	printf '%s\t%s\t%s\n' "$_r" "$_neg" "$_man" >>"$tsv"
	clean_hosts
}

# clean_hosts: what ikb_reset does, but the iperf3 server stays: the hand-set
# SAs and policies go, and the daemons' state (they are stopped already).
clean_hosts() {
	for _h in west east; do
		ip -n "$_h" xfrm state flush
		ip -n "$_h" xfrm policy flush
	done
	bench_ikb_clear west east
}

i=1
while [ "$i" -le "$ROUNDS" ]; do
	round "$i"
	# the kernel's algorithm names, for the report
	[ "$i" = 1 ] && cut -d'|' -f4 "$HOSTS/west/log/sa.1" |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(aead|enc|auth|auth-trunc)$/) printf "%s%s", (n++ ? " + " : ""), $(i + 1); print ""; exit }' \
			>"$RESULTS/kernel_alg"
	i=$((i + 1))
done
kill "$srv" 2>/dev/null
pass
