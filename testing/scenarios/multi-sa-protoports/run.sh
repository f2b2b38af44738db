#!/bin/sh
# multi-sa protoports: one conn, four Child SAs under one IKE SA. ikebana on
# west (default plugins, multi-sa among them) initiates one conn to each
# of three responders, strongSwan (east), ikebana (north, the same conn
# text, where right is the local side) and libreswan (south), each conn
# with leftprotoports=tcp and rightprotoports=tcp/5201,tcp/5202,tcp/5203,
# tcp/5204: the one left entry pairs with each right entry (multi-sa's
# rule for lists, as libreswan's leftsubnets=), which the entry-by-entry
# rule of before refused. strongSwan and libreswan express the same four
# Child SAs as four children or conns, each "tcp on west, one port on the
# responder". Per responder:
#   - 4 Child SAs, 8 ESP states on both hosts, and ikebana on west lists 4
#     Child SAs for the conn;
#   - each port has its own pair of states and policies on both hosts, the
#     selector "tcp, any port on west, that port on the responder";
#   - an iperf3 transfer to each port moves the counters of that port's
#     SA pair (in and out, on both hosts) and of no other SA;
#   - on the wire, only ESP and IKE (egress captures on all six ends).
# Then ICMP: it matches no selector of these conns, so no policy covers it
# and it is not theirs to protect. A ping is answered, in cleartext, and
# moves no ESP counter. That is the policy a user asked for: protoports
# narrows the conn to those flows, as libreswan's leftprotoport= does.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology "$SCENARIO_DIR/topology"

PORTS='5201 5202 5203 5204'
# One line per responder: host, daemon, conn on west, west's address and
# the responder's, west's device towards it.
PEERS='east strongswan pp-east 192.0.2.1 192.0.2.2 eth0
north ikebana pp-north 198.51.100.1 198.51.100.2 eth1
south libreswan pp-south 203.0.113.1 203.0.113.2 eth2'
PPD=$HOSTS/west/log/protoports
mkdir -p "$PPD"

# _pp_each FUNC: FUNC once per responder, its fields in r_*. The lines come
# on fd 3: FUNC's commands may read stdin.
_pp_each() {
	while read -r r_host r_daemon r_conn r_wa r_pa r_dev <&3; do
		"$1"
	done 3<<-EOF
	$PEERS
	EOF
}

