# Rekeys under load (issue 19 item 4), for the rekey-load scenario and the
# rekey-load bench (sourced after lib/all.sh). One boot, topology
# testing/scenarios/rekey-load/topology: ikebana on west; strongSwan on
# east, libreswan on north, ikebana on south. Nine cases at once, each on
# its own address pair and conn, three per peer:
#   CASE-i: ikebana (west) initiates the IKE SA and, with the short
#           lifetimes, every Child SA and IKE SA rekey; the peer keeps its
#           defaults (hours) and only answers;
#   CASE-r: the peer initiates and rekeys with the short lifetimes; ikebana
#           keeps hours and only answers;
#   CASE-m: ikebana initiates the IKE SA and rekeys it (short IKE
#           lifetime), the peer rekeys the Child SA (short Child SA
#           lifetime): the CREATE_CHILD_SA's initiator is the IKE SA's
#           responder, so KEYMAT's roles (RFC 7296 §2.17) are not the IKE
#           SA's.
# Short lifetimes: Child SAs rekeyed every 10-12 s (ipsec-lifetime 20 s,
# rekeymargin 8 s, rekeyfuzz 25%; strongSwan rekey_time 11s, rand_time 1s,
# life_time 20s), the IKE SA every 26-28 s (ikelifetime 36 s; strongSwan
# rekey_time 27s, rand_time 1s, over_time 9s). PFS on every rekey (ecp256,
# the IKE group).
# While RK_SECS seconds of sequence-numbered UDP (testing/tools/seqtraffic,
# RK_RATE datagrams a second each way per case) flow both ways through
# every case, `ip xfrm monitor` on west records each SA the kernel gets.
# Per case, rk_check asserts:
#   - no datagram lost and none duplicated, either way (counted by number
#     at the receiver; the kernel's drops at a full socket buffer are shown
#     apart, as the host's loss, not the path's), except a peer's own loss
#     that RK_PEER_LOSS documents and the receiver's kernel accounts for;
#   - at least RK_MIN_CHILD Child SA rekeys while the traffic ran: new
#     inbound and new outbound SPIs on west between its first and its last
#     datagram (a run in which nothing was rekeyed fails);
#   - at least RK_MIN_IKE IKE SA rekeys in that time (west's ikebanad log);
#   - the rekeys came from the side whose lifetimes were short: ikebana on
#     west logs its own rekeys of CASE-i, none of CASE-r, and only the IKE
#     SA's of CASE-m.
# And, on a control pair without IPsec (west - ctl) through 2% netem loss,
# the same tool must report the loss: a counter that cannot fail proves
# nothing.
# shellcheck shell=sh disable=SC2034,SC2154,SC2016,SC2015
# (p_* are read by the peer helpers of lib/all.sh; "a && b || fail" is
# meant; the sh -c scripts are
# single-quoted on purpose and take their values as arguments)

RK_RATE=${RK_RATE:-100}
RK_SECS=${RK_SECS:-42}
RK_MIN_CHILD=${RK_MIN_CHILD:-3}
RK_MIN_IKE=${RK_MIN_IKE:-1}
# RK_LOSS_FAILS=no (the bench): loss and duplicates are logged and kept in
# the table, not failed; missing rekeys and summaries still fail.
RK_LOSS_FAILS=${RK_LOSS_FAILS:-yes}
RK_IKE=aes_gcm128-sha2_256-dh19
RK_ESP=aes_gcm128
RK_TOOL=${RK_TOOL:-$IKB_BUILD/testing/tools/seqtraffic}
# ipsec.conf lines (libreswan and ikebana; strongSwan: _rk_ss_conn) of the
# side that rekeys: Child SAs every 10-12 s, IKE SAs every 26-28 s
RK_SHORT='\tsalifetime=20s\n\tikelifetime=36s\n\trekeymargin=8s\n\trekeyfuzz=25%'
# CASE-m: the peer's Child SA lifetime and ikebana's IKE SA lifetime
RK_CHILD='\tsalifetime=20s\n\trekeymargin=8s\n\trekeyfuzz=25%'
RK_IKELIFE='\tikelifetime=36s\n\trekeymargin=8s\n\trekeyfuzz=25%'
# RK_LIFETIMES=default leaves every conn with its daemon's lifetimes
# (hours): nothing is rekeyed, and rk_check must fail every case.
RK_LIFETIMES=${RK_LIFETIMES:-short}

