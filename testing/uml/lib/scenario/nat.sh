# NAT traversal cases for the nat-* scenarios (sourced after lib/all.sh), on
# road-nic-east: road behind nic's masquerade (road is 192.0.2.254 to east),
# east on the far side. Several cases share one boot: nat_reset stops the
# daemons of road and east by PID and clears their state between them.
# shellcheck shell=sh disable=SC2154,SC2015
# (p_* and the helpers come from lib/all.sh; "a && b || fail" is meant)

# _ikb_nat HOST KEY: from ikebana's status --json on HOST, KEY of its first
# IKE SA (a jq path below it, e.g. nat.keepalives_sent).
_ikb_nat() {
	t 20 ip netns exec "$1" "$IKB_CLI" --rundir "$HOSTS/$1/run" status --json \
		>"$HOSTS/$1/log/status.json" 2>/dev/null &&
		jq -r ".ike_sas[0].$2 // empty" "$HOSTS/$1/log/status.json"
}

# nat_case ROAD EAST MODE [WORD...]: ROAD's daemon initiates from behind
# the NAT to EAST's, which takes the peer from any address (WORDs go to
# both peer lines, lsubnet=/rsubnet= as seen from road). Both ends' SAs
# are ESP in UDP, pings go both ways and iperf3 road -> east through them,
# and nic's outside link carries ESP in UDP and no bare ESP.
nat_case() {
	_nr=$1 _ne=$2 _nm=$3
	shift 3
	_nl='' _nrs=''
	for _w; do
		case $_w in
		lsubnet=*) _nl=${_w#*=} ;;
		rsubnet=*) _nrs=${_w#*=} ;;
		esac
	done
	log "== NAT: $_nr on road initiates to $_ne on east, $_nm"
	capture_start nic:eth1 road:eth0
	peer "$_ne" east road responder psk nat=yes "$_nm" \
		${_nrs:+lsubnet=$_nrs} ${_nl:+rsubnet=$_nl}
	peer "$_nr" road east initiator psk "$_nm" "$@"
	expect_sa road encap=espinudp
	expect_sa east encap=espinudp
	expect_esp_grows road ping_ok road east
	if [ -n "$_nl" ]; then ping_ok east "${_nl%/*}"; else ping_ok east road; fi
	iperf_ok road east
	expect_only_esp nic:eth1 road:eth0
	expect_esp_in_udp nic:eth1 road:eth0
	for _h in road east; do
		grep -qx ikebana "$HOSTS/$_h/daemons" || continue
		[ "$(_ikb_nat "$_h" nat.encapsulation)" = true ] ||
			fail "ikebana on $_h: status says no UDP encapsulation"
		[ "$(_ikb_nat "$_h" local_port)" = 4500 ] ||
			fail "ikebana on $_h: IKE is not on port 4500"
	done
	log "ok: $_nr (road) -> $_nm -> $_ne (east) through the NAT"
}

# nat_short_conntrack SECONDS: nic forgets an idle UDP mapping after that
# long (both the first and the assured timeout).
nat_short_conntrack() {
	ns nic sysctl -qw net.netfilter.nf_conntrack_udp_timeout="$1" \
		net.netfilter.nf_conntrack_udp_timeout_stream="$1" ||
		fail "nic: cannot shorten the UDP conntrack timeouts"
}

_keepalives_at_least() { [ "$(_ikb_nat road nat.keepalives_sent)" -ge "$1" ] 2>/dev/null; }

# nat_keepalive_case [TARGET]: ikebana on road, behind a NAT that forgets a
# UDP mapping idle for 4 s, with keep-alive=2: after 10 s without traffic
# east still reaches road (TARGET: road's address in the tunnel, default
# the NAT's) through the tunnel, because road's keepalives held the
# mapping. Then nat-keepalive=no (reload): once nic has forgotten road,
# east's packets are lost, which shows what the keepalives did. (Run after
# an ikebana-on-road nat_case, with keep-alive=2.)
nat_keepalive_case() {
	_kt=${1:-road}
	nat_short_conntrack 4
	wait_for 20 "three NAT-keepalives from road" _keepalives_at_least 3
	_k0=$(_ikb_nat road nat.keepalives_sent)
	# idle: nothing but keepalives for 10 s, longer than the mapping lives
	wait_for 30 "five more NAT-keepalives from road" _keepalives_at_least $((_k0 + 5))
	expect_esp_grows east ping_ok east "$_kt"
	log "ok: keepalives held nic's 4 s mapping over $(( $(_ikb_nat road nat.keepalives_sent) - _k0 )) idle keepalive intervals"
	printf '\tnat-keepalive=no\n' >>"$HOSTS/road/etc/ikebana.d/east-road.conf"
	_ikb road reload || fail "ikebana on road: reload failed"
	wait_for 30 "nic forgetting road's mapping without keepalives" _nat_unmapped
	_out=$(ns east ping -n -q -c 2 -i 0.2 -W 1 "$(_dst "$_kt")" 2>&1) &&
		fail "east reached road without keepalives after nic forgot the mapping: the check proves nothing"
	log "ok: without keepalives nic forgot road, and east's pings were lost"
}

_nat_unmapped() {
	! ns nic conntrack -L -p udp --orig-port-src 4500 2>/dev/null | grep -q udp
}

# _nat_mapped PORT: nic maps road's port 4500 to PORT.
_nat_mapped() {
	ns nic conntrack -L -p udp --orig-port-src 4500 2>/dev/null | grep -q "dport=$1"
}

