# Interop cases for the ikebana-* scenarios, the demo and the
# negotiated-vs-manual bench (sourced after lib/all.sh). ikebana runs on west,
# with kernel-mem underneath and plutodebug=private so that `status
# --private` shows the KEYMAT it derived (or, in a kernel-xfrm case, with the
# default plugins and real SAs in its own kernel); the peer runs on east and
# installs real SAs in its kernel. A case proves:
#   - both daemons report the IKE SA and the Child SA established;
#   - the peer's kernel holds exactly the Child SA SPIs ikebana derived,
#     each with the same AEAD key (KEYMAT) as ikebana's;
#   - kernel-xfrm cases: ESP counters grow on west while west pings east,
#     and `ikebana trafficstatus` on west reports the kernel's counters.
# Several cases share one boot: ikb_reset stops every daemon by PID and
# clears the state between them.
# shellcheck shell=sh disable=SC2154,SC2015
# (p_* and the peer helpers come from lib/all.sh; "a && b || fail" is meant)

IKB_IKE=aes_gcm256-sha2_256-dh19
IKB_ESP=aes_gcm128

# _ikb_conf HOST: the ikebana.conf that ikebana_start would otherwise write:
# kernel-mem (keys shown by status --private), or with IKB_KERNEL=kernel-xfrm
# the default plugins (real SAs in HOST's kernel).
_ikb_conf() {
	if [ "$IKB_KERNEL" = kernel-xfrm ]; then
		_plugins='# plugins: the defaults (kernel-xfrm)'
	else
		_plugins='plugins="esp-proposals replay-window kernel-mem"'
	fi
	printf 'config setup\n\t%s\n\tplutodebug=private\n\ninclude %s/*.conf\n' \
		"$_plugins" "$HOSTS/$1/etc/ikebana.d" >"$HOSTS/$1/etc/ikebana.conf"
}

# _ikb_snap HOST: one status --json --private call (each CLI call costs the
# one UML CPU); _ikb_json and _ikb_key read that snapshot.
_ikb_snap() {
	t 20 "$IKB_CLI" --rundir "$HOSTS/$1/run" status --json --private \
		>"$HOSTS/$1/log/status.json" 2>&1
}

# _ikb_json HOST KEY: from HOST's snapshot, KEY of its first IKE SA (state,
# role, spi_i, spi_r), of that SA's first Child SA (spi_in, spi_out), or of
# every installed key (spi).
_ikb_json() {
	case $2 in
	spi_in | spi_out) _f=".ike_sas[0].child_sas[0].$2" ;;
	spi) _f=".private_keys[].$2" ;;
	*) _f=".ike_sas[0].$2" ;;
	esac
	jq -r "$_f // empty" "$HOSTS/$1/log/status.json" 2>/dev/null
}

# _ikb_key HOST SPI: the AEAD key ikebana on HOST installed for SPI: from
# status --private (kernel-mem), or from HOST's SAD (kernel-xfrm keeps none).
_ikb_key() {
	if [ "$IKB_KERNEL" = kernel-xfrm ]; then
		_kernel_key "$1" "$2"
		return
	fi
	jq -r --arg s "$2" '.private_keys[] | select(.spi == $s) | .key' \
		"$HOSTS/$1/log/status.json"
}

# _kernel_key HOST SPI: the AEAD key of SPI in HOST's kernel SAD.
_kernel_key() {
	ip -n "$1" xfrm state list spi "0x$2" 2>/dev/null |
		sed -n 's/^[[:space:]]*aead [^ ]* 0x\([0-9a-f]*\) .*/\1/p' | head -n 1
}

_ikb_established() {
	_ikb_snap "$1" && [ "$(_ikb_json "$1" state)" = established ] && [ -n "$(_ikb_json "$1" spi_in)" ]
}

# _peer_established PEER HOST CONN: the peer's own view.
_peer_established() {
	case $1 in
	ikebana) _ikb_established "$2" ;;
	strongswan) strongswan_status "$2" >"$HOSTS/$2/log/list-sas.out" 2>&1 &&
		grep -q "ESTABLISHED" "$HOSTS/$2/log/list-sas.out" &&
		grep -q "INSTALLED" "$HOSTS/$2/log/list-sas.out" ;;
	libreswan) t 20 "$LS_EXEC/whack" --ctlsocket "$(_ls_ctl "$2")" --trafficstatus \
		>"$HOSTS/$2/log/trafficstatus.out" 2>&1 &&
		grep -q "\"$3\"" "$HOSTS/$2/log/trafficstatus.out" ;;
	esac
}