# One line per case: name, peer daemon, peer host, ikebana's role, west's
# address, the peer's address, the UDP port of its flows.
RK_CASES='ss-i strongswan east initiator 192.0.2.1 192.0.2.2 7001
ss-r strongswan east responder 192.0.2.11 192.0.2.12 7002
ss-m strongswan east mixed 192.0.2.21 192.0.2.22 7003
ls-i libreswan north initiator 198.51.100.1 198.51.100.2 7004
ls-r libreswan north responder 198.51.100.11 198.51.100.12 7005
ls-m libreswan north mixed 198.51.100.21 198.51.100.22 7006
ik-i ikebana south initiator 203.0.113.1 203.0.113.2 7007
ik-r ikebana south responder 203.0.113.11 203.0.113.12 7008
ik-m ikebana south mixed 203.0.113.21 203.0.113.22 7009'
RK_NCASES=9

# _rk_each FUNC: FUNC once per case, its fields in r_*; the lines come on
# fd 3, as FUNC's commands may read stdin.
_rk_each() {
	while read -r r_case r_peer r_host r_role r_west r_addr r_port <&3; do
		"$1"
	done 3<<-EOF
	$RK_CASES
	EOF
}

# _rk_ss_conn HOST ROLE NAME LOCAL REMOTE SHORT: a strongSwan conn written
# by the shared writer, with the short lifetimes when SHORT is yes (child:
# the Child SA's only), and PFS (the writer's proposals have none), then
# loaded.
_rk_ss_conn() {
	strongswan_start "$1"
	p_daemon=strongswan p_host=$1 p_role=$2 p_auth=psk p_mode=transport
	p_esp=$RK_ESP p_ike=$RK_IKE p_replay='' p_esn='' p_af=4 p_nat=''
	p_name=$3 p_secret=ikebana-testing-$3 p_local=$4 p_raddr=$5
	p_lid=$4 p_rid=$5 p_lsub='' p_rsub='' p_cert=''
	strongswan_write_conn
	_f=$HOSTS/$1/etc/swanctl/conf.d/$3.conf
	_sed='s/^esp_proposals = .*/&-ecp256/'
	[ "$6" = yes ] && _sed="$_sed
s/^proposals = .*/&\nrekey_time = 27s\nrand_time = 1s\nover_time = 9s/"
	[ "$6" = yes ] || [ "$6" = child ] && _sed="$_sed
s/^start_action = .*/&\nrekey_time = 11s\nrand_time = 1s\nlife_time = 20s/"
	sed -i "$_sed" "$_f" || fail "strongswan on $1: cannot edit $_f"
	grep -q '^esp_proposals = .*-ecp256$' "$_f" || fail "strongswan on $1: no PFS in $_f"
	strongswan_load "$1" || fail "strongswan on $1: swanctl --load-all failed"
	_life=
	[ "$6" != no ] && _life=", short lifetimes ($6)"
	log "peer strongswan on $1: conn $3 $4 <-> $5, $2, PFS$_life"
}

# _rk_conn DAEMON HOST REMOTE ROLE NAME LOCAL RADDR SHORT
_rk_conn() {
	[ "$RK_LIFETIMES" = short ] || set -- "$1" "$2" "$3" "$4" "$5" "$6" "$7" no
	if [ "$1" = strongswan ]; then
		_rk_ss_conn "$2" "$4" "$5" "$6" "$7" "$8"
		return
	fi
	PEER_CONN_EXTRA=
	[ "$8" = yes ] && PEER_CONN_EXTRA=$RK_SHORT
	[ "$8" = child ] && PEER_CONN_EXTRA=$RK_CHILD
	[ "$8" = ike ] && PEER_CONN_EXTRA=$RK_IKELIFE
	peer "$1" "$2" "$3" "$4" psk ike=$RK_IKE esp=$RK_ESP name="$5" \
		local="$6" remote="$7"
	[ "$8" != no ] && log "conn $5 on $2: short lifetimes ($8)"
	PEER_CONN_EXTRA=
}

