#!/bin/sh
# Guest side of testing/bench/tuning, inside UML (started by
# testing/uml/boot with ROUNDS, SECS and IKB_BUILD). ikebana on west and
# east (default plugins: replay-window, multi-sa, kernel-xfrm) negotiate
# four conns, one address pair each, all esp=aes_gcm128 without ESN:
#   w0     replay-window=0      1 Child SA
#   w128   replay-window=128    1 Child SA
#   w2048  replay-window=2048   1 Child SA
#   sa4    replay-window=128, leftprotoports=tcp/5301..5304: 4 Child SAs
# Each row's SAs are read back first: east's inbound ones must hold the
# window in the kernel's replay state with ceil(window / 32) bitmap words
# (none for 0), west's outbound ones window 0. Then, per round and row,
# one iperf3 client sends four parallel TCP streams west -> east for SECS,
# from the ports 5301..5304 (--cport) to 5201. One client, not four: its
# streams start together and it sums them over the same seconds, where
# four clients in a busy one-CPU UML start seconds apart. sa4's entries
# are those client ports, so each stream rides its own SA pair. Every
# stream must cross the row's SAs: per SPI, west's outbound and east's
# inbound ESP counters grow by at least one packet per 1500 bytes of the
# streams they carry (one SA: all four; sa4: each port's pair its own),
# and no SA of another row moves. Writes $RESULTS/rows.tsv (round, row,
# Mbit/s, replay drops on east's inbound SAs during the transfer) and
# $RESULTS/sas.tsv (row, states per host, window, bitmap words).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_REPO/testing/bench/lib/guest.sh"
: "${ROUNDS:=3}" "${SECS:=10}"

PORTS='5301 5302 5303 5304'
# row, west's address, east's address, replay-window, protoports (- none),
# ESP states per host, bitmap words expected on east's inbound SAs
ROWS='w0 192.0.2.1 192.0.2.2 0 - 2 0
w128 192.0.2.11 192.0.2.12 128 - 2 4
w2048 192.0.2.21 192.0.2.22 2048 - 2 64
sa4 192.0.2.31 192.0.2.32 128 tcp/5301,tcp/5302,tcp/5303,tcp/5304 8 4'
BD=$HOSTS/west/log/bench
mkdir -p "$BD"

# _each FUNC: FUNC once per row, its fields in r_*; the lines come on fd 3.
_each() {
	while read -r r_name r_wa r_ea r_win r_pp r_nsa r_bmp <&3; do
		"$1"
	done 3<<-EOF
	$ROWS
	EOF
}

topology "$IKB_REPO/testing/bench/lib/tuning.topology"
bench_guest_machine
: >"$RESULTS/rows.tsv"
: >"$RESULTS/sas.tsv"
bench_fresh_tcp west east

# The same conns on both hosts: ikebana takes the side whose address it
# has as left or right, and leftprotoports are west's ports either way.
_conn() {
	printf 'conn %s\n\tleft=%s\n\tright=%s\n\talso=base\n\treplay-window=%s\n' \
		"$r_name" "$r_wa" "$r_ea" "$r_win"
	[ "$r_pp" = - ] || printf '\tleftprotoports=%s\n' "$r_pp"
	printf '\tauto=add\n\n'
}
_secret() { printf '%s %s : PSK "ikebana-bench-tuning-%s"\n' "$r_wa" "$r_ea" "$r_name"; }
conf=$BD/ikebana.d.conf
{
	printf 'conn base\n\tauthby=secret\n\ttype=transport\n\tike=aes_gcm128-sha2_256-dh19\n'
	printf '\tesp=aes_gcm128\n\tesn=no\n\tauto=ignore\n\n'
	_each _conn
} >"$conf"
for h in west east; do
	_peer_note_daemon "$h" ikebana
	mkdir -p "$HOSTS/$h/etc/ikebana.d"
	cp "$conf" "$HOSTS/$h/etc/ikebana.d/tuning.conf"
	_each _secret >"$HOSTS/$h/etc/ikebana.secrets"
