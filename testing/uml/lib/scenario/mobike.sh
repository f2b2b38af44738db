# MOBIKE cases for the mobike-* scenarios (sourced after lib/all.sh,
# scenario/ikebana.sh and scenario/nat.sh), on road-nic-east without NAT
# (NAT=no): tunnel mode between road's inner address 10.9.2.1 and east's
# 10.9.1.1, while road's outer address moves within 198.51.100.0/24 (a
# laptop that gets a new lease). The IKE SA and the Child SA must follow
# without a new IKE SA: same SPIs, one IKE SA, pings through both ways.
# shellcheck shell=sh disable=SC2154,SC2015
# (p_* and the helpers come from lib/all.sh; "a && b || fail" is meant)

ROAD_IN=10.9.2.1 EAST_IN=10.9.1.1

# mobike_inner: the inner addresses, and routes that pick them as source.
mobike_inner() {
	ns road ip addr add "$ROAD_IN/32" dev lo || fail "road: cannot add $ROAD_IN"
	ns east ip addr add "$EAST_IN/32" dev lo || fail "east: cannot add $EAST_IN"
	# the address that stays takes over the subnet's route
	ns road sysctl -qw net.ipv4.conf.all.promote_secondaries=1 \
		net.ipv4.conf.eth0.promote_secondaries=1 ||
		fail "road: cannot set promote_secondaries"
	_mobike_routes
	ns east ip route replace "$ROAD_IN/32" via 192.0.2.254 src "$EAST_IN" ||
		fail "east: no route to $ROAD_IN"
}

_mobike_routes() {
	ns road ip route replace default via 198.51.100.254 &&
		ns road ip route replace "$EAST_IN/32" via 198.51.100.254 src "$ROAD_IN" ||
		fail "road: no route to east: $(ns road ip route | tr '\n' ' ')"
}

# road_move FROM TO: road's outer address FROM gives way to TO (added
# first, so the subnet's route stays), as a DHCP renewal does.
road_move() {
	ns road ip addr add "$2/24" dev eth0 || fail "road: cannot add $2"
	ns road ip addr del "$1/24" dev eth0 || fail "road: cannot remove $1"
	_mobike_routes
	echo "$2" >>"$HOSTS/road/local"
	log "road: outer address $1 -> $2"
}

# _ikb_is HOST KEY VALUE: ikebana's status on HOST says so of its IKE SA.
_ikb_is() { [ "$(_ikb_nat "$1" "$2")" = "$3" ]; }

_ikb_ike_sas() {
	t 20 ip netns exec "$1" "$IKB_CLI" --rundir "$HOSTS/$1/run" status --json |
		jq '.ike_sas | length'
}

# _mobike_snap HOST: the Child SA's SPI and the IKE SA's serial, and that
# MOBIKE is on there.
_mobike_snap() {
	[ -n "$(_ikb_nat "$1" mobike)" ] ||
		fail "ikebana on $1: MOBIKE is not on: $(cat "$HOSTS/$1/log/status.json")"
	_snap="$(_ikb_nat "$1" 'child_sas[0].spi_in') #$(_ikb_nat "$1" serial)"
}

# _mobike_same HOST: the same IKE SA and Child SA as _mobike_snap saw, one
# update, and one IKE SA in all.
_mobike_same() {
	_now="$(_ikb_nat "$1" 'child_sas[0].spi_in') #$(_ikb_nat "$1" serial)"
	[ "$_now" = "$_snap" ] ||
		fail "ikebana on $1: Child SA and IKE SA were $_snap, now $_now: not moved but replaced"
	[ "$(_ikb_ike_sas "$1")" = 1 ] || fail "ikebana on $1: more than one IKE SA"
	[ "$(_ikb_nat "$1" mobike.updates)" -ge 1 ] ||
		fail "ikebana on $1: status counts no MOBIKE update"
}

# mobike_road_case EAST FROM TO: ikebana on road initiates with mobike=yes
# to EAST's daemon on east (which takes road from any address); road moves
# from FROM to TO; ikebana sends UPDATE_SA_ADDRESSES and east's SAs follow.
mobike_road_case() {
	_me=$1
	log "== MOBIKE: ikebana on road initiates to $_me on east, road moves $2 -> $3"
	PEER_CONN_EXTRA='\tmobike=yes'
	peer "$_me" east road responder psk nat=yes tunnel \
		lsubnet="$EAST_IN/32" rsubnet="$ROAD_IN/32"
	peer ikebana road east initiator psk tunnel local="$2" \
		lsubnet="$ROAD_IN/32" rsubnet="$EAST_IN/32"
	PEER_CONN_EXTRA=
	expect_sa road mode=tunnel
	expect_sa east mode=tunnel
	capture_start road:eth0
	expect_esp_grows road ping_ok road "$EAST_IN"
	_ikb_is road local_port 4500 || fail "ikebana on road: IKE is not on 4500 with MOBIKE"
	_mobike_snap road
	road_move "$2" "$3"
	wait_for 20 "ikebana on road moving its IKE SA to $3" _ikb_is road local "$3"
	expect_sa east count=1 timeout=20 src=192.0.2.2 dst="$3" mode=tunnel
	expect_sa east count=1 src="$3" dst=192.0.2.2 mode=tunnel
	expect_sa road count=1 src="$3" dst=192.0.2.2 mode=tunnel
	expect_esp_grows road ping_ok road "$EAST_IN"
	ping_ok east "$ROAD_IN"
	_mobike_same road
	grep -q 'sending UPDATE_SA_ADDRESSES' "$HOSTS/road/log/ikebanad.log" ||
		fail "ikebana on road logged no UPDATE_SA_ADDRESSES"
	expect_only_esp road:eth0
	log "ok: road moved $2 -> $3, $_me on east followed its UPDATE_SA_ADDRESSES"
}

