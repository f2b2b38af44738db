#!/bin/sh
# Guest side of testing/bench/scaling, inside the SMP UML kernel with 2
# vCPUs (started by testing/uml/boot with ROUNDS, SECS and IKB_BUILD).
# ikebana on west and east (default plugins) negotiate one conn per row,
# each on its own address pair, transport mode, esp=aes_gcm128, no ESN:
#   plain    no conn: the same path in clear, the ceiling
#   sa1      one SA, replay-window=128
#   one      the same with one flow only (vCPU 0): what one CPU does
#   clones2  clones=2: per-CPU SAs (RFC 9611), one per CPU and the fallback
#   pp2      leftprotoports=tcp/5301,tcp/5302: two SAs, one per flow
#   w2048    one SA, replay-window=2048
#   pcr128   pcrypt=yes, replay-window=128
#   pcr2048  pcrypt=yes, replay-window=2048
# pcrypt is kernel-wide: once its instance exists, every SA the kernel then
# makes with that AEAD runs through it. So the first six rows come up and
# are measured first; then the pcrypt rows come up (which makes the
# instance) and are measured. Per round, row and direction, two iperf3 TCP
# flows run at once, each from
# a client pinned to its own CPU (taskset) to a server pinned to the same
# CPU on the other host, client ports 5301 and 5302 (pp2's selectors):
# "fwd" west sends, "rev" (-R) east sends. On veth the receive path runs
# on the sending CPU, so each flow is encrypted and decrypted on its CPU.
# Checks: the row's SAs carried the flows (receiver's inbound ESP packets
# grew by at least one per 1500 bytes); for clones2 and pp2 two of the
# sender's outbound SAs carried at least a tenth each (the flows really
# were on two SAs); the kernel has no pcrypt instance while the first
# rows run, and has pcrypt(rfc4106(gcm(aes))) with ikebana's status saying
# pcrypt on for the pcrypt rows. Writes $RESULTS/rows.tsv: round, row, dir, Mbit/s (both
# flows), flow 1, flow 2, replay drops on the receiver's inbound SAs, the
# sender's outbound SAs that carried a tenth or more.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_REPO/testing/bench/lib/guest.sh"
: "${ROUNDS:=3}" "${SECS:=10}"

[ "$(nproc)" -ge 2 ] || fail "the guest has $(nproc) CPU: boot the SMP kernel with UML_KERNEL=smp"
modprobe pcrypt || fail "modprobe pcrypt failed"
# phase, row, west's address, east's address, conn keys (- none; a;b: two
# lines), ESP states per host once up
ROWS='1 plain 192.0.2.1 192.0.2.2 - 0
1 sa1 192.0.2.11 192.0.2.12 replay-window=128 2
1 one 192.0.2.71 192.0.2.72 replay-window=128 2
1 clones2 192.0.2.21 192.0.2.22 clones=2 6
1 pp2 192.0.2.31 192.0.2.32 leftprotoports=tcp/5301,tcp/5302 4
1 w2048 192.0.2.61 192.0.2.62 replay-window=2048 2
2 pcr128 192.0.2.41 192.0.2.42 pcrypt=yes;replay-window=128 2
2 pcr2048 192.0.2.51 192.0.2.52 pcrypt=yes;replay-window=2048 2'
BD=$HOSTS/west/log/bench
mkdir -p "$BD"

# _each FUNC [PHASE]: FUNC once per row (of PHASE), its fields in r_*
_each() {
	while read -r r_phase r_name r_wa r_ea r_keys r_nsa <&3; do
		[ -z "${2:-}" ] || [ "$r_phase" = "$2" ] || continue
		"$1"
	done 3<<-EOF
	$ROWS
	EOF
}

topology "$IKB_REPO/testing/bench/lib/scaling.topology"
bench_guest_machine
: >"$RESULTS/rows.tsv"
bench_fresh_tcp west east

