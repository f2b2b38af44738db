#!/bin/sh
# Malformed and excessive IKE fragment sets (RFC 7383) at an established
# IKE SA: ikebana on west initiates to ikebana on east, then west's address
# sends east 40,000 forged SKF payloads of that IKE SA (testing/tools/
# skfflood): fragments whose integrity fails, Fragment Number 0, Total
# Fragments 0, a number above the total, a total above 64, a Next Payload
# in a later fragment, and payloads too short for their header. east logs
# each kind naming the field, keeps none of them (its RSS grows by less
# than 2 MiB), answers `ikebana status` within 5 s while the flood runs,
# and its IKE SA and Child SA carry traffic afterwards as before.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
topology west-east
SKFFLOOD=$IKB_BUILD/testing/tools/skfflood

_rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$(cat "$HOSTS/east/ikebanad.pid")/status"; }
_st() { t 20 ip netns exec east "$IKB_CLI" --rundir "$HOSTS/east/run" status --json; }
_east() { _st | jq -r ".ike_sas[0].$1"; }

peer ikebana east west responder psk
peer ikebana west east initiator psk
expect_sa west
expect_sa east
expect_esp_grows west ping_ok west east
capture_start west:eth0
_spi_i=$(_east spi_i) _spi_r=$(_east spi_r) _serial=$(_east serial)
_child=$(_east 'child_sas[0].spi_in')
# the next request east expects from west: IKE_AUTH was 1
_rss0=$(_rss)
log "east: IKE SA #$_serial $_spi_i/$_spi_r, ikebanad RSS $_rss0 kB"

timeout -k 2 120 ip netns exec west "$SKFFLOOD" 192.0.2.2 500 "$_spi_i" "$_spi_r" 2 40000 \
	>"$HOSTS/west/log/skfflood.log" 2>&1 &
_fp=$!
# status answers while the flood runs
_t0=$(now_cs)
_st >/dev/null || fail "ikebana status on east failed during the flood"
_dt=$(($(now_cs) - _t0))
[ "$_dt" -le 500 ] || fail "ikebana status on east took $((_dt / 100)) s during the flood"
log "ok: status answered in ${_dt}0 ms during the flood"
wait "$_fp" || fail "skfflood failed: $(cat "$HOSTS/west/log/skfflood.log")"
log "west: $(cat "$HOSTS/west/log/skfflood.log")"
capture_stop
_clear=$(t 30 tcpdump -n -c 1000 -r "$HOSTS/west/log/eth0.pcap" 'udp dst port 500' 2>/dev/null | wc -l)
[ "$_clear" -ge 1000 ] || fail "the forged fragments did not cross in clear ($_clear seen)"

_log=$HOSTS/east/log/ikebanad.log
_seen() { grep -qF "$1" "$_log"; }
for _why in 'Fragment Number 0' 'Total Fragments 0' 'Fragment Number 9 exceeds Total Fragments 3' \
	'Total Fragments exceeds the 64 ikebana reassembles' 'must be 0 after the first' \
	'need 4 for Fragment Number and Total Fragments'; do
	wait_for 10 "east logging '$_why'" _seen "$_why"
done
grep -q 'SKF payload (fragment [0-9]* of 64): .*\(integrity\|ICV\|authentic\|decrypt\)' "$_log" ||
	fail "east logged no forged fragment that failed its integrity check: $(grep -m3 'SKF payload' "$_log")"
log "ok: east named the field of each kind of bad fragment"
_dropped=$(_east fragmentation.fragments_dropped)
[ "$_dropped" -ge 1000 ] || fail "east's status counts $_dropped fragments dropped"
[ "$(_east fragmentation.fragments_received)" = 0 ] ||
	fail "east kept forged fragments: $(_east fragmentation.fragments_received) received"
_rss1=$(_rss)
[ $((_rss1 - _rss0)) -lt 2048 ] || fail "east's RSS grew from $_rss0 to $_rss1 kB under the flood"
log "ok: east dropped $_dropped forged fragments, kept none, RSS $_rss0 -> $_rss1 kB"

# the same IKE SA and Child SA carry traffic and answer a liveness check
[ "$(_east serial)" = "$_serial" ] && [ "$(_east 'child_sas[0].spi_in')" = "$_child" ] ||
	fail "east's IKE SA or Child SA changed under the flood"
expect_esp_grows west ping_ok west east
_ikb west down east-west >/dev/null 2>&1 || true
expect_no_sa_soon() { [ "$(sa_count east)" = 0 ]; }
wait_for 20 "east removing its SAs on west's Delete (the IKE SA still answers)" expect_no_sa_soon
log "ok: after the flood east's IKE SA answered west's Delete"
pass
