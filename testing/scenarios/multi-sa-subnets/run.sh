#!/bin/sh
# multi-sa subnets: one conn, leftsubnets and rightsubnets of two subnets
# each, four Child SAs (tunnel mode) under one IKE SA. ikebana on west
# initiates one conn to each of three responders: strongSwan (east, one
# child per pair), ikebana (north, the same conn text, where right is the
# local side) and libreswan (south, its own leftsubnets/rightsubnets).
# Per responder:
#   - 8 ESP states on both hosts, and ikebana on west lists 4 Child SAs
#     under one IKE SA;
#   - west has the out, in and fwd policies of each pair, tunnelled to the
#     responder;
#   - a ping from each of west's subnets to each of the responder's is
#     answered, and each starts the counters of one more outbound SA on
#     west: every pair has its own SA.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology "$SCENARIO_DIR/topology"

# One line per responder: host, daemon, conn on west, its address, the
# second octet of its subnets.
PEERS='east strongswan sn-east 192.0.2.2 2
north ikebana sn-north 198.51.100.2 3
south libreswan sn-south 203.0.113.2 4'

# _sn_each FUNC: FUNC once per responder, its fields in r_*; the lines come
# on fd 3, as FUNC's commands may read stdin.
_sn_each() {
	while read -r r_host r_daemon r_conn r_pa r_net <&3; do
		"$1"
	done 3<<-EOF
	$PEERS
	EOF
}

_sn_count() { [ "$(sa_match "$1" "$2" | wc -l)" -ge "$3" ]; }

_sn_up() {
	wait_for 40 "8 ESP states on west towards $r_host" _sn_count west "dst=$r_pa" 4
	wait_for 40 "8 ESP states on west towards $r_host" _sn_count west "src=$r_pa" 4
	wait_for 20 "8 ESP states on $r_host" _sn_count "$r_host" "dst=$r_pa" 4
	_ts=$(t 20 "$IKB_CLI" --rundir "$HOSTS/west/run" trafficstatus "$r_conn" 2>&1)
	read -r _n _ike <<-EOF
	$(echo "$_ts" | awk -v c="\"$r_conn\"" '$1 == c { n++; ike[$2] = 1 }
		END { for (i in ike) k++; print n + 0, k + 0 }')
	EOF
	[ "$_n.$_ike" = 4.1 ] ||
		fail "ikebana trafficstatus $r_conn on west lists $_n Child SAs under $_ike IKE SAs, expected 4 under 1: $_ts"
	_n=$(sa_list west | grep -c "src=$r_pa \|dst=$r_pa ")
	[ "$_n" = 8 ] || fail "west has $_n ESP states with $r_host, expected 8: $(sa_list west)"
	log "ok: $r_daemon ($r_host): 4 Child SAs under one IKE SA, 8 states on west"
}

# West's policies towards the responder: out, in and fwd for each of the
# four pairs, each tunnel to the responder.
_sn_policies() {
	_pl=$(ip -n west xfrm policy)
	for _i in 1 2; do
		for _j in 1 2; do
			_s=10.1.$_i.0/24 _d=10.$r_net.$_j.0/24
			for _w in "src $_s dst $_d :out" "src $_d dst $_s :in" "src $_d dst $_s :fwd"; do
				_sel=${_w%:*} _dir=${_w##*:}
				echo "$_pl" | awk -v sel="$_sel" -v dir="$_dir" -v peer="$r_pa" '
					index($0, sel) == 1 { hit = 1; next }
					hit && $1 == "dir" { ok = ($2 == dir); next }
					hit && ok && $1 == "tmpl" && ($3 == peer || $5 == peer) { found = 1 }
					/^src / { hit = ok = 0 }
					END { exit !found }' ||
					fail "west: no $_dir policy $_sel with a tunnel to $r_pa: $_pl"
			done
		done
	done
	log "ok: west has the out, in and fwd policies of all 4 pairs of subnets with $r_host"
}

# Outbound SAs on west towards the responder that have carried packets.
_sn_used() { sa_match west "dst=$r_pa" dir=out | grep -vc ' packets=0 '; }

_sn_ping() {
	_k=0
	for _i in 1 2; do
		for _j in 1 2; do
			_from=10.1.$_i.1 _to=10.$r_net.$_j.1
			_out=$(ns west ping -n -q -c 2 -i 0.2 -W 2 -I "$_from" "$_to" 2>&1) ||
				fail "ping $_from -> $_to ($r_host) failed: $(echo "$_out" | tail -n 2 | tr '\n' ' ')"
			_k=$((_k + 1))
			_u=$(_sn_used)
			[ "$_u" = "$_k" ] ||
				fail "after $_k pairs, $_u of west's outbound SAs to $r_host carried packets, expected $_k: $(sa_list west)"
			log "ok: ping $_from -> $_to through its own SA ($_u of 4 used)"
		done
	done
}

_sn_start() { peer "$r_daemon" "$r_host"; }
_sn_initiate() { initiate west "$r_conn"; }

_sn_each _sn_start
peer ikebana west
_sn_each _sn_initiate
_sn_each _sn_up
_sn_each _sn_policies
_sn_each _sn_ping
pass
