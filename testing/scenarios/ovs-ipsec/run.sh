#!/bin/sh
# ovs-monitor-ipsec drives ikebana on west and east (description).
# shellcheck source=/dev/null # the helpers are checked on their own
# shellcheck disable=SC2034 # OVS_AF is read by ovs_case (ovs.sh)
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ovs.sh"
ovs_prepare
topology west-east
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