# mobike_east_case ROAD FROM TO: ROAD's daemon on road initiates (MOBIKE
# on) to ikebana on east (mobike=yes, road from any address); road moves
# from FROM to TO; ROAD sends UPDATE_SA_ADDRESSES and ikebana follows.
mobike_east_case() {
	_mr=$1
	log "== MOBIKE: $_mr on road initiates to ikebana on east, road moves $2 -> $3"
	PEER_CONN_EXTRA='\tmobike=yes'
	peer ikebana east road responder psk nat=yes tunnel \
		lsubnet="$EAST_IN/32" rsubnet="$ROAD_IN/32"
	peer "$_mr" road east initiator psk tunnel local="$2" \
		lsubnet="$ROAD_IN/32" rsubnet="$EAST_IN/32"
	PEER_CONN_EXTRA=
	expect_sa road mode=tunnel
	expect_sa east mode=tunnel
	expect_esp_grows east ping_ok east "$ROAD_IN"
	_mobike_snap east
	road_move "$2" "$3"
	wait_for 30 "ikebana on east following road to $3" _ikb_is east remote "$3"
	expect_sa east count=1 src=192.0.2.2 dst="$3" mode=tunnel
	expect_sa east count=1 src="$3" dst=192.0.2.2 mode=tunnel
	expect_esp_grows east ping_ok east "$ROAD_IN"
	ping_ok road "$EAST_IN"
	_mobike_same east
	[ "$(_ikb_nat east mobike.previous_remote)" = "$2" ] ||
		fail "ikebana on east: status does not name $2 as where road was"
	log "ok: road moved $2 -> $3, ikebana on east followed $_mr's UPDATE_SA_ADDRESSES"
}

# nic_static_nat ADDR: nic rewrites ADDR to its own 192.0.2.254 on the
# outside link and back (tc's stateless act_nat, which both UML kernels
# have; 7.2 has no NAT table for iptables or nftables).
nic_static_nat() {
	modprobe -q -a sch_ingress cls_matchall act_nat
	ns nic tc qdisc add dev eth1 clsact &&
		ns nic tc filter add dev eth1 egress protocol ip matchall \
			action nat egress "$1/32" 192.0.2.254 &&
		ns nic tc filter add dev eth1 ingress protocol ip matchall \
			action nat ingress 192.0.2.254/32 "$1" ||
		fail "nic: cannot map $1 to 192.0.2.254 (tc act_nat)"
	log "nic: $1 is 192.0.2.254 outside (static NAT)"
}

# mobike_nat_case EAST FROM TO: as mobike_road_case, but nic maps TO to its
# own address before road moves there, so the new path has a NAT: the NAT
# detection of UPDATE_SA_ADDRESSES finds it, both ends' SAs become ESP in
# UDP at the NAT's address, and road sends NAT-keepalives.
mobike_nat_case() {
	_me=$1
	log "== MOBIKE into a NAT: ikebana on road initiates to $_me on east, road moves $2 -> $3 behind a NAT on nic"
	PEER_CONN_EXTRA='\tmobike=yes'
	IKEBANA_SETUP='\tkeep-alive=2'
	peer "$_me" east road responder psk nat=yes tunnel \
		lsubnet="$EAST_IN/32" rsubnet="$ROAD_IN/32"
	peer ikebana road east initiator psk tunnel local="$2" \
		lsubnet="$ROAD_IN/32" rsubnet="$EAST_IN/32"
	PEER_CONN_EXTRA= IKEBANA_SETUP=
	expect_sa road mode=tunnel encap=none
	expect_esp_grows road ping_ok road "$EAST_IN"
	[ -z "$(_ikb_nat road nat)" ] || fail "ikebana on road: a NAT before there is one"
	_mobike_snap road
	nic_static_nat "$3"
	road_move "$2" "$3"
	wait_for 20 "ikebana on road finding the NAT on its new path" _ikb_is road nat.local_behind true
	expect_sa road count=2 timeout=20 encap=espinudp mode=tunnel
	expect_sa east count=1 timeout=20 src=192.0.2.2 dst=192.0.2.254 encap=espinudp
	expect_esp_grows road ping_ok road "$EAST_IN"
	ping_ok east "$ROAD_IN"
	_mobike_same road
	wait_for 10 "NAT-keepalives from road" _keepalives_at_least 1
	log "ok: road moved $2 -> $3 into a NAT; ESP went into UDP on both ends"
}