# ikb_case PEER ROLE [KERNEL]: ikebana on west as ROLE (initiator or
# responder) against PEER on east; KERNEL is kernel-mem (default) or
# kernel-xfrm, which also sends ESP through the SAs (ping, counters).
ikb_case() {
	_peer=$1 _role=$2 _conn=east-west IKB_KERNEL=${3:-kernel-mem}
	command -v jq >/dev/null || fail "jq is missing (it reads ikebana status --json)"
	log "=== case: ikebana (west, $_role, $IKB_KERNEL) <-> $_peer (east)"
	_ikb_conf west
	[ "$_peer" = ikebana ] && _ikb_conf east
	_t0=$(now_cs)
	if [ "$_role" = initiator ]; then
		peer "$_peer" east west responder psk ike=$IKB_IKE esp=$IKB_ESP
		peer ikebana west east initiator psk ike=$IKB_IKE esp=$IKB_ESP
	else
		peer ikebana west east responder psk ike=$IKB_IKE esp=$IKB_ESP
		peer "$_peer" east west initiator psk ike=$IKB_IKE esp=$IKB_ESP
	fi
	wait_for 20 "ikebana on west: IKE SA and Child SA established" _ikb_established west
	wait_for 20 "$_peer on east: IKE SA and Child SA established" _peer_established "$_peer" east "$_conn"
	log "ok: both report the IKE SA and the Child SA established ($(( $(now_cs) - _t0 ))0 ms after the confs)"
	_ikb_check_keys "$_peer"
	if [ "$IKB_KERNEL" = kernel-xfrm ]; then
		expect_sa west alg=aes_gcm128
		expect_esp_grows west ping_ok west east
		_ikb_check_traffic
		# A reload keeps the running kernel-xfrm instance and its SAs.
		_ikb west reload || fail "ikebana reload on west failed"
		[ "$(sa_count west)" = 2 ] ||
			fail "after a reload west's kernel has $(sa_count west) ESP SAs, expected 2"
		expect_esp_grows west ping_ok west east
		log "ok: a reload kept the SAs in west's kernel, ESP still flows"
	fi
}

# _sa_num LIST SPI FIELD: FIELD (bytes, packets) of SPI in an sa_list LIST.
_sa_num() {
	echo "$1" | sed -n "s/.* spi=0x$2 .* $3=\([0-9]*\) .*/\1/p" | head -n 1
}

# _ikb_traffic_eq WHAT SPI FIELD VALUE: VALUE > 0 and within FIELD of SPI in
# $_k0..$_k1 (west's kernel before and after trafficstatus).
_ikb_traffic_eq() {
	_lo=$(_sa_num "$_k0" "$2" "$3") _hi=$(_sa_num "$_k1" "$2" "$3")
	case $4 in '' | *[!0-9]*) _ok= ;; *) _ok=1 ;; esac
	[ -n "$_ok" ] && [ -n "$_lo" ] && [ -n "$_hi" ] && [ "$4" -gt 0 ] &&
		[ "$_lo" -le "$4" ] && [ "$4" -le "$_hi" ] ||
		fail "trafficstatus on west: $1 SA 0x$2 $3=$4, west's kernel: ${_lo:-none}..${_hi:-none}: $(cat "$_tj")"
}

