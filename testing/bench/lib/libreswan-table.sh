#!/bin/sh
# Guest side of testing/bench/libreswan-table, inside UML (started by
# testing/uml/boot with ROUNDS, SECS, SETS and IKB_BUILD).
# Topology west-east-pairs with one address pair per esp= set (pair I:
# west 198.51.100.I <-> east 203.0.113.I); plaintext runs between the
# hosts' own addresses (192.0.2.1 -> 192.0.2.2), which no policy covers.
# Each round:
#   1. ikebana on east (responder) and west (initiator, auto=start) load one
#      tunnel-mode conn per set (the interop matrix's writer,
#      testing/uml/lib/scenario/matrix.sh): all the sets are negotiated at once;
#   2. each host must hold exactly one SA each way per pair, with the set's
#      kernel algorithm, in tunnel mode;
#   3. iperf3 TCP west -> east for SECS seconds: plaintext, then each set
#      through its pair; each ESP transfer must move west's outbound and
#      east's inbound ESP counters of that pair by one packet per 1500
#      bytes received, or the bench fails (a cleartext leak cannot pass);
#   4. both daemons stop by PID (removing their SAs) and their state goes.
# Writes $RESULTS/rounds.tsv (round, set, kernel algorithm, Mbit/s) and
# $RESULTS/machine.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/matrix.sh"
. "$IKB_REPO/testing/bench/lib/guest.sh"
: "${ROUNDS:=3}" "${SECS:=3}"
: "${SETS:=aes_gcm128-null,null-sha1,null-aes_xcbc,aes128-sha1,aes256-sha1,aes256-aes_xcbc,3des-sha1,aes_ctr128-sha1,aes_ctr256-sha1}"
# shellcheck disable=SC2034 # read by matrix.sh
{
	MX_ESP=$(echo "$SETS" | tr , ' ')
	MX_N=$(echo "$MX_ESP" | wc -w)
	MX_MODE=tunnel
	PAIRS=$MX_N
}

bench_setup west-east-pairs rounds.tsv

# One iperf3 server on east, on every address, for every transfer.
bench_iperf_server

# kernel_alg SRC: the algorithms of west's SA from SRC, as the kernel names them.
kernel_alg() {
	ip -n west xfrm state list src "$1" | awk '$1 ~ /^(aead|enc|auth-trunc)$/ {
		printf "%s%s", (n++ ? " + " : ""), $2 } END { print "" }'
}

# measure ROUND SET SRC DST: one iperf3 run from SRC to DST; a row of the tsv.
# Few processes: on a busy host each one costs UML up to half a second.
# shellcheck disable=SC2154 # _json is set by bench_iperf
measure() {
	if [ "$2" != plaintext ]; then
		_o0=$(bench_sa_packets west "$3") _i0=$(bench_sa_packets east "$3")
	fi
	bench_iperf _json west -c "$4" -B "$3" -t "$SECS"
	read -r _bytes _mbit <<-EOF
	$(echo "$_json" | jq -r '.end.sum_received | "\(.bytes) \(.bits_per_second / 1e6 | . * 100 | round / 100)"')
	EOF
	_alg=-
	if [ "$2" != plaintext ]; then
		_o1=$(bench_sa_packets west "$3") _i1=$(bench_sa_packets east "$3")
		_min=$((_bytes / 1500))
		if [ $((_o1 - _o0)) -lt "$_min" ] || [ $((_i1 - _i0)) -lt "$_min" ] || [ "$_min" = 0 ]; then
			fail "esp=$2: $_bytes bytes received but ESP west out $_o0 -> $_o1, east in $_i0 -> $_i1 packets (expected at least $_min more)"
		fi
		[ "$1" = 1 ] && _alg=$(kernel_alg "$3")
		log "ok: round $1 esp=$2: $_mbit Mbit/s, ESP west out +$((_o1 - _o0)), east in +$((_i1 - _i0)) packets"
	else
		log "ok: round $1 plaintext: $_mbit Mbit/s"
	fi
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$_alg" "$_mbit" >>"$tsv"
}

round() {
	log "=== round $1: ikebana negotiates $MX_N tunnel-mode conns, one per esp= set"
	_mx_t0=$(now_cs)
	_mx_write ikebana east 1 responder
	_mx_load ikebana east 1
	_mx_write ikebana west 1 initiator
	_mx_load ikebana west 1
	poll_for 60 _mx_have_all $((2 * MX_N)) ||
		fail "after 60 s west has $(_mx_count west) and east $(_mx_count east) ESP SAs, expected $((2 * MX_N)) each"
	poll_for 10 _mx_both_sas_ok || {
		cat "$HOSTS/west/log/sas.check" "$HOSTS/east/log/sas.check"
		fail "the SADs do not hold what the conns asked for (above)"
	}
	log "ok: $(cat "$HOSTS/west/log/sas.check") ($(($(now_cs) - _mx_t0))0 ms)"
	measure "$1" plaintext "$A" "$B"
	_i=0
	for _set in $MX_ESP; do
		_i=$((_i + 1))
		# shellcheck disable=SC2046 # "local remote"
		set -- "$1" $(pair_addrs west "$_i")
		measure "$1" "$_set" "$2" "$3"
	done
	bench_ikb_stop west east
	bench_ikb_clear west east
}

r=1
while [ "$r" -le "$ROUNDS" ]; do
	round "$r"
	r=$((r + 1))
done
kill "$srv" 2>/dev/null
pass
