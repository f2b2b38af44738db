#!/bin/sh
# The demo, inside UML (started by testing/demo): west and east on one link,
# ikebanad on each with the default plugins (kernel-xfrm), west initiates,
# the same SPIs and keys must be in both kernels, ping and iperf3 must go
# through ESP (the SA counters grow) with nothing but ESP on the wire, and
# then what `ikebana status` and `ikebana trafficstatus` say on both: the
# IKE SA and the Child SA with mirrored SPIs, and the traffic each carried.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
topology west-east
ikb_case ikebana initiator kernel-xfrm
# Only now: while the daemons start, one may get ICMP port unreachable from
# the other, which is not ESP.
# Ping both ways: in UML an egress capture misses ESP replies that the
# kernel sends from its receive path, so each side's own pings prove it.
capture_start west:eth0 east:eth0
expect_esp_grows west ping_ok west east
expect_esp_grows east ping_ok east west
# iperf3 through the tunnel, both ways (a byte count: see iperf_ok).
expect_esp_grows west iperf_ok west east 8M
expect_esp_grows east iperf_ok east west 8M
expect_only_esp west:eth0 east:eth0
for h in west east; do
	echo
	echo "=== $h: ikebana --rundir $HOSTS/$h/run status"
	ikebana_status "$h" || fail "ikebana status on $h failed"
	echo "=== $h: ikebana --rundir $HOSTS/$h/run trafficstatus"
	t 20 "$IKB_CLI" --rundir "$HOSTS/$h/run" trafficstatus ||
		fail "ikebana trafficstatus on $h failed"
done
for h in west east; do
	echo "=== $h: ip xfrm state / policy"
	ip -n "$h" xfrm state | grep -v '^	 [0-9a-f]\{8\} '
	ip -n "$h" xfrm policy
done
echo "=== logs: hosts/*/log/ikebanad.log in the results directory"
pass