# _ikb_check_traffic: `ikebana trafficstatus` on west shows its one Child SA
# with packets and bytes in and out > 0, equal to west's kernel counters for
# those SPIs. The kernel is read before and after: a stray packet in between
# widens that range instead of failing. One jq call: each costs in UML.
_ikb_check_traffic() {
	_tj=$HOSTS/west/log/trafficstatus.json
	_k0=$(sa_list west)
	t 20 "$IKB_CLI" --rundir "$HOSTS/west/run" trafficstatus --json >"$_tj" 2>&1 ||
		fail "ikebana trafficstatus --json on west failed: $(cat "$_tj")"
	_k1=$(sa_list west)
	read -r _n _si _so _ip _ib _op _ob _idle <<-EOF
	$(jq -r '[(.child_sas | length), (.child_sas[0] | .spi_in, .spi_out,
		.in.packets, .in.bytes, .out.packets, .out.bytes, .idle_s)]
		| map(tostring) | join(" ")' "$_tj" 2>/dev/null)
	EOF
	[ "$_n" = 1 ] || fail "trafficstatus on west shows ${_n:-no} Child SAs, expected 1: $(cat "$_tj")"
	_ikb_traffic_eq in "$_si" packets "$_ip"
	_ikb_traffic_eq in "$_si" bytes "$_ib"
	_ikb_traffic_eq out "$_so" packets "$_op"
	_ikb_traffic_eq out "$_so" bytes "$_ob"
	case $_idle in '' | *[!0-9]*) fail "trafficstatus on west: idle_s is '$_idle' after a ping" ;; esac
	_line=$(t 20 "$IKB_CLI" --rundir "$HOSTS/west/run" trafficstatus east-west 2>&1) ||
		fail "ikebana trafficstatus east-west on west failed: $_line"
	echo "$_line" | grep -q '^"east-west" #[0-9]*, reqid [0-9]*: ESP transport .* packets, idle [0-9]' ||
		fail "trafficstatus on west printed: $_line"
	_lu=no
	ip -n west xfrm state | grep -q lastused && _lu=yes
	log "ok: trafficstatus on west equals the kernel's counters: in 0x$_si $_ip packets $_ib bytes, out 0x$_so $_op packets $_ob bytes, idle ${_idle}s (kernel sends XFRMA_LASTUSED: $_lu)"
	log "trafficstatus: $_line"
}

# Every SPI ikebana installed is in the peer's SAD (or the peer ikebana's
# kernel-mem) with the same key; and the peer has no other ESP SA.
_ikb_check_keys() {
	_ikb_snap west
	[ "$1" = ikebana ] && _ikb_snap east
	_spis=$(_ikb_json west spi)
	[ "$(echo "$_spis" | wc -w)" = 2 ] || fail "ikebana on west has $(echo "$_spis" | wc -w) Child SA keys, expected 2: $_spis"
	for _s in $_spis; do
		_k=$(_ikb_key west "$_s")
		if [ "$1" = ikebana ] && [ "$IKB_KERNEL" = kernel-mem ]; then
			_pk=$(_ikb_key east "$_s")
		else
			_pk=$(_kernel_key east "$_s")
		fi
		[ -n "$_k" ] && [ "$_k" = "$_pk" ] ||
			fail "SPI $_s: ikebana's KEYMAT 0x$_k, $1's 0x$_pk"
		log "ok: SPI $_s: same key on both ($(echo "$_k" | cut -c1-8)...)"
	done
	if [ "$1" != ikebana ] || [ "$IKB_KERNEL" = kernel-xfrm ]; then
		_l=$(sa_list east)
		_n=$(echo "$_l" | grep -c 'spi=')
		_g=$(echo "$_l" | grep -c 'alg=aes_gcm128')
		[ "$_n" = 2 ] && [ "$_g" = 2 ] ||
			fail "$1's kernel has $_n ESP SAs ($_g aes_gcm128), expected 2: $_l"
		log "ok: $1's kernel has exactly these 2 ESP SAs, aes_gcm128"
	fi
	_in=$(_ikb_json west spi_in) _out=$(_ikb_json west spi_out)
	log "ok: Child SA SPIs in $_in out $_out and KEYMAT match $1's"
}

# ike.h documents ike_engine_down() as "locally only" until the engine sends
# Delete in an INFORMATIONAL exchange; from then on ikb_delete_case runs.
_ikb_has_delete() { ! grep -qs 'locally only' "$IKB_REPO/daemon/ike/ike.h"; }

_ikb_gone() {
	_ikb_snap "$1" && [ -z "$(_ikb_json "$1" state)" ] && [ -z "$(_ikb_json "$1" spi)" ] &&
		{ [ "$IKB_KERNEL" = kernel-mem ] || [ "$(sa_count "$1")" = 0 ]; }
}

_peer_gone() {
	case $1 in
	ikebana) _ikb_gone east ;;
	*) [ "$(sa_count east)" = 0 ] ;;
	esac
}

