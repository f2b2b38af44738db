#!/bin/sh
# Guest side of testing/bench/cilium-table, inside UML (started by
# testing/uml/boot with ROUNDS, SECS, UDP_RATE, UDP_LEN, UDP_BURST, TESTS
# and IKB_BUILD). Two nodes, west and east, on one veth (the underlay,
# 192.0.2.1 and 192.0.2.2). Each column is a "pod" address pair on lo,
# routed between the nodes the column's way:
#   native        10.1.1.1 <-> 10.2.1.1 via the underlay
#   native-ipsec  10.1.2.1 <-> 10.2.2.1 via the underlay, through an ESP
#                 tunnel-mode SA between the node addresses (Cilium's
#                 native routing with IPsec: node to node, pod CIDRs inside)
#   geneve        10.1.3.1 <-> 10.2.3.1 via geneve0 (VNI 42, UDP 6081
#                 between the node addresses; overlay 10.4.0.1/.2)
#   geneve-ipsec  10.1.4.1 <-> 10.2.4.1 via geneve0, through an ESP
#                 tunnel-mode SA between the overlay addresses: encrypted
#                 first, then encapsulated, as Cilium does in tunnel routing
# ikebana on both nodes negotiates the two SAs (IKEv2, PSK, esp=aes_gcm128;
# the geneve-ipsec IKE runs through the overlay). Each round runs, per
# column: iperf3 TCP, iperf3 UDP at UDP_RATE, iperf3 --bidir, qperf tcp_lat
# and udp_lat, qperf tcp_bw, SECS seconds each, west the client. Every run
# must move the column's counters both ways: ESP (the SA's packets on both
# nodes) for the IPsec columns, geneve0's tx on both nodes for the geneve
# ones, by at least one packet per 1500 bytes (per 2 transactions for
# latency), or the bench fails.
# Writes $RESULTS/rounds.tsv (round, column, metric, value), $RESULTS/machine,
# and $RESULTS/geneve ("yes" or why not).
# shellcheck source=/dev/null disable=SC2015,SC2034,SC2154 # the helpers are
# checked on their own; "a && b || fail" is meant (fail exits); the p_*
# variables are read by the peer helpers; _json is set by bench_iperf
. "$IKB_UML/lib/all.sh"
. "$IKB_REPO/testing/bench/lib/guest.sh"
: "${ROUNDS:=3}" "${SECS:=2}" "${UDP_RATE:=100M}" "${UDP_LEN:=1200}" "${UDP_BURST:=100}"
: "${TESTS:=tcp,udp,bidir,lat,stream}"
TESTS=$(echo "$TESTS" | tr , ' ')

bench_setup west-east rounds.tsv

# Servers on east, on every address: iperf3 and qperf. They start while
# the rest is set up.
timeout -k 2 3000 ip netns exec east iperf3 -s >"$HOSTS/east/log/iperf3.log" 2>&1 &
timeout -k 2 3000 ip netns exec east qperf >"$HOSTS/east/log/qperf.log" 2>&1 &

# The pods: addresses on lo, routed with their own source address. One
# `ip -b` per node (each process costs UML up to half a second when the
# host is busy).
pods() { # NODE LOCALNET REMOTENET C VIA [DEV]
	echo "addr add $2.$4.1/32 dev lo"
	echo "route add $3.$4.0/24 via $5 ${6:+dev $6} src $2.$4.1"
}
for c in 1 2; do
	pods west 10.1 10.2 "$c" "$B" >>/tmp/pods.west
	pods east 10.2 10.1 "$c" "$A" >>/tmp/pods.east
done
COLUMNS="native native-ipsec"

# Geneve, when the kernel has it: the overlay between the node addresses.
if modprobe -q geneve 2>/dev/null &&
	ip -n west link add geneve0 type geneve id 42 remote "$B" 2>"$RESULTS/geneve.err" &&
	ip -n east link add geneve0 type geneve id 42 remote "$A" 2>>"$RESULTS/geneve.err"; then
	echo yes >"$RESULTS/geneve"
	printf '%s\n' "addr add 10.4.0.1/24 dev geneve0" "link set geneve0 up" >>/tmp/pods.west
	printf '%s\n' "addr add 10.4.0.2/24 dev geneve0" "link set geneve0 up" >>/tmp/pods.east
	for c in 3 4; do
		pods west 10.1 10.2 "$c" 10.4.0.2 geneve0 >>/tmp/pods.west
		pods east 10.2 10.1 "$c" 10.4.0.1 geneve0 >>/tmp/pods.east
	done
	COLUMNS="$COLUMNS geneve geneve-ipsec"
	echo 10.4.0.1 >>"$HOSTS/west/local"
	echo 10.4.0.2 >>"$HOSTS/east/local"
else
	echo "not in this kernel ($(head -n 1 "$RESULTS/geneve.err" 2>/dev/null))" >"$RESULTS/geneve"
	log "no geneve: $(cat "$RESULTS/geneve")"
