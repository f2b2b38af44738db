#!/bin/sh
# Opportunistic encryption (see description): libreswan's five OE conns
# (oe.conf, unchanged) on two ikebana hosts and a libreswan 4.10 host,
# with policy group files beside each configuration.
# shellcheck source=/dev/null disable=SC2015 # helpers checked on their own; a && b || fail is meant
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_UML/lib/scenario/trap.sh"
topology oe-star
W=10.0.1.1 E=10.0.2.1 L=10.0.3.1 C=10.0.4.1 P=10.0.5.1 B=10.0.6.1

# _groups HOST NAME=NETS...: HOST's policy group files (NETS: a,b,...)
_groups() {
	_gd=$HOSTS/$1/etc/ipsec.d/policies
	shift
	mkdir -p "$_gd"
	for _g in clear clear-or-private private-or-clear private block; do
		echo "# $_g (libreswan's layout)" >"$_gd/$_g"
	done
	for _a; do
		echo "${_a#*=}" | tr ',' '\n' >>"$_gd/${_a%%=*}"
	done
}

_groups west private-or-clear=10.0.2.0/24,10.0.3.0/24,10.0.4.0/24 \
	clear-or-private=10.0.2.0/24,10.0.3.0/24 private=10.0.5.0/24 block=10.0.6.0/24
_groups east private-or-clear=10.0.1.0/24 clear-or-private=10.0.1.0/24,10.0.3.0/24
_groups lsw private-or-clear=10.0.1.0/24,10.0.2.0/24 clear-or-private=10.0.1.0/24

for h in west east; do
	mkdir -p "$HOSTS/$h/etc/ikebana.d"
	cp "$SCENARIO_DIR/oe.conf" "$HOSTS/$h/etc/ikebana.d/oe.conf"
	ikebana_start "$h"
done
libreswan_start lsw
cp "$SCENARIO_DIR/oe.conf" "$HOSTS/lsw/etc/ipsec.d/conns/oe.conf"
_ls_add lsw "$HOSTS/lsw/etc/ipsec.d/conns/oe.conf" || fail "libreswan on lsw: addconn failed"

capture_start west:eth0
# the groups' traps: this host to each network, outbound, no SA
trap_expect_trap west $W/32 10.0.2.0/24
trap_expect_trap west $W/32 10.0.5.0/24
trap_expect_trap east $E/32 10.0.1.0/24
wait_for 20 "libreswan's trap $L -> 10.0.2.0/24" _trap_out lsw $L/32 10.0.2.0/24
_p=$(ns west ip xfrm policy list dir out src $W/32 dst 10.0.6.0/24)
case $_p in *"action block"*) ;; *) fail "west: block is no drop policy: $_p" ;; esac
case $(ns west ip xfrm policy list dir in src 10.0.2.0/24 dst $W/32) in
'') log "ok: private-or-clear's trap is outbound only" ;;
*) fail "west: private-or-clear has an inbound trap policy" ;;
esac
expect_no_sa west
capture_wait

# _oe_up HOST PEER: HOST has an SA pair with PEER
_oe_up() { [ "$(sa_count "$1" dst="$2")" -ge 1 ] && [ "$(sa_count "$1" src="$2")" -ge 1 ]; }
# _oe_jq HOST JQ-ARGS...: jq -e on HOST's status --json; false when the
# CLI gives nothing (jq -e on no input would be true)
_oe_jq() {
	_oj=$(t 20 "$IKB_CLI" --rundir "$HOSTS/$1/run" status --json 2>/dev/null) &&
		[ -n "$_oj" ] || return 1
	shift
	printf '%s\n' "$_oj" | jq -e "$@" >/dev/null
}
# _ikb_conn_sa HOST CONN: HOST's status has an established IKE SA of CONN
_ikb_conn_sa() {
	_oe_jq "$1" --arg c "$2" \
		'[.ike_sas[] | select(.conn == $c and .state == "established")] | length == 1'
}

# ikebana to ikebana: the ping brings up an authby=null tunnel
wait_for 30 "a ping west -> east" _ping_from west $W $E
wait_for 20 "west's OE SAs with east" _oe_up west $E
wait_for 10 "west's instance private-or-clear#$E" _ikb_conn_sa west "private-or-clear#$E"
_oe_jq east '[.ike_sas[] | select(.conn | test("^(clear-or-private|private-or-clear)#10.0.1.1$"))] | length == 1' ||
	fail "east has no instance IKE SA for west: $(t 20 "$IKB_CLI" --rundir "$HOSTS/east/run" status --json | jq -c '[.ike_sas[] | .conn]')"
