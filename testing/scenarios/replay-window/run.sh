#!/bin/sh
# replay-window= on negotiated SAs: one conn per window, all in one boot,
# ikebana (west, default plugins: kernel-xfrm) against ikebana (north),
# libreswan (south) and strongSwan (east). For each window: west's inbound
# SA holds it with ceil(window / 32) bitmap words and ESN as negotiated,
# the outbound SA window 0 (1 with ESN, the least the kernel takes), and
# the peer's kernel the same ESN flag both ways. Then one captured inbound
# ESP frame per SA is sent again: with a window the kernel counts a replay
# and drops it, with 0 it accepts it.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology "$SCENARIO_DIR/topology"

# One line per conn: name, the peer's daemon and host, west's and the
# peer's addresses, west's replay-window= and esn=, the peer's (-: its
# default), who initiates; then what west's inbound SA must show: window,
# bitmap words and ESN. kernel-xfrm puts every window > 0 in the ESN replay
# context (XFRMA_REPLAY_ESN_VAL) with ceil(window / 32) words, ESN or not,
# 32 included, and the legacy u8 field at 0; window 0 gets no replay state
# (bmp 0). rw0: esn=yes with window 0 loads with a warning and ESN off;
# north offers ESN and no ESN (either), and west, responding, must take no
# ESN. rw32n: 32 without ESN, a size other daemons keep in the legacy field.
CASES='rw0 ikebana north 198.51.100.1 198.51.100.2 0 yes - either north 0 0 0
rw32 ikebana north 198.51.100.11 198.51.100.12 32 yes 32 yes west 32 1 1
rw32n ikebana north 198.51.100.21 198.51.100.22 32 no 32 no west 32 1 0
rw64 libreswan south 203.0.113.1 203.0.113.2 64 either 64 no west 64 2 0
rw1024 strongswan east 192.0.2.1 192.0.2.2 1024 yes 1024 yes west 1024 32 1
rw2048 strongswan east 192.0.2.11 192.0.2.12 2048 yes 2048 yes east 2048 64 1'
RDIR=$HOSTS/west/log/replay
mkdir -p "$RDIR"

# _rw_each FUNC: FUNC once per case, with the case's fields in c_*. The
# lines come on fd 3: FUNC's commands may read stdin.
_rw_each() {
	while read -r c_name c_daemon c_host c_wa c_pa c_wr c_we c_pr c_pe c_init \
		c_win c_bmp c_esn <&3; do
		"$1"
	done 3<<-EOF
	$CASES
	EOF
}

# _rw_side west|peer ROLE: that side's conn of the case.
_rw_side() {
	if [ "$1" = west ]; then
		peer ikebana west "$c_host" "$2" psk name="$c_name" \
			local="$c_wa" remote="$c_pa" replay="$c_wr" esn="$c_we"
		return
	fi
	set -- "$c_daemon" "$c_host" west "$2" psk name="$c_name" \
		local="$c_pa" remote="$c_wa" esn="$c_pe"
	[ "$c_pr" = - ] || set -- "$@" replay="$c_pr"
	peer "$@"
}

# Responders first, then initiators.
_rw_responders() {
	if [ "$c_init" = west ]; then _rw_side peer responder; else _rw_side west responder; fi
}
_rw_initiators() {
	if [ "$c_init" = west ]; then _rw_side west initiator; else _rw_side peer initiator; fi
}

# _rw_get LINE KEY: _v is KEY's value in LINE, a line of KEY=VALUE words.
# _rw_find TEXT WORD...: _l is the first line of TEXT that has every WORD,
# _nl how many lines do. Neither starts a process: each costs ~0.1 s in UML.
_rw_get() {
	_v=" $1 "
	_v=${_v#* "$2"=}
	_v=${_v%% *}
}
_rw_find() {
	_t=$1
	shift
	_l='' _nl=0 _ifs=$IFS
	IFS='
'
	set -f
	for _x in $_t; do
		_ok=1
		for _w; do
			case " $_x " in *" $_w "*) ;; *) _ok=0; break ;; esac
		done
		[ "$_ok" = 1 ] || continue
		[ -n "$_l" ] || _l=$_x
		_nl=$((_nl + 1))
	done
	set +f
	IFS=$_ifs
}

