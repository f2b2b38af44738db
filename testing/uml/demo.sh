#!/bin/sh
# The demo, inside UML (started by testing/demo): west and east on one link,
# ikebanad on each with conf.d/examples/host-to-host.conf, and what
# `ikebana status` says on each. If the daemons negotiate an SA, traffic is
# sent through it and the wire is checked.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology west-east
ex=$IKB_REPO/conf.d/examples
if grep -q 'left=192.0.2.1' "$ex/host-to-host.conf" 2>/dev/null; then
	log "conns: $ex/host-to-host.conf on both hosts"
	printf 'config setup\n\ninclude %s\n' "$ex/host-to-host.conf" >/tmp/demo.conf
	for h in east west; do
		ikebana_use_confs "$h" /tmp/demo.conf "$ex/ikebana.secrets"
	done
else
	log "conns: generated (no conf.d/examples/host-to-host.conf for 192.0.2.1-192.0.2.2)"
	peer ikebana east west responder psk esp=aes_gcm128
	peer ikebana west east initiator psk esp=aes_gcm128
fi
sas=no
poll_for 15 _has_sas west 2 && poll_for 5 _has_sas east 2 && sas=yes
for h in west east; do
	echo
	echo "=== $h: ikebana --rundir $HOSTS/$h/run status"
	ikebana_status "$h" || fail "ikebana status on $h failed"
done
echo
if [ "$sas" = yes ]; then
	log "ikebana negotiated ESP SAs:"
	sa_list west
	# Only now: while the daemons start, one may get ICMP port unreachable
	# from the other, which is not ESP.
	capture_start west:eth0 east:eth0
	expect_esp_grows west ping_ok west east
	expect_only_esp west:eth0 east:eth0
else
	log "no ESP SA after 15 s: the daemons run, but have not negotiated one"
fi
for h in west east; do
	echo "=== $h: ip xfrm state / policy"
	ip -n "$h" xfrm state | grep -v '^	 [0-9a-f]\{8\} '
	ip -n "$h" xfrm policy
done
echo "=== logs: hosts/*/log/ikebanad.log in the results directory"
pass