# Each case's responder first, then its initiator; short lifetimes on the
# initiator's side (mixed: ikebana initiates the IKE SA and rekeys it, the
# peer rekeys the Child SA: the end that began the IKE SA answers the
# CREATE_CHILD_SA, so the exchange's roles are not the IKE SA's).
_rk_responder() {
	if [ "$r_role" = initiator ]; then
		_rk_conn "$r_peer" "$r_host" west responder "$r_case" "$r_addr" "$r_west" no
	elif [ "$r_role" = mixed ]; then
		_rk_conn "$r_peer" "$r_host" west responder "$r_case" "$r_addr" "$r_west" child
	else
		_rk_conn ikebana west "$r_host" responder "$r_case" "$r_west" "$r_addr" no
	fi
}

_rk_initiator() {
	if [ "$r_role" = initiator ]; then
		_rk_conn ikebana west "$r_host" initiator "$r_case" "$r_west" "$r_addr" yes
	elif [ "$r_role" = mixed ]; then
		_rk_conn ikebana west "$r_host" initiator "$r_case" "$r_west" "$r_addr" ike
	else
		_rk_conn "$r_peer" "$r_host" west initiator "$r_case" "$r_addr" "$r_west" yes
	fi
}

# _rk_spis HOST: "src dst spi" of each of HOST's ESP SAs, one ip call.
_rk_spis() {
	ip -n "$1" xfrm state | awk '/^src / { s = $2; d = $4 }
		/proto esp spi/ { print s, d, $4 }'
}

# _rk_all_up: every case has an SA each way on west and on its peer host.
_rk_all_up() {
	for _h in west east north south; do
		_rk_spis "$_h" >"$HOSTS/$_h/log/spis.now" || return 1
	done
	_rk_each _rk_case_up 2>/dev/null
	! [ -s "$HOSTS/west/log/spis.missing" ]
}

_rk_case_up() {
	[ "$r_case" = ss-i ] && : >"$HOSTS/west/log/spis.missing"
	for _h in west "$r_host"; do
		grep -q "^$r_west $r_addr " "$HOSTS/$_h/log/spis.now" &&
			grep -q "^$r_addr $r_west " "$HOSTS/$_h/log/spis.now" ||
			echo "$r_case on $_h" >>"$HOSTS/west/log/spis.missing"
	done
}

# _rk_monitor: every SA west's kernel gets, from before the first conn.
_rk_monitor() {
	ip -n west -t xfrm monitor SA >"$HOSTS/west/log/xfrm-monitor.out" 2>&1 &
	_rk_mon=$!
}

# _rk_listening HOST N [FROM TO]: N UDP sockets bound to ports FROM-TO
# (7000-7099) on HOST.
_rk_listening() {
	[ "$(ip netns exec "$1" ss -lunH "sport >= :${3:-7000} and sport <= :${4:-7099}" |
		wc -l)" -ge "$2" ]
}

# _rk_flows HOST: one line per flow HOST takes part in: case, local, remote,
# port (HOST receives on local:port and sends to remote:port).
_rk_flows() {
	_rk_each _rk_flow_line | awk -v h="$1" '$1 == h { print $2, $3, $4, $5 }'
}

_rk_flow_line() {
	echo "west $r_case $r_west $r_addr $r_port"
	echo "$r_host $r_case $r_addr $r_west $r_port"
}

# _rk_start_recv HOST: a receiver per flow, in the background, for at most
# RK_SECS + 60 s (they end on the sender's end marker).
_rk_start_recv() {
	_rk_flows "$1" >"$HOSTS/$1/log/flows"
	mkdir -p "$HOSTS/$1/log/seq"
	ip netns exec "$1" sh -c '
		while read -r c l r p; do
			"$1" recv -t "$2" -b "$l" "$p" >"$3/$c.recv" 2>"$3/$c.gaps" &
		done <"$4"; wait' sh "$RK_TOOL" $((RK_SECS + 60)) "$HOSTS/$1/log/seq" \
		"$HOSTS/$1/log/flows" &
	echo "$!" >>"$HOSTS/west/log/rk.pids"
}

_rk_start_send() {
	ip netns exec "$1" sh -c '
		while read -r c l r p; do
			"$1" send -r "$2" -d "$3" -s "$l" "$r" "$p" >"$4/$c.send" 2>&1 &
		done <"$5"; wait' sh "$RK_TOOL" "$RK_RATE" "$RK_SECS" "$HOSTS/$1/log/seq" \
		"$HOSTS/$1/log/flows" &
	echo "$!" >>"$HOSTS/west/log/rk.pids"
}