# ikb_delete_case PEER SIDE: SIDE (west: ikebana, east: the peer) deletes the
# IKE SA; both must remove the IKE SA and the Child SAs.
ikb_delete_case() {
	if ! _ikb_has_delete; then
		log "skipped: delete from $2 (the engine sends no Delete yet)"
		return 0
	fi
	if [ "$2" = west ]; then
		_ikb west down east-west || fail "ikebana down on west failed"
	else
		case $1 in
		ikebana) _ikb east down east-west ;;
		strongswan) _ss_swanctl east --terminate --ike east-west --timeout 20 ;;
		libreswan) _ls_whack east --terminate --name east-west ;;
		esac || log "$1 on east: delete returned an error"
	fi
	wait_for 20 "ikebana on west to remove its SAs" _ikb_gone west
	wait_for 20 "$1 on east to remove its SAs" _peer_gone "$1"
	log "ok: delete from $2 removed the SAs on both"
}

# ikb_reset: stops every daemon (by PID, per namespace), flushes the SAD and
# SPD, and clears the hosts' daemon state, so that the next case starts
# from a fresh boot's state.
ikb_reset() {
	for _h in west east; do
		_ikb_stop_host "$_h" TERM
	done
	for _h in west east; do
		_ikb_clear_host "$_h"
	done
	log "reset: daemons stopped, SAD and SPD flushed"
}

# _ikb_stop_host HOST SIGNAL: stops every daemon of HOST by PID.
# _ns_no_pids HOST: no process left in HOST's namespace (read at each poll).
_ns_no_pids() { [ -z "$(ip netns pids "$1")" ]; }

_ikb_stop_host() {
	_pids=$(ip netns pids "$1")
	[ -z "$_pids" ] && return 0
	# shellcheck disable=SC2086 # a list of PIDs
	kill -"$2" $_pids 2>/dev/null
	# pluto can take 10 s to exit; nothing of it is needed any more
	poll_for 3 _ns_no_pids "$1" ||
		{ # shellcheck disable=SC2086
		  kill -9 $_pids 2>/dev/null
		  poll_for 2 _ns_no_pids "$1"; }
}

# _ikb_clear_host HOST: flushes HOST's SAD and SPD, clears its daemon state.
_ikb_clear_host() {
	ip -n "$1" xfrm state flush
	ip -n "$1" xfrm policy flush
	_H=$HOSTS/$1
	for _l in "$_H"/log/*.log; do [ -e "$_l" ] && echo "===== reset" >>"$_l"; done
	rm -rf "${_H:?}/etc" "$_H/run" "$_H/nss" "$_H/ikebanad.pid" "$_H/daemons"
	mkdir -p "$_H/etc" "$_H/run" "$_H/nss"
}

# _ikb_replaced HOST SPI: ikebana on HOST has exactly one IKE SA, established,
# with a Child SA, and it is not the one whose SPI (ours, as responder) is SPI.
_ikb_replaced() {
	_ikb_snap "$1" &&
		[ "$(jq -r '.ike_sas | length' "$HOSTS/$1/log/status.json")" = 1 ] &&
		_ikb_established "$1" && [ "$(_ikb_json "$1" spi_r)" != "$2" ]
}

# _ikb_reqids HOST: the distinct reqids of HOST's SAs and policies, one line.
_ikb_reqids() {
	{ ip -n "$1" xfrm state; ip -n "$1" xfrm policy; } |
		sed -n 's/.*reqid \([0-9]*\).*/\1/p' | sort -u | tr '\n' ' '
}