_conn() {
	[ "$r_keys" = - ] && return
	printf 'conn %s\n\tleft=%s\n\tright=%s\n\talso=base\n' "$r_name" "$r_wa" "$r_ea"
	echo "$r_keys" | tr ';' '\n' | sed 's/^/\t/'
	printf '\tauto=add\n\n'
}
_secret() {
	[ "$r_keys" = - ] || printf '%s %s : PSK "ikebana-bench-scaling-%s"\n' "$r_wa" "$r_ea" "$r_name"
}
conf=$BD/scaling.conf
{
	printf 'conn base\n\tauthby=secret\n\ttype=transport\n\tike=aes_gcm128-sha2_256-dh19\n'
	printf '\tesp=aes_gcm128\n\tesn=no\n\tauto=ignore\n\n'
	_each _conn
} >"$conf"
for h in west east; do
	_peer_note_daemon "$h" ikebana
	mkdir -p "$HOSTS/$h/etc/ikebana.d"
	cp "$conf" "$HOSTS/$h/etc/ikebana.d/scaling.conf"
	_each _secret >"$HOSTS/$h/etc/ikebana.secrets"
done
bench_ikb_start west east
_up() { [ "$r_keys" = - ] || _ikb west up --no-wait "$r_name" || log "ikebana up --no-wait $r_name returned an error"; }
_total=0
_count() { _total=$((_total + r_nsa)); }
# _phase_up N: the rows of phase N up, and every state of them and before
_phase_up() {
	_each _up "$1"
	_each _count "$1"
	expect_sa west count=$_total timeout=90
	expect_sa east count=$_total timeout=30
}

# _snap HOST: SRC DST SPI PACKETS DROPS per ESP state
_snap() {
	ip -n "$1" -s xfrm state | awk "$SAD_AWK"'
	function flush() {
		if (spi != "" && proto == "esp")
			print src, dst, spi, packets, replays + outside
	}'
}
_pcrypt_instance() { grep -q '^driver.*: pcrypt(rfc4106(' /proc/crypto; }
# _pcrypt_is WANT: ikebana's status on west says pcrypt WANT for the row
_pcrypt_is() {
	_got=$(t 20 "$IKB_CLI" --rundir "$HOSTS/west/run" status --json |
		jq -r --arg c "$r_name" '[.ike_sas[] | select(.conn == $c) | .child_sas[].pcrypt] | unique | join(",")')
	[ "$_got" = "$1" ] || fail "$r_name: ikebana's status says pcrypt '$_got', expected $1"
	log "ok: $r_name: pcrypt $_got"
}

# Two servers on each host, each pinned to its CPU: the flows' receivers
# (fwd) or senders (rev) run where their flow's client runs.
for h in west east; do
	for c in 0 1; do
		timeout -k 2 3000 ip netns exec "$h" taskset -c "$c" iperf3 -s -p $((5201 + c)) \
			>"$HOSTS/$h/log/iperf3-$c.log" 2>&1 &
	done
done
_listening() { ip netns exec east ss -ltnH 'sport = :5202' | grep -q .; }
wait_for 15 "iperf3 servers on east" _listening