_rk_pids_gone() {
	while read -r _p; do
		kill -0 "$_p" 2>/dev/null && return 1
	done <"$HOSTS/west/log/rk.pids"
	return 0
}

# rk_control: the tool through 2% loss each way on west - ctl (no IPsec):
# both receivers must count lost datagrams and exit 1.
rk_control() {
	modprobe -q sch_netem 2>/dev/null
	tc -n west qdisc add dev eth3 root netem loss 2% ||
		fail "tc netem on west eth3: cannot add loss"
	tc -n ctl qdisc add dev eth0 root netem loss 2% ||
		fail "tc netem on ctl eth0: cannot add loss"
	_c=$HOSTS/ctl/log
	ip netns exec ctl "$RK_TOOL" recv -q -t 30 -b 192.0.2.66 7100 >"$_c/ctl.recv" 2>&1 &
	_r1=$!
	ip netns exec west "$RK_TOOL" recv -q -t 30 -b 192.0.2.65 7100 >"$_c/west.recv" 2>&1 &
	_r2=$!
	wait_for 10 "control receivers on west and ctl" _rk_ctl_listening
	ip netns exec west "$RK_TOOL" send -r 500 -d 3 -s 192.0.2.65 192.0.2.66 7100 >"$_c/west.send" 2>&1 &
	_s1=$!
	ip netns exec ctl "$RK_TOOL" send -r 500 -d 3 -s 192.0.2.66 192.0.2.65 7100 >"$_c/ctl.send" 2>&1
	wait "$_s1"
	_rc1=0 _rc2=0
	wait "$_r1" || _rc1=$?
	wait "$_r2" || _rc2=$?
	for _f in ctl west; do
		_l=$(sed -n 's/.* lost=\([0-9]*\) .*/\1/p' "$_c/$_f.recv")
		[ "${_l:-0}" -gt 0 ] ||
			fail "control: 2% netem loss towards $_f, and the receiver counted none: $(cat "$_c/$_f.recv")"
	done
	[ "$_rc1" = 1 ] && [ "$_rc2" = 1 ] ||
		fail "control: receivers exited $_rc1 and $_rc2 with loss, expected 1"
	log "ok: control without IPsec through 2% netem loss: west->ctl $(cat "$_c/ctl.recv"); ctl->west $(cat "$_c/west.recv") (exit 1 each)"
	tc -n west qdisc del dev eth3 root
	tc -n ctl qdisc del dev eth0 root
}

_rk_ctl_listening() { _rk_listening ctl 1 7100 7100 && _rk_listening west 1 7100 7100; }

# rk_setup: topology, monitor, daemons and the twelve conns, all up.
rk_setup() {
	[ -x "$RK_TOOL" ] || fail "$RK_TOOL not built"
	topology "$IKB_REPO/testing/scenarios/rekey-load/topology"
	_rk_monitor
	strongswan_start east
	libreswan_start north
	_rk_each _rk_responder
	_rk_each _rk_initiator
	wait_for 60 "every case's Child SA up on both ends" _rk_all_up
	log "ok: all $RK_NCASES cases up: an ESP SA each way on west and on each peer"
}

# rk_traffic: RK_SECS s of RK_RATE datagrams a second each way per case.
# Offsets of the monitor's output and west's log mark the traffic window.
rk_traffic() {
	: >"$HOSTS/west/log/rk.pids"
	for _h in west east north south; do _rk_start_recv "$_h"; done
	wait_for 20 "receivers on every host" _rk_recv_listening
	for _h in west east north south; do _rk_xstat "$_h" 0; done
	_rk_mon0=$(wc -c <"$HOSTS/west/log/xfrm-monitor.out")
	_rk_log0=$(wc -c <"$HOSTS/west/log/ikebanad.log")
	_rk_t0=$(now)
	read -r _ _u0 _n0 _s0 _i0 _rest </proc/stat
	log "traffic: $RK_RATE datagrams/s each way through each of $RK_NCASES cases for ${RK_SECS}s"
	for _h in west east north south; do _rk_start_send "$_h"; done
	wait_for $((RK_SECS + 90)) "every sender and receiver to end" _rk_pids_gone
	read -r _ _u1 _n1 _s1 _i1 _rest </proc/stat
	_busy=$((_u1 + _n1 + _s1 - _u0 - _n0 - _s0))
	RK_IDLE=$((100 * (_i1 - _i0) / (_busy + _i1 - _i0 + 1)))
	_rk_mon1=$(wc -c <"$HOSTS/west/log/xfrm-monitor.out")
	_rk_log1=$(wc -c <"$HOSTS/west/log/ikebanad.log")
	for _h in west east north south; do _rk_xstat "$_h" 1; done
	log "traffic ended ($(now) s, started at $_rk_t0 s); the guest's CPU was ${RK_IDLE}% idle"
}