_ikb_port_in() {
	_p=$(_ikb_nat east remote_port)
	[ -n "$_p" ] && [ "$_p" -ge "$1" ] && [ "$_p" -le "$2" ]
}

# (a function, so that each poll reads the SA again)
_east_out_dport_is() { [ "$(_east_out_dport)" = "$1" ]; }
_east_out_dst_is() { [ "$(_east_out_dst "$1")" = "$2" ]; }

_east_out_dport() {
	ip -n east xfrm state | awk -v r="$(seen_addr road)" '
		$1 == "src" && $4 == r { out = 1; next } $1 == "src" { out = 0 }
		out && $1 == "encap" { print $7; exit }'
}

# nat_mapping_case: ikebana on east answers road behind the NAT (nat_case
# ran, road's daemon sends no keepalives). nic forgets road's mapping under
# traffic (conntrack -D while road pings east) and maps it to other ports:
# east's kernel sees road's ESP from there (XFRM_MSG_MAPPING), ikebana moves
# the IKE SA and both SAs, and east's packets reach road at its new port.
nat_mapping_case() {
	_old=$(_ikb_nat east remote_port)
	ipt nic -t nat -I POSTROUTING 1 -o eth1 -p udp \
		-j MASQUERADE --to-ports 41000-41999 ||
		fail "nic: cannot map UDP to 41000-41999"
	timeout -k 2 60 ip netns exec road ping -n -q -i 0.2 -c 60 \
		"$(seen_addr east)" >"$HOSTS/road/log/ping-mapping.log" 2>&1 &
	_pp=$!
	poll_for 10 _nat_mapped "$_old" || log "note: no conntrack entry for port $_old seen"
	ns nic conntrack -D -p udp --orig-port-src 4500 >/dev/null 2>&1 ||
		fail "nic: conntrack -D found no UDP mapping from port 4500"
	log "nic: road's mapping to port $_old deleted under traffic"
	wait_for 20 "ikebana on east following road to a port in 41000-41999" _ikb_port_in 41000 41999
	_new=$(_ikb_nat east remote_port)
	[ "$(_ikb_nat east nat.mappings_followed)" -ge 1 ] ||
		fail "ikebana on east: status counts no mapping followed"
	wait_for 10 "east's outbound SA to road's port $_new" _east_out_dport_is "$_new"
	ping_ok east road
	kill "$_pp" 2>/dev/null
	wait "$_pp" 2>/dev/null
	grep -q 'peer moved from' "$HOSTS/east/log/ikebanad.log" ||
		fail "ikebana on east logged no move"
	log "ok: east followed road from port $_old to $_new under traffic"
}

_ikb_remote_is() { [ "$(_ikb_nat east remote)" = "$1" ]; }

_east_out_dst() {
	ip -n east xfrm state | awk -v spi="$1" '$1 == "src" { d = $4 } $3 == "spi" && $4 == spi { print d; exit }'
}

# nat_address_case INNER: ikebana on east answers ikebana on road behind
# the NAT, in tunnel mode (INNER: road's address in the tunnel). nic starts
# to map road to another address of its own, 192.0.2.253, and forgets the
# old mapping while road pings: ikebana on east moves its SAs to the new
# address (a new SA under the same SPI, keys and sequence numbers kept) and
# the policies' templates with them, and east reaches road again.
nat_address_case() {
	ns nic ip addr add 192.0.2.253/24 dev eth1 || fail "nic: cannot add 192.0.2.253"
	ipt nic -t nat -I POSTROUTING 1 -o eth1 -j SNAT --to-source 192.0.2.253 ||
		fail "nic: cannot map to 192.0.2.253"
	_spi=$(_ikb_nat east 'child_sas[0].spi_out')
	timeout -k 2 60 ip netns exec road ping -n -q -i 0.2 -c 60 \
		"$(seen_addr east)" >"$HOSTS/road/log/ping-address.log" 2>&1 &
	_pp=$!
	ns nic conntrack -D -p udp --orig-port-src 4500 >/dev/null 2>&1 ||
		fail "nic: conntrack -D found no UDP mapping from port 4500"
	log "nic: road's mapping deleted under traffic; road is 192.0.2.253 now"
	wait_for 20 "ikebana on east following road to 192.0.2.253" _ikb_remote_is 192.0.2.253
	[ "$(ip -n east xfrm policy | grep -c 'tmpl src 192.0.2.2 dst 192.0.2.253')" -ge 1 ] ||
		fail "east's outbound policy does not lead to 192.0.2.253: $(ip -n east xfrm policy | tr '\n' ' ')"
	[ -z "$_spi" ] || wait_for 10 "east's outbound SA $_spi to 192.0.2.253" \
		_east_out_dst_is "0x$_spi" 192.0.2.253
	expect_esp_grows east ping_ok east "$1"
	kill "$_pp" 2>/dev/null
	wait "$_pp" 2>/dev/null
	log "ok: east followed road from 192.0.2.254 to 192.0.2.253 under traffic"
}

# nat_reset: stops the daemons of road and east by PID, flushes their SAD
# and SPD, clears their state and nic's mappings.
nat_reset() {
	for _h in road east; do
		_ikb_stop_host "$_h" TERM
		_ikb_clear_host "$_h"
	done
	ns nic conntrack -F >/dev/null 2>&1
	log "reset: road and east stopped and cleared"
}