_oe_jq west --arg c "private-or-clear#$E" '.ike_sas[] | select(.conn == $c) | .peer_auth == "NULL"' ||
	fail "west's OE IKE SA is not authby=null"
expect_esp_grows west _ping_from west $W $E 3
log "ok: ikebana <-> ikebana opportunistic tunnel"

# ikebana to libreswan 4.10, then libreswan to ikebana (east answers)
wait_for 30 "a ping west -> lsw" _ping_from west $W $L
wait_for 20 "west's OE SAs with libreswan" _oe_up west $L
expect_esp_grows west _ping_from west $W $L 3
wait_for 30 "a ping lsw -> east" _ping_from lsw $L $E
wait_for 20 "libreswan's OE SAs with east" _oe_up east $L
_before=$(esp_packets east src=$L)
_ping_from lsw $L $E 3 || fail "lsw -> east: pings lost on the OE tunnel"
[ "$(esp_packets east src=$L)" -gt "$_before" ] || fail "east: no ESP from libreswan grew"
log "ok: ikebana <-> libreswan opportunistic tunnels, both roles"

# drop-oppo-null=yes on east: libreswan's next OE IKE_SA_INIT (with its
# Vendor ID "Opportunistic IPsec") is dropped unanswered, and libreswan's
# private-or-clear reaches east in clear
sed -i 's/^config setup$/config setup\n\tdrop-oppo-null=yes/' "$HOSTS/east/etc/ikebana.conf"
_ikb east reload || fail "ikebana reload on east failed"
_ikb east down "clear-or-private#$L" || fail "east: down clear-or-private#$L failed"
wait_for 20 "east without an IKE SA with libreswan" _oe_jq east --arg r "$L" \
	'[.ike_sas[] | select(.remote == $r)] | length == 0'
# _dropped: a ping lsw -> east (its trap's ACQUIRE), then east's drop line
_dropped() {
	_ping_from lsw $L $E 1 || true
	grep -q "dropped message from $L:500: opportunistic IKE_SA_INIT (Vendor ID \"Opportunistic IPsec\"): drop-oppo-null=yes" \
		"$HOSTS/east/log/ikebanad.log"
}
wait_for 30 "east dropping libreswan's opportunistic IKE_SA_INIT" _dropped
_oe_jq east --arg r "$L" '[.ike_sas[] | select(.remote == $r)] | length == 0' ||
	fail "east made an IKE SA for libreswan's request despite drop-oppo-null=yes"
wait_for 30 "a ping lsw -> east (in clear)" _ping_from lsw $L $E
[ "$(sa_count east src=$L)" = 0 ] || fail "east has an SA from libreswan under drop-oppo-null=yes"
log "ok: drop-oppo-null=yes: libreswan's OE request dropped, its traffic in clear"

# a host that speaks no IKE under private-or-clear: clear, and stays so
wait_for 30 "a ping west -> clear (in clear)" _ping_from west $W $C
wait_for 20 "west's failure shunt for $C" grep -q "private-or-clear#$C: traffic: .*passthrough (failureshunt=" \
	"$HOSTS/west/log/ikebanad.log"
_ping_from west $W $C 3 || fail "west -> clear: pings lost after the failure shunt"
[ "$(sa_count west dst=$C)" = 0 ] || fail "west has an SA with the clear host"

# private: never in clear; after the failure it drops
_ping_from west $W $P || true
wait_for 20 "west's drop shunt for $P" grep -q "private#$P: traffic: drop (failureshunt=" \
	"$HOSTS/west/log/ikebanad.log"
! _ping_from west $W $P || fail "west -> priv answered: private let it pass in clear"
# block: nothing at all
! _ping_from west $W $B || fail "west -> blk answered through block"

capture_stop
trap_has_clear west:eth0 "icmp and dst host $C" "ICMP to the clear host"
trap_has_clear west:eth0 "udp port 500 and dst host $C" "IKE_SA_INIT to the clear host"
trap_no_clear west:eth0 "host $P and not udp port 500" "traffic to the private host"
trap_no_clear west:eth0 "host $B" "anything to the blocked host"
pass