# ikb_restart_case PEER: ikebana on west (kernel-xfrm) answers PEER on east.
# PEER crashes (kill -9, its SAD and SPD flushed, as after a reboot), comes
# back and initiates again. ikebana must replace the old IKE SA at once
# (INITIAL_CONTACT or uniqueids): one IKE SA, one pair of ESP SAs, the
# policies on their reqid, ping through ESP. Before, the new Child SA was
# refused (the old one held the policies) until DPD, and without dpddelay=
# never. Then ikebana on west stops (SIGTERM): its Delete must remove the
# peer's SAs, which have no DPD to notice otherwise.
ikb_restart_case() {
	_peer=$1 IKB_KERNEL=kernel-xfrm
	log "=== case: $_peer on east crashes and comes back; ikebana (west) responds"
	_ikb_conf west
	[ "$_peer" = ikebana ] && _ikb_conf east
	peer ikebana west east responder psk ike=$IKB_IKE esp=$IKB_ESP
	peer "$_peer" east west initiator psk ike=$IKB_IKE esp=$IKB_ESP
	wait_for 20 "ikebana on west: IKE SA and Child SA established" _ikb_established west
	wait_for 20 "$_peer on east: IKE SA and Child SA established" _peer_established "$_peer" east east-west
	_old=$(_ikb_json west spi_r)
	_ikb_stop_host east 9
	_ikb_clear_host east
	log "$_peer on east killed (-9), its SAs and policies flushed"
	[ "$_peer" = ikebana ] && _ikb_conf east
	peer "$_peer" east west initiator psk ike=$IKB_IKE esp=$IKB_ESP
	wait_for 20 "ikebana on west: the new IKE SA replaces the old one" _ikb_replaced west "$_old"
	wait_for 20 "$_peer on east: IKE SA and Child SA established" _peer_established "$_peer" east east-west
	_why=$(grep -o 'INITIAL_CONTACT: the peer restarted\|uniqueids: replaced by' \
		"$HOSTS/west/log/ikebanad.log" | tail -n 1)
	[ -n "$_why" ] || fail "ikebana on west logged no replacement"
	[ "$(sa_count west)" = 2 ] ||
		fail "west's kernel has $(sa_count west) ESP SAs, expected 2: $(sa_list west)"
	_np=$(ip -n west xfrm policy | grep -c '	dir \(in\|out\|fwd\) ')
	[ "$_np" = 2 ] || fail "west's kernel has $_np policies, expected 2 (transport)"
	_r=$(_ikb_reqids west)
	[ "$(echo "$_r" | wc -w)" = 1 ] || fail "west's SAs and policies have reqids $_r, expected one"
	expect_esp_grows west ping_ok west east
	log "ok: ikebana replaced the old IKE SA ($_why); one SA pair and its policies (reqid $_r), ESP flows"
	_pid=$(cat "$HOSTS/west/ikebanad.pid")
	kill "$_pid"
	wait_for 20 "ikebanad on west (pid $_pid) to exit" _ikb_exited "$_pid"
	grep -q 'stopping: Delete sent for 1 of 1 IKE SAs' "$HOSTS/west/log/ikebanad.log" ||
		fail "ikebanad on west did not log its Delete when stopping"
	wait_for 10 "$_peer on east to remove its SAs on ikebana's Delete" _peer_gone "$_peer"
	[ "$(sa_count west)" = 0 ] || fail "west's kernel keeps $(sa_count west) ESP SAs after ikebanad stopped"
	log "ok: ikebanad stopped with a Delete; $_peer on east removed its SAs at once"
}

_ikb_exited() { ! kill -0 "$1" 2>/dev/null; }

# _ikb_both_add KEY=VALUE: conn east-west on both ends (ikebana, auto=add),
# with KEY=VALUE added to it, which peer() does not write.
_ikb_both_add() {
	for _h in east west; do
		_r=west
		[ "$_h" = west ] && _r=east
		peer ikebana "$_h" "$_r" add psk ike=$IKB_IKE esp=$IKB_ESP
		printf '\t%s\n' "$1" >>"$HOSTS/$_h/etc/ikebana.d/east-west.conf"
		_ikb "$_h" reload || fail "ikebana reload on $_h with $1 failed"
	done
}

# _ikb_marked HOST: HOST's 2 ESP SAs and 2 policies (transport) all carry
# mark 0x7/0xff.
_ikb_marked() {
	[ "$(ip -n "$1" xfrm state | grep -c 'mark 0x7/0xff')" = 2 ] &&
		[ "$(ip -n "$1" xfrm policy | grep -c 'mark 0x7/0xff')" = 2 ]
}

