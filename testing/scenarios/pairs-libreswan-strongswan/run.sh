#!/bin/sh
# The many-tunnel topology: one conn per address pair, all initiated by west.
PAIRS=${PAIRS:-4}
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology west-east-pairs
capture_start west:eth0
i=1
while [ "$i" -le "$PAIRS" ]; do
	p=$(pair_addrs east "$i")
	peer libreswan east west responder psk name="pair$i" local="${p% *}" remote="${p#* }"
	i=$((i + 1))
done
i=1
while [ "$i" -le "$PAIRS" ]; do
	p=$(pair_addrs west "$i")
	peer strongswan west east initiator psk name="pair$i" local="${p% *}" remote="${p#* }"
	i=$((i + 1))
done
expect_sa west count=$((2 * PAIRS)) alg=aes_gcm128
expect_sa east count=$((2 * PAIRS)) alg=aes_gcm128
i=1
while [ "$i" -le "$PAIRS" ]; do
	p=$(pair_addrs west "$i")
	ns west ping -n -q -c 1 -W 2 -I "${p% *}" "${p#* }" >/dev/null || fail "ping pair $i: $p"
	i=$((i + 1))
done
log "ok: ping through each of the $PAIRS pairs"
[ "$(esp_packets west dir=out)" -ge "$PAIRS" ] || fail "ESP counters on west did not grow"
expect_only_esp west:eth0
pass
