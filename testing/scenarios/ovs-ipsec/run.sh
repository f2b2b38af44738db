#!/bin/sh
# ovs-monitor-ipsec drives ikebana on west and east (description).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ovs.sh"
ovs_prepare
topology west-east
_no_sa() { [ "$(sa_count "$1")" = 0 ]; }
_status_has() { lsw_ipsec "$1" status | grep -q "$2"; }
_status_lacks() { ! lsw_ipsec "$1" status | grep -q "$2"; }

# ovs_case PORT TYPE CONN...: a TYPE tunnel with a PSK on both hosts, up and
# carrying the overlay through ESP, with one IKE SA and one Child SA pair
# per conn; then the port removed on west takes its conns and SAs.
ovs_case() {
	_port=$1 _type=$2
	shift 2
	ovs_tunnel west "$_port" "$_type" 192.0.2.1 192.0.2.2 swordfish
	ovs_tunnel east "$_port" "$_type" 192.0.2.2 192.0.2.1 swordfish
	wait_for 60 "the overlay ping west -> east over $_type" \
		ns west ping -n -q -c 1 -W 1 10.10.0.2
	# from here on the underlay carries the overlay only in ESP
	capture_start west:eth0
	expect_esp_grows west ping_ok west 10.10.0.2
	expect_esp_grows east ping_ok east 10.10.0.1
	expect_only_esp west:eth0
	for h in west east; do
		wait_for 30 "every conn active in $h's ipsec status" \
			_status_has "$h" "Total IPsec connections: loaded [0-9]*, active $#"
		ovs_one_sa "$h" "$@"
		show=$(ovs_appctl "$h" tunnels/show) || fail "tunnels/show on $h"
		echo "$show" >"$HOSTS/$h/log/tunnels-show-$_type.txt"
		echo "$show" | grep -A2 'Kernel security associations installed:' |
			grep -q 'sel src' || fail "tunnels/show on $h lists no SA: $show"
		echo "$show" | grep -A2 'IPsec connections that are active:' |
			grep -q "\"$_port-" || fail "tunnels/show on $h lists no active conn: $show"
		log "ok: tunnels/show on $h lists the SAs and the active conns"
	done
	# the port removed on west: its monitor deletes the conns, and the
	# SAs go at both ends (the Delete). ovs-monitor-ipsec 3.1 deletes
	# only conns that ipsec status lists as active, so east's, whose SAs
	# the peer deleted, stay loaded, as they would under libreswan.
	vsctl west del-port br-ipsec "$_port" || fail "del-port on west"
	wait_for 60 "west's conns deleted" _status_lacks west "\"$_port-"
	wait_for 30 "west's SAs gone" _no_sa west
	wait_for 30 "east's SAs gone" _no_sa east
	vsctl east del-port br-ipsec "$_port" || fail "del-port on east"
	log "ok: the $_type port removed took its conns and the SAs of both ends"
}

for h in west east; do
	lsw_ikebana "$h"
done
ovs_start west 10.10.0.1/24
ovs_start east 10.10.0.2/24
ovs_monitor west
ovs_monitor east
# vxlan: NAME-in-N and NAME-out-N on udp/4789, started at both ends at
# once; then, the port gone, gre: one conn, NAME-N, which east tells from
# its lingering vxlan conns by the selectors. (A port added again under
# the same name meets ovs-monitor-ipsec 3.1's own limit: its version
# starts at 1 again, and a lingering conn of the old one that has an SA
# counts as the new one's, so the monitor starts nothing.)
ovs_case tun vxlan tun-in-1 tun-out-1
ovs_case gre0 gre gre0-1
for h in west east; do
	ovs_monitor_quiet "$h"
	ovs_stop "$h"
done
pass