# ikb_mark_case: mark=0x7/0xff on the conn, ikebana at both ends with
# kernel-xfrm. Both kernels must hold the SAs and policies with that mark;
# a ping marked 7 must leave west through the ESP SA, an unmarked one must
# pass the SAs by (the policies match marked packets only). East drops the
# marked ESP, which arrives unmarked: marking it on input is the job of
# the user's firewall or VTI, as with libreswan's mark=.
ikb_mark_case() {
	IKB_KERNEL=kernel-xfrm
	log "=== case: mark=0x7/0xff, ikebana (west) <-> ikebana (east)"
	_ikb_conf west
	_ikb_conf east
	_ikb_both_add 'mark=0x7/0xff'
	_ikb west up east-west || fail "ikebana up east-west on west failed"
	wait_for 20 "west: SAs and policies with mark 0x7/0xff" _ikb_marked west
	wait_for 20 "east: SAs and policies with mark 0x7/0xff" _ikb_marked east
	read -r _in0 _out0 <<-EOF
	$(esp_inout west)
	EOF
	ns west ping -n -q -c 3 -i 0.2 -W 1 -m 7 "$(seen_addr east)" >/dev/null 2>&1
	read -r _in1 _out1 <<-EOF
	$(esp_inout west)
	EOF
	[ "$_out1" -ge $((_out0 + 3)) ] ||
		fail "marked pings did not leave west through ESP: out $_out0 -> $_out1"
	ping_ok west east 2
	read -r _in2 _out2 <<-EOF
	$(esp_inout west)
	EOF
	[ "$_out2" = "$_out1" ] ||
		fail "unmarked pings went through the marked SA: out $_out1 -> $_out2"
	log "ok: SAs and policies carry mark 0x7/0xff on both; marked pings use ESP (out $_out0 -> $_out1), unmarked ones do not"
}

# _ikb_one_pair: each end has exactly one IKE SA, established, and its one
# Child SA is the same on both (west's inbound SPI is east's outbound).
_ikb_one_pair() {
	_ikb_snap west && _ikb_snap east || return 1
	for _h in west east; do
		[ "$(jq -r '.ike_sas | length' "$HOSTS/$_h/log/status.json")" = 1 ] &&
			[ "$(jq -r '.ike_sas[0].child_sas | length' "$HOSTS/$_h/log/status.json")" = 1 ] &&
			[ "$(_ikb_json "$_h" state)" = established ] || return 1
	done
	[ "$(_ikb_json west spi_in)" = "$(_ikb_json east spi_out)" ] &&
		[ "$(_ikb_json west spi_out)" = "$(_ikb_json east spi_in)" ]
}

# ikb_crossing_case: ikebana on both ends initiates the same conn at once,
# as two auto=start ends do. 300 ms of netem delay each way makes the
# IKE_SA_INITs cross on the wire, so each end completes two IKE SAs. Both
# must keep the same one, with one Child SA and ESP flowing, and nothing
# else in either kernel once the loser's linger is over.
ikb_crossing_case() {
	IKB_KERNEL=kernel-xfrm
	log "=== case: ikebana on west and on east initiate east-west at once"
	_ikb_conf west
	_ikb_conf east
	# the loser each end answered stays retransmit-timeout= long to
	# answer retransmits: 5 s, not the default minute
	_ikb_both_add 'retransmit-timeout=5s'
	modprobe -q sch_netem 2>/dev/null
	for _h in west east; do
		tc -n "$_h" qdisc add dev eth0 root netem delay 300ms ||
			fail "tc netem on $_h: cannot delay eth0"
	done
	_ikb west up east-west &
	_uw=$!
	_ikb east up east-west &
	_ue=$!
	wait "$_uw" "$_ue"
	wait_for 30 "one IKE SA and the same Child SA on both ends" _ikb_one_pair
	for _h in west east; do tc -n "$_h" qdisc del dev eth0 root; done
	grep -q 'crossed IKE SA #' \
		"$HOSTS/west/log/ikebanad.log" "$HOSTS/east/log/ikebanad.log" ||
		fail "the initiations did not cross: no IKE SA was settled"
	for _h in west east; do
		[ "$(sa_count "$_h")" = 2 ] ||
			fail "$_h's kernel has $(sa_count "$_h") ESP SAs, expected 2: $(sa_list "$_h")"
	done
	expect_esp_grows west ping_ok west east
	log "ok: crossed initiations: both ends keep IKE SA $(_ikb_json west spi_i) with Child SA in $(_ikb_json west spi_in) out $(_ikb_json west spi_out), ESP flows"
}