done
bench_ikb_start west east

# Every conn up, from west, all at once (--no-wait); the SAs are then
# counted in both kernels.
_up() { _ikb west up --no-wait "$r_name" || log "ikebana up --no-wait $r_name on west returned an error"; }
_each _up
_total=0
_count() { _total=$((_total + r_nsa)); }
_each _count
# east, the responder, installs each Child SA before it answers: when west
# has them all, so has east (_layout counts both).
expect_sa west count=$_total timeout=60

# _snap HOST: HOST's ESP states from one `ip -s xfrm state` (each process
# costs in UML, so everything below reads these snapshots), one line each:
#   SRC DST SPI PORT PACKETS WINDOW BMP LEGACY DROPS BYTES
# PORT: the selector's port (sport or dport, whichever is set; 0: none);
# WINDOW and BMP: the replay context's window and bitmap words (else the
# legacy field and 0); LEGACY: the legacy u8 field; DROPS: packets dropped
# as replays or as older than the window; BYTES: what the SA processed.
_snap() {
	ip -n "$1" -s xfrm state | awk "$SAD_AWK"'
	function flush() {
		if (spi != "" && proto == "esp")
			print src, dst, spi, port, packets, window, bmp, legacy, replays + outside, bytes
	}'
}

# _layout: the row's states on both hosts (snapshots $BD/layout.HOST):
# r_nsa each; east's inbound ones with the row's window and bitmap words and
# the legacy field 0; west's outbound ones window 0.
_layout() {
	_n=0 _ni=0 _no=0
	while read -r _src _dst _spi _port _pk _win _bmp _leg _dr; do
		case "$_src $_dst" in "$r_wa $r_ea" | "$r_ea $r_wa") ;; *) continue ;; esac
		_n=$((_n + 1))
		[ "$_src" = "$r_wa" ] || continue
		[ "$_win $_bmp $_leg" = "$r_win $r_bmp 0" ] ||
			fail "$r_name: east's inbound SA $_spi has window $_win, $_bmp bitmap words, legacy field $_leg; expected $r_win, $r_bmp, 0"
		_ni=$((_ni + 1))
	done <"$BD/layout.east"
	[ "$_n" = "$r_nsa" ] || fail "$r_name: east has $_n ESP states, expected $r_nsa"
	[ "$_ni" = $((r_nsa / 2)) ] || fail "$r_name: east has $_ni inbound SAs, expected $((r_nsa / 2))"
	_n=0
	while read -r _src _dst _spi _port _pk _win _bmp _leg _dr; do
		case "$_src $_dst" in "$r_wa $r_ea" | "$r_ea $r_wa") ;; *) continue ;; esac
		_n=$((_n + 1))
		[ "$_src" = "$r_wa" ] || continue
		[ "$_win $_bmp" = "0 0" ] ||
			fail "$r_name: west's outbound SA $_spi has window $_win ($_bmp bitmap words), expected 0"
		_no=$((_no + 1))
	done <"$BD/layout.west"
	[ "$_n" = "$r_nsa" ] || fail "$r_name: west has $_n ESP states, expected $r_nsa"
	printf '%s\t%s\t%s\t%s\n' "$r_name" "$r_nsa" "$r_win" "$r_bmp" >>"$RESULTS/sas.tsv"
	log "ok: $r_name: $r_nsa ESP states on each host; east's $_ni inbound: window $r_win, $r_bmp bitmap words, legacy field 0; west's $_no outbound: window 0"
}
_snap west >"$BD/layout.west"
_snap east >"$BD/layout.east"
_each _layout

# One iperf3 server on east for every row and round.
bench_iperf_server