_rk_recv_listening() {
	_rk_listening west 9 && _rk_listening east 3 && _rk_listening north 3 &&
		_rk_listening south 3
}

# _rk_xstat HOST SUFFIX: HOST's /proc/net/xfrm_stat (per namespace).
_rk_xstat() { ip netns exec "$1" cat /proc/net/xfrm_stat >"$HOSTS/$1/log/xfrm_stat.$2"; }

# _rk_xdelta HOST: the counters of xfrm_stat that grew during the traffic,
# "Name+N ...", one line.
_rk_xdelta() {
	awk 'FNR == NR { a[$1] = $2; next } $2 > a[$1] { printf "%s+%d ", $1, $2 - a[$1] }' \
		"$HOSTS/$1/log/xfrm_stat.0" "$HOSTS/$1/log/xfrm_stat.1"
}

# _rk_nosa HOST: inbound ESP packets HOST dropped during the traffic for
# want of a usable SA: XfrmInNoStates (no SA has the SPI) and
# XfrmAcquireError (on input: the SPI is allocated, the SA not yet added).
_rk_nosa() {
	awk 'FNR == NR { a[$1] = $2; next }
		$1 == "XfrmInNoStates" || $1 == "XfrmAcquireError" { n += $2 - a[$1] }
		END { print n + 0 }' "$HOSTS/$1/log/xfrm_stat.0" "$HOSTS/$1/log/xfrm_stat.1"
}

# _rk_window FILE FROM TO: bytes FROM..TO of FILE.
_rk_window() { tail -c +$(($2 + 1)) "$1" | head -c $(($3 - $2)); }