fi
for h in west east; do
	ip -n "$h" -b "/tmp/pods.$h" || fail "$h: ip -b $(cat "/tmp/pods.$h")"
done
[ -s "$RESULTS/geneve" ] && log "ok: pods routed; geneve: $(cat "$RESULTS/geneve")"

# column_ends COL: "west-pod east-pod sa-west sa-east dev" for COL; sa-* is
# the ESP SA's outer address on each node (- without IPsec), dev the
# overlay device (- natively).
column_ends() {
	case $1 in
	native) echo "10.1.1.1 10.2.1.1 - - -" ;;
	native-ipsec) echo "10.1.2.1 10.2.2.1 $A $B -" ;;
	geneve) echo "10.1.3.1 10.2.3.1 - - geneve0" ;;
	geneve-ipsec) echo "10.1.4.1 10.2.4.1 10.4.0.1 10.4.0.2 geneve0" ;;
	esac
}

# The conns: tunnel mode, node (or overlay) addresses outside, the pod
# subnets inside; east answers, west starts them.
ipsec_conn() { # HOST NAME LOCAL REMOTE LOCALNET REMOTENET ROLE
	p_host=$1 p_name=$2 p_local=$3 p_raddr=$4 p_lid=$3 p_rid=$4
	p_mode=tunnel p_esp=aes_gcm128 p_ike=aes_gcm256-sha2_256-dh19 p_replay='' p_esn=''
	p_secret=ikebana-testing-$2 p_auto=add
	[ "$7" = initiator ] && p_auto=start
	mkdir -p "$HOSTS/$1/etc/ikebana.d"
	{
		echo "conn $2"
		_ipsec_conf_body "$4"
		printf '\tleftsubnet=%s\n\trightsubnet=%s\n' "$5" "$6"
	} >"$HOSTS/$1/etc/ikebana.d/$2.conf"
	_peer_psk_line >>"$HOSTS/$1/etc/ikebana.secrets"
	chmod 600 "$HOSTS/$1/etc/ikebana.secrets"
}
nsas=1
ipsec_conn east native-ipsec "$B" "$A" 10.2.2.0/24 10.1.2.0/24 responder
ipsec_conn west native-ipsec "$A" "$B" 10.1.2.0/24 10.2.2.0/24 initiator
case $COLUMNS in *geneve-ipsec*)
	nsas=2
	ipsec_conn east geneve-ipsec 10.4.0.2 10.4.0.1 10.2.4.0/24 10.1.4.0/24 responder
	ipsec_conn west geneve-ipsec 10.4.0.1 10.4.0.2 10.1.4.0/24 10.2.4.0/24 initiator ;;
esac
p_auto=''
# Both daemons start at once; west's conns start when it reads them.
starts=
for h in east west; do
	_peer_note_daemon "$h" ikebana
	(ikebana_start "$h") &
	starts="$starts $!"
done
# shellcheck disable=SC2086 # PIDs (a bare wait would wait for the servers)
wait $starts
[ -e "$HOSTS/east/ikebanad.pid" ] && [ -e "$HOSTS/west/ikebanad.pid" ] || fail "ikebanad did not start"
expect_sa west count=$((2 * nsas)) timeout=60 mode=tunnel alg=aes_gcm128
expect_sa east count=$((2 * nsas)) timeout=60 mode=tunnel alg=aes_gcm128
wait_for 10 "iperf3 server on east" _iperf_listening east
wait_for 10 "qperf server on east" sh -c "ip netns exec east ss -ltnH 'sport = :19765' | grep -q ."

# counters COL: "W E" packets west and east sent the column's way: each
# node's outbound ESP SA of the column, or geneve0's tx; 0 0 natively.
# geneve0 counts a GSO burst (up to 64 KiB) as one packet: with _unit=bytes
# its tx bytes instead (ESP SAs count the segments: always packets).
counters() {
	# shellcheck disable=SC2046 # the words of column_ends
	set -- $(column_ends "$1")
	if [ "$3" != - ]; then
		echo "$(bench_sa_packets west "$3") $(bench_sa_packets east "$4")"
	elif [ "$5" != - ]; then
		echo "$(_txp west "$5") $(_txp east "$5")"
	else
		echo "0 0"
	fi
}
_txp() { ip -n "$1" -j -s link show dev "$2" | jq ".[0].stats64.tx.${_unit:-packets}"; }

# moved COL BEFORE MIN_W MIN_E WHAT: the column's counters grew by at least
# MIN_W (west) and MIN_E (east) packets since BEFORE ("W E"), unless native.
# With geneve0 counted in bytes, at least 1500 bytes per packet expected.
moved() {
	[ "$1" = native ] && return 0
	_after=$(counters "$1")
	_s=1 _u=packets
	[ "$1" = geneve ] && [ "$_unit" = bytes ] && _s=1500 _u=bytes
	# shellcheck disable=SC2086 # two numbers each
	set -- "$1" $2 $_after $(($3 * _s)) $(($4 * _s)) "$5"
	if [ $(($4 - $2)) -lt "$6" ] || [ $(($5 - $3)) -lt "$7" ] || [ "$6" -le 0 ]; then
		fail "$1 $8: west sent $(($4 - $2)) and east $(($5 - $3)) $_u through the column's ESP SA or geneve0, expected at least $6 and $7"
	fi
}