# _measure ROUND: the row's four streams, then the checks.
_measure() {
	_rd=$1 _tag="$r_name.$1"
	_snap west >"$BD/$_tag.west0"
	_snap east >"$BD/$_tag.east0"
	_json=$BD/$_tag.json
	# shellcheck disable=SC2086 # PORTS is a list of words
	set -- $PORTS
	t $((SECS + 30)) ip netns exec west iperf3 -c "$r_ea" -B "$r_wa" -p 5201 --cport "$1" -P $# \
		-t "$SECS" -J >"$_json" 2>&1 ||
		fail "$r_name round $_rd: iperf3 failed: $(jq -r '.error // empty' "$_json" 2>/dev/null)"
	_snap west >"$BD/$_tag.west1"
	_snap east >"$BD/$_tag.east1"
	# PORT BYTES per stream (client port, bytes east received), then
	# "sum BYTES BITS_PER_SECOND"
	jq -r '([.start.connected[] | {(.socket | tostring): .local_port}] | add) as $port |
		(.end.streams[].receiver | "\($port[.socket | tostring]) \(.bytes)"),
		"sum \(.end.sum_received.bytes) \(.end.sum_received.bits_per_second)"' \
		"$_json" >"$BD/$_tag.streams" 2>&1 || fail "$r_name round $_rd: iperf3's result: $(cat "$BD/$_tag.streams")"
	# Prints what is wrong, or "# HOST SPI:PORT +PACKETS" per state of the
	# row west -> east, and last "= MBIT DROPS" (iperf3's sum, and the
	# replay drops on east's inbound states of the row).
	_chk=$(awk -v a="$r_wa" -v b="$r_ea" -v pp="$r_pp" '
		FILENAME ~ /streams$/ { if ($1 == "sum") { all = $2; bps = $3 } else bytes[$1] = $2; next }
		{ h = (FILENAME ~ /\.west[01]$/) ? "west" : "east"; k = h SUBSEP $3 }
		FILENAME ~ /0$/ { p0[k] = $5; d0[k] = $9; next }
		!(k in p0) { next }
		!($1 == a && $2 == b) && !($1 == b && $2 == a) {
			if ($5 != p0[k]) printf "%s %s (%s -> %s, another row) moved: %d -> %d packets\n", h, $3, $1, $2, p0[k], $5
			next }
		$1 == b { next }
		{
			if (pp != "-" && !($4 in bytes)) { print h " " $3 " has port " $4 ", no stream came from there"; next }
			want = (pp == "-") ? all : bytes[$4]
			d = $5 - p0[k]
			if (want == 0 || d < want / 1500)
				printf "%s %s (port %s) +%d packets for %d bytes, expected at least %d\n", h, $3, $4, d, want, want / 1500
			else printf "# %s %s:%s +%d\n", h, $3, $4, d
			if (h == "east") drops += $9 - d0[k]
		}
		END { printf "= %.1f %d\n", bps / 1e6, drops }' \
		"$BD/$_tag.streams" "$BD/$_tag.west0" "$BD/$_tag.east0" "$BD/$_tag.west1" "$BD/$_tag.east1")
	_nok=0 _wrong='' _mbit='' _drops=''
	while read -r _a _b _c _rest; do
		case $_a in
		'#') _nok=$((_nok + 1)) ;;
		=) _mbit=$_b _drops=$_c ;;
		*) _wrong="$_wrong; $_a $_b $_c $_rest" ;;
		esac
	done <<-EOF
	$_chk
	EOF
	if [ -n "$_wrong" ] || [ "$_nok" != "$r_nsa" ] || [ -z "$_mbit" ]; then
		fail "$r_name round $_rd: the streams did not cross the row's SAs as expected ($_nok of $r_nsa states grew)$_wrong"
	fi
	printf '%s\t%s\t%s\t%s\n' "$_rd" "$r_name" "$_mbit" "$_drops" >>"$RESULTS/rows.tsv"
	log "ok: $r_name round $_rd: $_mbit Mbit/s in 4 streams; replay drops +$_drops; ESP per SPI: $(printf '%s' "$_chk" | tr '\n' ';')"
}

i=1
while [ "$i" -le "$ROUNDS" ]; do
	_round() { _measure "$i"; }
	_each _round
	i=$((i + 1))
done
kill "$srv" 2>/dev/null
pass
