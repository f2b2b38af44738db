#!/bin/sh
# Route-based IPsec against strongSwan (see description).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/xfrmi.sh"
xfrmi_module
PAIRS=1
topology west-east-pairs
W=198.51.100.1 E=203.0.113.1

# east: strongSwan's SAs and policies in if_id 1, its own ipsec1
ns east ip link add ipsec1 type xfrm if_id 1 dev eth0 &&
	ns east ip link set ipsec1 up &&
	ns east ip route replace "$W/32" dev ipsec1 src "$E" ||
	fail "east: cannot set its ipsec1 up"
peer strongswan east

# west: devices of others, before ikebanad (west/ikebana.conf names them)
ns west ip link add ipsec2 type xfrm if_id 2 dev eth0 &&
	ns west ip link add ipsec3 type veth peer name ipsec3p ||
	fail "west: cannot make ipsec2 and ipsec3"
# ikebanad makes ipsec1 when it loads the conn
peer ikebana west
xfrmi_expect west ipsec1 0x1
xfrmi_expect west ipsec2 0x2
grep -q 'ipsec3 exists and is no XFRM interface' "$HOSTS/west/log/ikebanad.log" ||
	fail "west: ikebanad did not refuse the veth ipsec3"
# interface-ip=: _has_ip HOST DEV CIDR
_has_ip() { ns "$1" ip -o addr show dev "$2" | grep -q "inet $3 "; }
_has_ip west ipsec1 10.77.1.1/24 || fail "west: ipsec1 lacks interface-ip 10.77.1.1/24"
_has_ip west ipsec2 10.77.2.1/24 || fail "west: ipsec2 lacks interface-ip 10.77.2.1/24"
log "ok: interface-ip on ipsec1 (made) and ipsec2 (found)"
# the interface's traffic: a host route through it, nothing else
ns west ip route replace "$E/32" dev ipsec1 src "$W" || fail "west: no route via ipsec1"
ns west ip route get "$E" from "$W" | grep -q 'dev ipsec1' ||
	fail "west: $E is not routed through ipsec1"

initiate west xfrmi
expect_sa west mode=tunnel
xfrmi_expect_if_id west 0x1
# status: the Child SA's interface, in the JSON and the text
_st=$HOSTS/west/log/status
ns west "$IKB_CLI" --rundir "$HOSTS/west/run" status --json >"$_st.json" 2>&1 &&
	ns west "$IKB_CLI" --rundir "$HOSTS/west/run" status >"$_st.txt" 2>&1 ||
	fail "ikebana status on west failed"
jq -e '[.ike_sas[].child_sas[] | select(.if_id == 1 and .interface == "ipsec1")] | length >= 1' \
	"$_st.json" >/dev/null || fail "west's status --json has no Child SA with if_id 1 on ipsec1"
grep -q 'interface ipsec1 (if_id 1)' "$_st.txt" || fail "west's status shows no 'interface ipsec1 (if_id 1)'"
grep -q 'ipsec1 if_id 1, 1 conn(s), created by ikebanad, interface-ip 10.77.1.1/24' "$_st.txt" &&
	grep -q 'ipsec2 if_id 2, 1 conn(s), found, not ours, interface-ip 10.77.2.1/24' "$_st.txt" ||
	fail "west's status does not list ipsec1 as its own and ipsec2 as found"
log "ok: status shows the Child SA on ipsec1, if_id 1"

# not through ns(): it sets _h, which expect_esp_grows keeps its host in
_ping() { t 30 ip netns exec west ping -n -q -c "${1:-3}" -i 0.2 -W 2 -I "$W" "$E" >/dev/null 2>&1; }
wait_for 20 "a ping $W -> $E through ipsec1" _ping 1
expect_esp_grows west _ping 3
expect_esp_grows east _ping 3

# down, and the conn removed by a reload: the interface goes with it
_ikb west down xfrmi || fail "ikebana down xfrmi failed"
_no_sas() { [ "$(sa_count west)" = 0 ]; }
wait_for 20 "west's SAs to go" _no_sas
printf 'config setup\n\t# plugins: the defaults (kernel-xfrm)\n' >"$HOSTS/west/etc/ikebana.conf"
_ikb west reload || fail "ikebana reload failed"
wait_for 10 "ipsec1 on west to go with its last conn" _xfrmi_gone west ipsec1
log "ok: ipsec1 went with its conn"
_has_ip west ipsec2 10.77.2.1/24 && fail "west: 10.77.2.1/24 stays on ipsec2 after its conn went"
_xfrmi_is west ipsec2 0x2 || fail "west: ipsec2 went with the address"
log "ok: ikebanad's address left ipsec2, which stays"

# the conn back by a reload: ipsec1 again; and it goes when ikebanad stops
cp "$SCENARIO_DIR/west/ikebana.conf" "$HOSTS/west/etc/ikebana.conf"
_ikb west reload || fail "ikebana reload (the conn back) failed"
xfrmi_expect west ipsec1 0x1
_pid=$(cat "$HOSTS/west/ikebanad.pid")
kill "$_pid"
_exited() { ! kill -0 "$_pid" 2>/dev/null; }
wait_for 20 "ikebanad on west (pid $_pid) to exit" _exited
_xfrmi_gone west ipsec1 || fail "ipsec1 stays on west after ikebanad stopped"
log "ok: ipsec1 went when ikebanad stopped"
_xfrmi_is west ipsec2 0x2 && ns west ip link show dev ipsec3 >/dev/null 2>&1 ||
	fail "west: ikebanad deleted an interface it did not make"
log "ok: ipsec2 and ipsec3, not ikebanad's, stay"

# ipsec-interface-managed=no: ikebanad makes no ipsec1, and uses ipsec2
sed 's/^config setup$/config setup\n\tipsec-interface-managed=no/' \
	"$SCENARIO_DIR/west/ikebana.conf" >"$HOSTS/west/etc/ikebana.conf"
rm -f "$HOSTS/west/ikebanad.pid"
ikebana_start west
grep -q 'ipsec1 does not exist, and with ipsec-interface-managed=no ikebana makes none' \
	"$HOSTS/west/log/ikebanad.log" || fail "west: no word on the missing ipsec1 (managed=no)"
_xfrmi_gone west ipsec1 || fail "west: ikebanad made ipsec1 under ipsec-interface-managed=no"
ns west "$IKB_CLI" --rundir "$HOSTS/west/run" status >"$_st.txt" 2>&1 &&
	grep -q 'ipsec2 if_id 2, 1 conn(s), found, not ours' "$_st.txt" ||
	fail "west: ipsec2 not used under ipsec-interface-managed=no"
log "ok: ipsec-interface-managed=no: only the interface made beforehand"
# the interface we did not make stays
_xfrmi_is east ipsec1 0x1 || fail "east's own ipsec1 is gone"
pass