# _rk_counts: one line per case in rk.counts, from the traffic window:
#   case new_in new_out ike_rekeys ikebana_child ikebana_ike simultaneous
# new_in and new_out: the SPIs west's kernel got for the case's SAs, each
# way. The monitor prints an SA as "src A dst B" (a new one) or "Updated
# src A dst B" (one whose SPI was allocated first), then "proto esp spi
# S"; Deleted and Expired ones are not new. From west's log: IKE SA rekeys
# (either side's), the Child SA and IKE SA rekeys ikebana initiated, and
# the simultaneous Child SA rekeys it settled.
_rk_counts() {
	_W=$HOSTS/west/log
	_rk_window "$_W/xfrm-monitor.out" "$_rk_mon0" "$_rk_mon1" >"$_W/xfrm-monitor.window"
	_rk_window "$_W/ikebanad.log" "$_rk_log0" "$_rk_log1" >"$_W/ikebanad.window"
	echo "$RK_CASES" | awk -v mon="$_W/xfrm-monitor.window" -v lg="$_W/ikebanad.window" '
	{ c[NR] = $1; w[$1] = $5; p[$1] = $6; n = NR }
	END {
		while ((getline l < mon) > 0) {
			if (l ~ /^(Updated )?src /) { split(l, f, " "); o = (f[1] == "Updated"); s = f[2 + o]; d = f[4 + o]; ok = 1; continue }
			if (l !~ /proto esp spi/ || !ok) { if (l !~ /^Timestamp/) ok = 0; continue }
			split(l, f, " "); ok = 0
			for (k in w) {
				if (s == p[k] && d == w[k]) ni[k, f[4]] = 1
				if (s == w[k] && d == p[k]) no[k, f[4]] = 1
			}
		}
		for (x in ni) { split(x, y, SUBSEP); gi[y[1]]++ }
		for (x in no) { split(x, y, SUBSEP); go[y[1]]++ }
		while ((getline l < lg) > 0) {
			if (!match(l, /conn [^ ]+ #/)) continue
			k = substr(l, RSTART + 5, RLENGTH - 7)
			if (l ~ /IKE SA established by rekeying/) ike[k]++
			if (l ~ /CREATE_CHILD_SA: rekeying Child SA/) oc[k]++
			if (l ~ /rekeying the IKE SA/) oi[k]++
			if (l ~ /simultaneous rekey/) sim[k]++
		}
		for (i = 1; i <= n; i++) { k = c[i]; print k, gi[k] + 0, go[k] + 0, ike[k] + 0, oc[k] + 0, oi[k] + 0, sim[k] + 0 }
	}' >"$_W/rk.counts"
}

# _rk_summary FILE: the receiver's summary in _s _lost _gapn _dup _ro _rx
# _end,
# without a process.
_rk_summary() {
	_s='' _lost='' _gapn='' _dup='' _ro='' _rx='' _end='' _line=''
	read -r _line <"$1" || return 1
	for _kv in $_line; do
		case $_kv in
		sent=*) _s=${_kv#*=} ;;
		lost=*) _lost=${_kv#*=} ;;
		gaps=*) _gapn=${_kv#*=} ;;
		dup=*) _dup=${_kv#*=} ;;
		reordered=*) _ro=${_kv#*=} ;;
		rxq_drops=*) _rx=${_kv#*=} ;;
		end=*) _end=${_kv#*=} ;;
		esac
	done
}

# A peer's own behaviour that loses datagrams, by case and direction, with
# why; such a loss is reported as the peer's, not failed, when the
# receiver's kernel counted at least as many ESP packets for an SPI it had
# no usable SA for (XfrmInNoStates: none; XfrmAcquireError on input: the
# SPI is allocated, its SA not yet added) and there is one run of lost
# numbers at most per Child SA rekey. libreswan 4.10, answering a rekey, installs its
# new outbound SA at once, so it sends on it before the initiator has had
# the answer and installed the inbound SA; strongSwan and ikebana send on
# the new SA only once the initiator's Delete of the old one arrives.
RK_PEER_LOSS='ls-i libreswan->west libreswan 4.10 as rekey responder sends on its new SA before the initiator can have installed it'

_rk_known() {
	_why=
	while read -r _kc _kd _kw; do
		[ "$_kc" = "$r_case" ] && [ "$_kd" = "$1" ] && _why=$_kw
	done <<-EOF
	$RK_PEER_LOSS
	EOF
	[ -n "$_why" ]
}

# _rk_case_check: one case's assertions; appends its row to $RK_TSV:
# case peer role, then per direction (west->peer, peer->west) sent lost
# dup reordered rxq_drops peer_loss(0|1), then new_in new_out ike
# ikebana_child ikebana_ike simultaneous.
_rk_case_check() {
	_bad=
	_loss=
	_row=
	read -r _gi _go _ike _ours _ours_ike _sim <<-EOF
	$(awk -v c="$r_case" '$1 == c { print $2, $3, $4, $5, $6, $7 }' "$HOSTS/west/log/rk.counts")
	EOF
	for _d in "$r_host:west->$r_peer" "west:$r_peer->west"; do
		_rh=${_d%%:*} _dir=${_d#*:}
		_f=$HOSTS/$_rh/log/seq/$r_case.recv
		if ! _rk_summary "$_f"; then
			_bad="$_bad; $_dir: no receiver summary"
			continue
		fi
		_want=$((RK_RATE * RK_SECS))
		[ "$_s" = "$_want" ] && [ "$_end" = yes ] ||
			_bad="$_bad; $_dir: sent=$_s end=$_end, expected sent=$_want end=yes"
		_known=0
		_gaps=$(head -n 3 "${_f%.recv}.gaps" | tr '\n' ' ')
		if [ "$_lost" != 0 ] && _rk_known "$_dir"; then
			_runs=$_gapn
			_nost=$(_rk_nosa "$_rh")
			if [ "$_nost" -ge "$_lost" ] && [ "$_runs" -le "$_gi" ]; then
				_known=1
				log "PEER LOSS: $r_case $_dir: $_lost lost in $_runs runs ($_gaps), $_nost ESP packets for an SPI without a usable SA on $_rh: $_why"
			else
				_loss="$_loss; $_dir: $_lost lost in $_runs runs ($_gaps) at $RK_RATE/s, more than the peer's known loss explains (XfrmInNoStates + XfrmAcquireError +$_nost on $_rh, $_gi rekeys)"
			fi
		elif [ "$_lost" != 0 ]; then
			_loss="$_loss; $_dir: $_lost lost (${_gaps}at $RK_RATE/s; rxq_drops=$_rx; XfrmInNoStates + XfrmAcquireError +$(_rk_nosa "$_rh") on $_rh)"
		fi
		[ "$_dup" = 0 ] || _loss="$_loss; $_dir: $_dup duplicated"
		_row="$_row	$_s	$_lost	$_dup	$_ro	$_rx	$_known"
		log "$r_case $_dir: $_line"
	done
	printf '%s\t%s\t%s%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r_case" "$r_peer" "$r_role" "$_row" \
		"$_gi" "$_go" "$_ike" "$_ours" "$_ours_ike" "$_sim" >>"$RK_TSV"
	[ "$_gi" -ge "$RK_MIN_CHILD" ] && [ "$_go" -ge "$RK_MIN_CHILD" ] ||
		_bad="$_bad; $_gi new inbound and $_go new outbound SPIs on west during the traffic, expected >= $RK_MIN_CHILD rekeys"
	[ "$_ike" -ge "$RK_MIN_IKE" ] ||
		_bad="$_bad; $_ike IKE SA rekeys during the traffic, expected >= $RK_MIN_IKE"
	if [ "$r_role" = initiator ]; then
		[ "$_ours" -ge "$RK_MIN_CHILD" ] && [ "$_ours_ike" -ge "$RK_MIN_IKE" ] ||
			_bad="$_bad; ikebana initiated $_ours Child SA and $_ours_ike IKE SA rekeys, expected the rekeys to be ikebana's"
	elif [ "$r_role" = responder ]; then
		[ "$_ours" = 0 ] && [ "$_ours_ike" = 0 ] ||
			_bad="$_bad; ikebana initiated $_ours Child SA and $_ours_ike IKE SA rekeys, expected the peer's only"
	else
		[ "$_ours" = 0 ] && [ "$_ours_ike" -ge "$RK_MIN_IKE" ] ||
			_bad="$_bad; ikebana initiated $_ours Child SA and $_ours_ike IKE SA rekeys, expected the IKE SA's only"
	fi
	if [ -n "$_loss" ] && [ "$RK_LOSS_FAILS" = no ]; then
		log "LOSS: $r_case (ikebana $r_role, $r_peer)$_loss"
	else
		_bad="$_loss$_bad"
	fi
	if [ -n "$_bad" ]; then
		echo "$r_case (ikebana $r_role, $r_peer)${_bad}" >>"$HOSTS/west/log/rk.failed"
	elif [ -n "$_loss" ]; then
		log "ok: $r_case (ikebana $r_role, $r_peer): $_gi/$_go new SPIs in/out and $_ike IKE SA rekeys during the traffic (ikebana initiated $_ours and $_ours_ike; $_sim simultaneous); the loss above"
	else
		log "ok: $r_case (ikebana $r_role, $r_peer): $_gi/$_go new SPIs in/out and $_ike IKE SA rekeys during the traffic (ikebana initiated $_ours and $_ours_ike; $_sim simultaneous), nothing duplicated, nothing lost but the peer's own"
	fi
}

# rk_check: every case's assertions, all reported before failing.
rk_check() {
	RK_TSV=${RK_TSV:-$HOSTS/west/log/rk.tsv}
	: >"$RK_TSV"
	rm -f "$HOSTS/west/log/rk.failed"
	_rk_counts
	for _h in west east north south; do
		log "xfrm_stat on $_h during the traffic: $(_rk_xdelta "$_h")"
	done
	_rk_each _rk_case_check
	[ -s "$HOSTS/west/log/rk.failed" ] || return 0
	while read -r _l; do log "FAIL: $_l"; done <"$HOSTS/west/log/rk.failed"
	fail "$(wc -l <"$HOSTS/west/log/rk.failed") of $RK_NCASES cases failed (above)"
}