# _measure ROUND DIR: the row's two flows, then the checks.
_measure() {
	_rd=$1 _dir=$2 _tag="$r_name.$1.$2" _rf=
	[ "$_dir" = rev ] && _rf=-R
	_snap west >"$BD/$_tag.west0"
	_snap east >"$BD/$_tag.east0"
	grep '^cpu[01] ' /proc/stat >"$BD/$_tag.stat0"
	_cpus='0 1' _p1=
	[ "$r_name" = one ] && _cpus=0
	for c in $_cpus; do
		# shellcheck disable=SC2086 # _rf: -R or nothing
		t $((SECS + 30)) ip netns exec west taskset -c "$c" iperf3 -c "$r_ea" -B "$r_wa" \
			-p $((5201 + c)) --cport $((5301 + c)) -t "$SECS" -J $_rf >"$BD/$_tag.$c.json" 2>&1 &
		eval "_p$c=\$!"
	done
	# shellcheck disable=SC2154 # _p0 and _p1 set by the eval above
	if ! wait "$_p0" || { [ -n "$_p1" ] && ! wait "$_p1"; }; then
		fail "$r_name round $_rd $_dir: iperf3 failed: $(jq -r '.error // empty' "$BD/$_tag".*.json 2>/dev/null)"
	fi
	grep '^cpu[01] ' /proc/stat >"$BD/$_tag.stat1"
	_snap west >"$BD/$_tag.west1"
	_snap east >"$BD/$_tag.east1"
	# each vCPU's busy share over the transfer, and its softirq share
	_busy=$(awk 'FNR == NR { for (i = 2; i <= NF; i++) a[$1, i] = $i; next }
		{ t = 0; for (i = 2; i <= NF; i++) t += $i - a[$1, i]
		  idle = ($5 - a[$1, 5]) + ($6 - a[$1, 6]); si = $8 - a[$1, 8]
		  printf "%s%d/%d", (n++ ? " " : ""), t ? 100 * (t - idle) / t : 0, t ? 100 * si / t : 0 }' \
		"$BD/$_tag.stat0" "$BD/$_tag.stat1")
	_f0=$(jq -r '.end.sum_received.bits_per_second / 1e6' "$BD/$_tag.0.json")
	_f1=0
	[ -z "$_p1" ] || _f1=$(jq -r '.end.sum_received.bits_per_second / 1e6' "$BD/$_tag.1.json")
	_bytes=$(jq -s '[.[].end.sum_received.bytes] | add' "$BD/$_tag".[01].json)
	if [ "$_dir" = fwd ]; then _tx=west _rx=east _s=$r_wa _d=$r_ea; else _tx=east _rx=west _s=$r_ea _d=$r_wa; fi
	# receiver: inbound packets and replay drops of the row; sender: how
	# many outbound SAs carried a tenth of the packets or more
	_chk=$(awk -v s="$_s" -v d="$_d" -v bytes="$_bytes" -v rx="$_rx" '
		FNR == 1 { f++ }
		!($1 == s && $2 == d) { next }
		f == 1 { rx0[$3] = $4; dr0[$3] = $5; next }
		f == 2 { tx0[$3] = $4; next }
		f == 3 { rxp += $4 - rx0[$3]; drops += $5 - dr0[$3]; next }
		f == 4 { n++; dp = $4 - tx0[$3]; txp[n] = dp; tot += dp }
		END { used = 0; for (i = 1; i <= n; i++) if (tot > 0 && txp[i] >= tot / 10) used++
			printf "%d %d %d %d\n", rxp, drops, used, bytes / 1500 }' \
		"$BD/$_tag.${_rx}0" "$BD/$_tag.${_tx}0" "$BD/$_tag.${_rx}1" "$BD/$_tag.${_tx}1")
	read -r _rxp _drops _used _want <<-EOF
	$_chk
	EOF
	if [ "$r_keys" != - ]; then
		[ "$_rxp" -ge "$_want" ] ||
			fail "$r_name round $_rd $_dir: $_rx's inbound SAs grew by $_rxp packets for $_bytes bytes"
		case $r_name in clones2 | pp2)
			[ "$_used" -ge 2 ] || fail "$r_name round $_rd $_dir: the flows rode $_used of $_tx's outbound SAs, expected 2"
			;;
		esac
	fi
	_sum=$(awk -v a="$_f0" -v b="$_f1" 'BEGIN { printf "%.1f", a + b }')
	printf '%s\t%s\t%s\t%s\t%.1f\t%.1f\t%s\t%s\t%s\n' "$_rd" "$r_name" "$_dir" "$_sum" "$_f0" "$_f1" \
		"$_drops" "$_used" "$_busy" >>"$RESULTS/rows.tsv"
	log "ok: $r_name round $_rd $_dir: $_sum Mbit/s ($_f0 + $_f1), $_rxp packets in, $_drops replay drops, $_used outbound SA(s) used, CPU busy/softirq % $_busy"
}

# _rounds PHASE: every round of the phase's rows, both directions
_rounds() {
	i=1
	while [ "$i" -le "$ROUNDS" ]; do
		_round() { _measure "$i" fwd && _measure "$i" rev; }
		_each _round "$1"
		i=$((i + 1))
	done
}

_phase_up 1
! _pcrypt_instance || fail "the kernel has a pcrypt instance before any pcrypt=yes SA"
_no_pcrypt() { [ "$r_keys" = - ] || _pcrypt_is off; }
_each _no_pcrypt 1
_rounds 1
_phase_up 2
_pcrypt_instance || fail "no pcrypt instance over rfc4106(gcm(aes)) in /proc/crypto after the pcrypt=yes SAs"
_on() { _pcrypt_is on; }
_each _on 2
_rounds 2
pass