# _pp_sas HOST OTHER: HOST's ESP states to and from OTHER (an address), one
# line each: SPI PROTO PORT DIR PACKETS FROM. PROTO and PORT are those of
# the state's selector (PORT: sport or dport, whichever is set; 0: none),
# FROM is sel. A daemon that leaves the state's selector at the two
# addresses (strongSwan does in transport mode: its policies select) gets
# those of the policy with the state's reqid and direction, FROM pol, as
# _pp_policies last saw them.
_pp_sas() {
	ip -n "$1" -s xfrm state | awk -v lf="$HOSTS/$1/local" -v other="$2" \
		-v pf="$PPD/policies.$1" '
	function upspec(from,   i) {
		pr = "-"; pt = 0
		for (i = from; i < NF; i++) {
			if ($i == "proto") pr = $(i + 1)
			if ($i == "sport" || $i == "dport") pt = $(i + 1)
		}
	}
	function flush(   d, how) {
		if (spi != "" && (src == other || dst == other)) {
			d = (dst in local) ? "in" : "out"
			how = "sel"
			if (sproto == "-" && (d SUBSEP reqid) in pol) {
				split(pol[d, reqid], x, " ")
				sproto = x[1]; sport = x[2]; how = "pol"
			}
			print spi, sproto, sport, d, packets, how
		}
		spi = ""
	}
	BEGIN {
		while ((getline l < lf) > 0) local[l] = 1
		while ((getline < pf) > 0) {
			if ($1 == "src") { upspec(5); ppr = pr; ppt = pt }
			if ($1 == "dir") pdir = $2
			if ($1 == "proto" && $2 == "esp")
				for (i = 3; i < NF; i++)
					if ($i == "reqid") pol[pdir, $(i + 1)] = ppr " " ppt
		}
	}
	/^src / { flush(); src = $2; dst = $4; sproto = "-"; sport = packets = 0; next }
	$1 == "proto" && $2 == "esp" { spi = $4; sub(/\(.*/, "", spi); reqid = $6; sub(/\(.*/, "", reqid) }
	$1 == "sel" { upspec(2); sproto = pr; sport = pt }
	/^\t  [0-9]+\(bytes\), [0-9]+\(packets\)/ { packets = $2; sub(/\(.*/, "", packets) }
	END { flush() }'
}

# _pp_policies HOST: saves HOST's SPD for _pp_sas and _pp_pols.
_pp_policies() { ip -n "$1" xfrm policy >"$PPD/policies.$1"; }

# _pp_pols HOST OTHER: from the saved SPD, HOST's policies between its
# address and OTHER, one line each: DIR SRC PROTO SPORT DPORT (- where
# unset).
_pp_pols() {
	awk -v other="$2" '
	function flush() {
		if (dir != "" && (src == other || dst == other))
			print dir, src, proto, sp, dp
		dir = ""
	}
	/^src / { flush(); src = $2; dst = $4; sub(/\/.*/, "", src); sub(/\/.*/, "", dst)
		proto = sp = dp = "-"
		for (i = 5; i < NF; i++) {
			if ($i == "proto") proto = $(i + 1)
			if ($i == "sport") sp = $(i + 1)
			if ($i == "dport") dp = $(i + 1) }
		next }
	$1 == "dir" { dir = $2 }
	END { flush() }' "$PPD/policies.$1"
}

# _pp_nl TEXT GLOB: _nl is how many lines of TEXT match GLOB. No process:
# each costs ~0.1 s in UML.
_pp_nl() {
	_nl=0 _ifs=$IFS
	IFS='
'
	set -f
	for _x in $1; do
		# shellcheck disable=SC2254 # GLOB is a pattern on purpose
		case $_x in $2) _nl=$((_nl + 1)) ;; esac
	done
	set +f
	IFS=$_ifs
}

_pp_count() { [ "$(_pp_sas "$1" "$2" | wc -l)" -ge "$3" ]; }

# _pp_up: the responder's 8 states, west's 8 towards it, and ikebana's own
# view on west: 4 Child SAs for the conn.
_pp_up() {
	wait_for 40 "8 ESP states on west towards $r_host" _pp_count west "$r_pa" 8
	wait_for 20 "8 ESP states on $r_host" _pp_count "$r_host" "$r_wa" 8
	# one line per Child SA: "CONN" #IKE-SA-SERIAL, reqid ...
	_ts=$(t 20 "$IKB_CLI" --rundir "$HOSTS/west/run" trafficstatus "$r_conn" 2>&1)
	echo "$_ts" >"$PPD/$r_host.trafficstatus"
	read -r _n _ike <<-EOF
	$(echo "$_ts" | awk -v c="\"$r_conn\"" '$1 == c { n++; ike[$2] = 1 }
		END { for (i in ike) k++; print n + 0, k + 0 }')
	EOF
	[ "$_n.$_ike" = 4.1 ] ||
		fail "ikebana trafficstatus $r_conn on west lists $_n Child SAs under $_ike IKE SAs, expected 4 under 1: $_ts"
	log "ok: $r_daemon ($r_host): 4 Child SAs under one IKE SA on west"
}

# _pp_selectors: on each host exactly 8 states, per port one each way, tcp
# with that port as the selector's (only) port, and a policy each way
# whose selector is tcp to/from that port on the responder and any port on
# west. No policy between the two that is not tcp.
_pp_selectors() {
	for _h in west "$r_host"; do
		_o=$r_pa
		[ "$_h" = west ] || _o=$r_wa
		_pp_policies "$_h"
		_s=$(_pp_sas "$_h" "$_o")
		_pl=$(_pp_pols "$_h" "$_o")
		_pp_nl "$_s" '*'
		[ "$_nl" = 8 ] || fail "$_h has $_nl ESP states for $r_conn, expected 8: $_s"
		for _p in $PORTS; do
			for _d in in out; do
				_pp_nl "$_s" "* tcp $_p $_d *"
				[ "$_nl" = 1 ] || fail "$_h ($r_conn): $_nl $_d states with selector tcp port $_p, expected 1: $_s"
			done
			# West sends from any port to the responder's; the
			# responder from its port to any port of west's.
			if [ "$_h" = west ]; then
				_out="out $r_wa tcp - $_p" _in="in $r_pa tcp $_p -"
			else
				_out="out $r_pa tcp $_p -" _in="in $r_wa tcp - $_p"
			fi
			for _w in "$_out" "$_in"; do
				_pp_nl "$_pl" "$_w"
				[ "$_nl" -ge 1 ] || fail "$_h ($r_conn): no policy '$_w': $_pl"
			done
		done
		_pp_nl "$_pl" '*'
		_all=$_nl
		_pp_nl "$_pl" '* * tcp * *'
		[ "$_nl" = "$_all" ] || fail "$_h ($r_conn) has policies that are not tcp: $_pl"
		# ikebana puts the Child SA's selector on its states too
		_pp_nl "$_s" '* pol'
		[ "$_h" != west ] || [ "$_nl" = 0 ] ||
			fail "west ($r_conn): states without the port in their own selector: $_s"
	done
	_how='their own selectors'
	[ "$_nl" = 0 ] || _how='the policies of their reqids (states select by address only)'
	log "ok: $r_host: 8 states on both hosts; per port one state pair and an in and out policy, tcp, any port on west; $r_host's states map to ports by $_how"
}

# _pp_listening HOST: iperf3 listens on every port of PORTS.
_pp_listening() {
	ip netns exec "$1" ss -ltnH | awk -v want="$PORTS" '
	BEGIN { n = split(want, w, " ") }
	{ for (i = 1; i <= n; i++) if ($4 ~ (":" w[i] "$")) seen[i] = 1 }
	END { for (i = 1; i <= n; i++) if (!seen[i]) exit 1 }'
}

# _pp_moved BEFORE AFTER PORT: compares two _pp_sas snapshots: the states
# of PORT grew (both ways), every other state kept its count. Prints one
# line per thing wrong, or one "# DIR SPI +PACKETS..." line of what moved.
_pp_moved() {
	awk -v port="$3" '
	NR == FNR { b[$1] = $5; next }
	{ d = $5 - b[$1]
	  if ($3 == port && d <= 0) print "state " $1 " (port " $3 ", " $4 ") did not move: " b[$1] " -> " $5
	  if ($3 == port && d > 0) moved = moved " " $4 " " $1 " +" d
	  if ($3 != port && d != 0) print "state " $1 " (port " $3 ", " $4 ") moved too: " b[$1] " -> " $5 }
	END { if (moved == "") print "nothing moved"; else print "#" moved }' "$1" "$2"
}

# _pp_snap NAME: west's and the responder's states now, in $PPD.
_pp_snap() {
	_pp_sas west "$r_pa" >"$PPD/$r_host-$1.west"
	_pp_sas "$r_host" "$r_wa" >"$PPD/$r_host-$1.peer"
}

# _pp_check BEFORE AFTER PORT: _mw and _mp, what moved on west and on the
# responder between two _pp_snap; 1 when anything else moved.
_pp_check() {
	_mw=$(_pp_moved "$PPD/$r_host-$1.west" "$PPD/$r_host-$2.west" "$3")
	_mp=$(_pp_moved "$PPD/$r_host-$1.peer" "$PPD/$r_host-$2.peer" "$3")
	# a wrong line comes first: the summary line is the last
	case $_mw in '#'*) ;; *) return 1 ;; esac
	case $_mp in '#'*) ;; *) return 1 ;; esac
}