# _rw_sas: west's and the peer's SAs of the case are what the window asks,
# in the snapshots SA_<host> (sa_list) and RS0 (west's sa_replay).
_rw_sas() {
	_rw_find "$SA_west" dir=in src="$c_pa" dst="$c_wa"
	[ "$_nl" = 1 ] || fail "$c_name: west has $_nl inbound SAs from $c_pa, expected 1"
	_rw_get "$_l" spi
	_spi=$_v
	eval "spi_$c_name=\$_spi"
	_rw_find "$RS0" spi="$_spi"
	case " $_l " in
	*" window=$c_win bmp=$c_bmp esn=$c_esn "*" legacy=0 "*) ;;
	*) fail "$c_name: west's inbound SA has $_l, expected window=$c_win bmp=$c_bmp esn=$c_esn legacy=0" ;;
	esac
	_st=$_l _ow=0
	[ "$c_esn" = 1 ] && _ow=1
	_rw_find "$SA_west" dir=out src="$c_wa" dst="$c_pa" replay=$_ow esn="$c_esn"
	[ "$_nl" = 1 ] ||
		fail "$c_name: west's outbound SA should have window $_ow, esn=$c_esn: $(sa_match west dst="$c_pa")"
	_pl=''
	eval "_pl=\$SA_$c_host"
	_rw_find "$_pl" src="$c_pa" dst="$c_wa" esn="$c_esn"
	_n1=$_nl
	_rw_find "$_pl" src="$c_wa" dst="$c_pa" esn="$c_esn"
	if [ "$_n1" != 1 ] || [ "$_nl" != 1 ]; then
		fail "$c_name: $c_daemon on $c_host should have esn=$c_esn both ways: $(sa_match "$c_host" src="$c_pa"; sa_match "$c_host" dst="$c_pa")"
	fi
	log "ok: $c_name ($c_daemon): west in $_st; out window $_ow; $c_host's SAs esn=$c_esn"
}

_rw_each _rw_responders
_rw_each _rw_initiators
expect_sa west count=12 timeout=40
SA_west=$(sa_list west)
for _h in east north south; do
	eval "SA_$_h=\$(sa_list $_h)"
done
RS0=$(sa_replay west)
_rw_each _rw_sas

# rw0: the warning, with the file and line of esn=, in west's log.
_w=$(grep -m 1 'ESN is forced off' "$HOSTS/west/log/ikebanad.log") ||
	fail "no 'ESN is forced off' warning in west's ikebanad.log"
case $_w in
*rw0.conf:[0-9]*) log "ok: west warned: $_w" ;;
*) fail "the ESN warning names no file:line: $_w" ;;
esac

# The replay: capture one inbound ESP frame per SA on west (a ping's echo
# reply), then send each frame again from the peer's end of its link.
_spis='' _sends='' _pings=''
_rw_args() {
	eval "_spi=\$spi_$c_name"
	_spis="$_spis $_spi"
	_sends="$_sends $c_host:eth0:$RDIR/$_spi.frame"
	_pings="$_pings $c_wa $c_pa"
}
_rw_each _rw_args
# shellcheck disable=SC2086 # _spis is a list of words
timeout -k 2 40 ip netns exec west python3 "$SCENARIO_DIR/espreplay.py" \
	capture "$RDIR" 30 $_spis >"$RDIR/capture.log" 2>&1 &
_cap=$!
wait_for 20 "the ESP capture on west" test -e "$RDIR/ready"
# shellcheck disable=SC2016,SC2086 # the script takes its arguments; a list
ns west sh -c 'while [ $# -gt 1 ]; do
	ping -n -q -c 1 -W 2 -I "$1" "$2" >/dev/null || echo "ping $1 -> $2 failed"
	shift 2
done' sh $_pings >"$RDIR/ping.log" 2>&1
[ -s "$RDIR/ping.log" ] && fail "$(cat "$RDIR/ping.log")"
wait "$_cap" || fail "capture on west: $(cat "$RDIR/capture.log")"
log "ok: $(tr '\n' ';' <"$RDIR/capture.log")"

# What each SA's counters must read after the replay: with a window one
# more replay and no more packets, with 0 one more packet.
_rw_expect() {
	eval "_spi=\$spi_$c_name"
	_rw_find "$RS0" spi="$_spi"
	_rw_get "$_l" replay
	_r0=$_v
	_rw_get "$_l" packets
	_p0=$_v
	if [ "$c_win" = 0 ]; then
		_w="replay=$_r0 outside=0 failed=0 packets=$((_p0 + 1))"
	else
		_w="replay=$((_r0 + 1)) outside=0 failed=0 packets=$_p0"
	fi
	eval "want_$c_name=\$_w"
}
_rw_check() {
	eval "_spi=\$spi_$c_name _w=\$want_$c_name"
	# shellcheck disable=SC2086 # _w is a list of words
	_rw_find "$RS1" spi="$_spi" $_w
	[ "$_nl" = 1 ] || _bad="$_bad $c_name"
}
_rw_replayed() {
	RS1=$(sa_replay west)
	_bad=''
	_rw_each _rw_check
	[ -z "$_bad" ]
}
_rw_report() {
	eval "_spi=\$spi_$c_name _w=\$want_$c_name"
	_rw_find "$RS1" spi="$_spi"
	case " $_bad " in
	*" $c_name "*) log "FAIL: $c_name: $_l, expected $_w" ;;
	*) if [ "$c_win" = 0 ]; then
		log "ok: $c_name: window 0 accepted the replayed packet: $_l"
	   else
		log "ok: $c_name: window $c_win dropped the replayed packet as a replay: $_l"
	   fi ;;
	esac
}

RS0=$(sa_replay west)
_rw_each _rw_expect
# shellcheck disable=SC2086 # _sends is a list of words
t 30 python3 "$SCENARIO_DIR/espreplay.py" send $_sends >"$RDIR/send.log" 2>&1 ||
	fail "replay: $(cat "$RDIR/send.log")"
poll_for 10 _rw_replayed
_rw_each _rw_report
[ -z "$_bad" ] || fail "the replayed packets were not counted as expected:$_bad"
pass