row() { printf '%s\t%s\t%s\t%s\n' "$r" "$1" "$2" "$3" >>"$tsv"; }
jqn() { echo "$_json" | jq -r "$1"; }

# One column, every test. W and E are the pods.
column() {
	_col=$1
	# shellcheck disable=SC2046
	set -- $(column_ends "$_col")
	W=$1 E=$2
	_tests=$TESTS
	# SMOKE: one test per column, different ones, so that every column and
	# every test runs once.
	if [ -n "${SMOKE:-}" ]; then
		case $_col in
		native) _tests=udp ;; native-ipsec) _tests=bidir ;;
		geneve) _tests=lat ;; geneve-ipsec) _tests="tcp stream" ;;
		esac
	fi
	for _t in $_tests; do
		_unit=packets
		case $_t in tcp | bidir | stream) _unit=bytes ;; esac
		_c0=$(counters "$_col")
		case $_t in
		tcp)
			bench_iperf _json west -c "$E" -B "$W" -t "$SECS"
			moved "$_col" "$_c0" $(($(jqn .end.sum_received.bytes) / 1500)) 1 "TCP"
			row "$_col" tcp_mbit "$(jqn '.end.sum_received.bits_per_second / 1e6')" ;;
		udp)
			bench_iperf _json west -c "$E" -B "$W" -t "$SECS" -u -b "$UDP_RATE/$UDP_BURST" -l "$UDP_LEN"
			_got=$(($(jqn .end.sum_received.packets) - $(jqn .end.sum_received.lost_packets)))
			# east sends nothing back through the column
			moved "$_col" "$_c0" "$_got" 0 "UDP"
			row "$_col" udp_sent_mbit "$(jqn '.end.sum_sent.bits_per_second / 1e6')"
			row "$_col" udp_mbit "$(jqn '.end.sum_received.bits_per_second / 1e6')"
			row "$_col" udp_lost_pct "$(jqn '.end.sum_received.lost_percent')" ;;
		bidir)
			bench_iperf _json west -c "$E" -B "$W" -t "$SECS" --bidir
			moved "$_col" "$_c0" $(($(jqn .end.sum_received.bytes) / 1500)) \
				$(($(jqn .end.sum_received_bidir_reverse.bytes) / 1500)) "bidirectional TCP"
			row "$_col" bidir_tx_mbit "$(jqn '.end.sum_received.bits_per_second / 1e6')"
			row "$_col" bidir_rx_mbit "$(jqn '.end.sum_received_bidir_reverse.bits_per_second / 1e6')" ;;
		lat | stream)
			_qt="tcp_lat udp_lat"
			[ "$_t" = stream ] && _qt=tcp_bw
			# shellcheck disable=SC2086 # the list of tests
			_out=$(t 120 ip netns exec west qperf -t "$SECS" -v -ub -uu "$E" $_qt 2>&1) ||
				fail "qperf $_qt $W -> $E failed: $_out"
			echo "$_out" >>"$HOSTS/west/log/qperf.$_col"
			_q=$(echo "$_out" | awk '/^[a-z_]+:$/ { t = $1; sub(":", "", t) }
				$1 == "latency" && $4 == "ns" { printf "%s_rtt_us %.2f\n", t, 2 * $3 / 1000 }
				$1 == "bw" && $4 == "bits/sec" { printf "%s_mbit %.2f\n", t, $3 / 1e6 }
				$1 == "msg_rate" { m[t] = $3 } $1 == "time" { s[t] = $3 / 1e9 }
				END { for (k in m) printf "%s_msgs %d\n", k, m[k] * s[k] }')
			[ "$(echo "$_q" | grep -c '_rtt_us\|_mbit')" = "$(echo "$_qt" | wc -w)" ] ||
				fail "qperf $_qt $W -> $E: no result in: $_out"
			_min=$(echo "$_q" | awk '$1 ~ /_msgs$/ { n = n == "" || $2 < n ? $2 : n } END { print int(n / 2) }')
			[ "$_t" = stream ] && _min=$(echo "$_q" | awk -v s="$SECS" '$1 == "tcp_bw_mbit" { print int($2 * 1e6 * s / 8 / 1500 / 2) }')
			_back=$_min
			[ "$_t" = stream ] && _back=1
			moved "$_col" "$_c0" "$_min" "$_back" "qperf $_qt"
			echo "$_q" | while read -r _k _v; do
				case $_k in *_msgs) ;; *) row "$_col" "$_k" "$_v" ;; esac
			done ;;
		*) fail "unknown test $_t" ;;
		esac
		log "ok: round $r $_col $_t"
	done
}

r=1
while [ "$r" -le "$ROUNDS" ]; do
	log "=== round $r: $COLUMNS"
	for col in $COLUMNS; do column "$col"; done
	r=$((r + 1))
done
pass