# _pp_traffic: an iperf3 server per port on the responder; per port, 2 MB
# from west, and only that port's pair of states moved, on west and on
# the responder. West's and the responder's ends are captured meanwhile:
# only ESP and IKE.
_pp_traffic() {
	capture_start "west:$r_dev" "$r_host:eth0"
	_srvs=
	for _p in $PORTS; do
		timeout -k 2 120 ip netns exec "$r_host" iperf3 -s -1 -p "$_p" >/dev/null 2>&1 &
		_srvs="$_srvs $!"
	done
	wait_for 15 "iperf3 servers on $r_host" _pp_listening "$r_host"
	capture_wait
	for _p in $PORTS; do
		_pp_snap "$_p.0"
		_rate=$(t 60 ip netns exec west iperf3 -c "$r_pa" -p "$_p" -n 2M -f m 2>&1 |
			awk '/receiver/ { print $7, $8 }')
		[ -n "$_rate" ] || fail "iperf3 west -> $r_host ($r_pa) port $_p failed"
		_pp_snap "$_p.1"
		_pp_check "$_p.0" "$_p.1" "$_p" ||
			fail "iperf3 to $r_host port $_p: west: $_mw; $r_host: $_mp"
		log "ok: iperf3 west -> $r_host:$_p ($_rate): only that port's SAs moved: west${_mw#\#}; $r_host${_mp#\#}"
	done
	# shellcheck disable=SC2086 # a list of PIDs
	wait $_srvs 2>/dev/null
	expect_only_esp "west:$r_dev" "$r_host:eth0"
}

# _pp_ping: west pings the responder; no ESP state of either moves, and
# (_pp_icmp_clear, once the capture stopped) west sent the echo requests
# in cleartext.
_pp_ping() {
	_pp_snap ping.0
	ping_ok west "$r_pa" 3
	_pp_snap ping.1
	_pp_check ping.0 ping.1 none
	[ "$_mw$_mp" = "nothing movednothing moved" ] ||
		fail "ping west -> $r_host moved ESP counters: west: $_mw; $r_host: $_mp"
}

_pp_icmp_clear() {
	_pc=$HOSTS/west/log/$r_dev.pcap
	_n=$(t 30 tcpdump -n -r "$_pc" "icmp[icmptype] = icmp-echo and dst $r_pa" 2>/dev/null | wc -l)
	[ "$_n" -ge 3 ] || fail "west's $r_dev capture has $_n ICMP echo requests to $r_pa, expected 3"
	log "ok: ping west -> $r_host: answered, $_n echo requests in cleartext, no ESP counter moved (no policy covers ICMP)"
}

_pp_start() { peer "$r_daemon" "$r_host"; }
_pp_initiate() { initiate west "$r_conn"; }

_pp_each _pp_start
peer ikebana west
_pp_each _pp_initiate
_pp_each _pp_up
_pp_each _pp_selectors
_pp_each _pp_traffic
capture_start west:eth0 west:eth1 west:eth2
_pp_each _pp_ping
capture_stop
_pp_each _pp_icmp_clear
pass
