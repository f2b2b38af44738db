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

# _ovs_up PORT TYPE CONN...: the tunnel PORT (TYPE) carries the overlay
# through ESP both ways, with one IKE SA and one Child SA pair per conn in
# ipsec status on both hosts, which tunnels/show lists.
_ovs_up() {
	_port=$1 _type=$2
	shift 2
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
		echo "$show" >"$HOSTS/$h/log/tunnels-show-$_port.txt"
		echo "$show" | grep -A2 'Kernel security associations installed:' |
			grep -q 'sel src' || fail "tunnels/show on $h lists no SA: $show"
		echo "$show" | grep -A2 'IPsec connections that are active:' |
			grep -q "\"$_port-" || fail "tunnels/show on $h lists no active conn: $show"
		log "ok: tunnels/show on $h lists the SAs and the active conns"
	done
}

# _ovs_gone PORT TYPE: the port removed on west: its monitor deletes the
# conns, and the SAs go at both ends (the Delete). ovs-monitor-ipsec 3.1
# deletes only conns that ipsec status lists as active, so east's, whose
# SAs the peer deleted, stay loaded, as they would under libreswan. The
# conn lines count: an SA the deleted conn refused (the peer's trap
# initiated as the secrets went) lingers in the SA lines, to answer the
# peer's retransmits.
_ovs_gone() {
	vsctl west del-port br-ipsec "$1" || fail "del-port on west"
	wait_for 60 "west's conns deleted" _status_lacks west "^000 \"$1-"
	wait_for 60 "west's SAs gone" _no_sa west
	wait_for 60 "east's SAs gone" _no_sa east
	vsctl east del-port br-ipsec "$1" || fail "del-port on east"
	log "ok: the $2 port removed took its conns and the SAs of both ends"
}

# ovs_case PORT TYPE CONN...: a TYPE tunnel with a PSK on both hosts,
# over the underlay of family OVS_AF (4 or 6).
OVS_AF=4
ovs_case() {
	log "=== case: $2 with a PSK, IPv$OVS_AF underlay"
	_w=$(addr_of west "$OVS_AF") _e=$(addr_of east "$OVS_AF")
	ovs_tunnel west "$1" "$2" "$_w" "$_e" psk=swordfish
	ovs_tunnel east "$1" "$2" "$_e" "$_w" psk=swordfish
	_ovs_up "$@"
	_ovs_gone "$1" "$2"
}

# ovs_cert_case PORT self|ca: a gre tunnel authenticated by certificates
# as OVS's tutorial sets them up (ovs-pki): self-signed, each host with
# the peer's certificate (options:remote_cert), or signed by one CA
# (other_config:ca_cert, options:remote_name). The monitor imports them
# into the NSS database that ikebanad has open, after it started.
ovs_cert_case() {
	log "=== case: gre with $2 certificates"
	for h in west east; do
		ovs_pki_use "$h" "$2"
	done
	if [ "$2" = self ]; then
		_wa=remote_cert=$(ovs_pki_cert east self) _ea=remote_cert=$(ovs_pki_cert west self)
	else
		_wa=remote_name=east _ea=remote_name=west
	fi
	ovs_tunnel west "$1" gre 192.0.2.1 192.0.2.2 "$_wa"
	ovs_tunnel east "$1" gre 192.0.2.2 192.0.2.1 "$_ea"
	_ovs_up "$1" gre "$1-1"
	_ovs_gone "$1" gre
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
# vxlan over IPv6 (the monitor writes hostaddrfamily=ipv6); before the
# certificates, with which the monitor refuses a PSK tunnel
OVS_AF=6
ovs_case tun6 vxlan tun6-in-1 tun6-out-1
OVS_AF=4
ovs_pki_make
ovs_cert_case gres self
ovs_cert_case grec ca
for h in west east; do
	ovs_monitor_quiet "$h"
	ovs_stop "$h"
done
pass
