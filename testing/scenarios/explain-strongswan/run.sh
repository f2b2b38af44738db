#!/bin/sh
# ikebana explain (issue 20), ikebana on west against strongSwan on east,
# one conn per address pair of west-east-pairs (I: west 198.51.100.I,
# east 203.0.113.I), each failing as its name says:
#   I  conn     initiator  west (ikebana)              east (strongSwan)
#   1  ike-i    west       ike=aes128-sha2_256-modp2048 aes_gcm256-sha2_384-dh20
#   2  ike-r    east       ike=aes_gcm128-sha2_256-dh19 aes128-sha1-modp2048
#   3  esp-i    west       esp=aes_gcm128               aes256-sha2_256
#   4  esp-r    east       esp=aes_gcm128               aes128-sha1
#   5  pfs-r    east       esp=aes_gcm128-dh20 (PFS)    aes_gcm128-dh19, rekey 8 s
#   6  ts-i     west       10.1.0.0/24 - 10.2.0.0/24    10.9.0.0/24 - 10.1.0.0/24
#   7  ts-r     east       10.4.0.0/24 - 10.8.0.0/24    10.3.0.0/24 - 10.4.0.0/24
#   8  nopsk-i  west       rightid=@nobody, no PSK for it
#   12 id-r     east       rightid= its address         id=@stranger
#   9  psk-i    west       PSK one secret               another
#   10 psk-r    east       PSK one secret               another
#   11 noans    west       rightikeport=4999 (nothing listens there)
# For each, `ikebana explain CONN` on west must name the cause and the fix
# in the words the issue asks for, and status --json must carry the record.
# shellcheck disable=SC2034 # PAIRS is read by the topology
PAIRS=12
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology west-east-pairs
command -v jq >/dev/null || fail "jq is missing (it reads ikebana status --json)"

# conn I NAME WHO [west options] -- [east options]: both ends of pair I;
# WHO (west|east) initiates once both are loaded.
conn() {
	_i=$1 _n=$2 _who=$3
	shift 3
	_p=$(pair_addrs west "$_i")
	_wa=${_p% *} _ea=${_p#* }
	_w='' _e='' _side=w
	for _o; do
		if [ "$_o" = -- ]; then _side=e; continue; fi
		if [ $_side = w ]; then _w="$_w $_o"; else _e="$_e $_o"; fi
	done
	# shellcheck disable=SC2086 # the options are words
	peer strongswan east west add psk name="$_n" local="$_ea" remote="$_wa" $_e
	# shellcheck disable=SC2086
	peer ikebana west east add psk name="$_n" local="$_wa" remote="$_ea" $_w
	eval "who_$_i=$_who name_$_i=$_n"
}

conn 1 ike-i west ike=aes128-sha2_256-modp2048 -- ike=aes_gcm256-sha2_384-dh20
conn 2 ike-r east ike=aes_gcm128-sha2_256-dh19 -- ike=aes128-sha1-modp2048
conn 3 esp-i west esp=aes_gcm128 -- esp=aes256-sha2_256
conn 4 esp-r east esp=aes_gcm128 -- esp=aes128-sha1
conn 5 pfs-r east esp=aes_gcm128-dh20 -- esp=aes_gcm128-dh19
conn 6 ts-i west tunnel lsubnet=10.1.0.0/24 rsubnet=10.2.0.0/24 \
	-- tunnel lsubnet=10.9.0.0/24 rsubnet=10.1.0.0/24
conn 7 ts-r east tunnel lsubnet=10.4.0.0/24 rsubnet=10.8.0.0/24 \
	-- tunnel lsubnet=10.3.0.0/24 rsubnet=10.4.0.0/24
conn 8 nopsk-i west
conn 9 psk-i west secret=one-secret -- secret=another-secret
conn 10 psk-r east secret=one-secret -- secret=another-secret
PEER_CONN_EXTRA='\trightikeport=4999\n\tretransmit-interval=200\n\tretransmit-timeout=3s'
conn 11 noans west
PEER_CONN_EXTRA=
conn 12 id-r east

# nopsk-i: west expects an ID it has no PSK for
sed -i 's/^\trightid=.*/\trightid=@nobody/' "$HOSTS/west/etc/ikebana.d/nopsk-i.conf"
# id-r: strongSwan says it is @stranger (its PSK too), west expects its address
sed -i 's/^\(\s*id\(-1\)\? = \)203\.0\.113\.12$/\1@stranger/' \
	"$HOSTS/east/etc/swanctl/conf.d/id-r.conf"
grep -q '@stranger' "$HOSTS/east/etc/swanctl/conf.d/id-r.conf" ||
	fail "id-r: cannot give strongSwan the ID @stranger"
# pfs-r: strongSwan rekeys the Child SA after 8 s, with its KE (PFS
# with ECP256; west's esp= wants ECP384 for that)
sed -i 's/^\(\s*\)start_action = .*/&\n\1rekey_time = 8s\n\1life_time = 30s/' \
	"$HOSTS/east/etc/swanctl/conf.d/pfs-r.conf"
strongswan_load east || fail "strongswan on east: reload failed"
_ikb west reload || fail "ikebana on west: reload failed"

for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	eval "_who=\$who_$i _n=\$name_$i"
	if [ "$_who" = west ]; then
		_ikb west up --no-wait "$_n" || log "ikebana up --no-wait $_n: an error"
	else
		_ss_swanctl east --initiate --child "$_n" --timeout 1 >/dev/null 2>&1 &
	fi
done

E=203.0.113
expect_explain west ike-i "ike_proposal as initiator in IKE_SA_INIT" \
	"cause: $E.1 answered NO_PROPOSAL_CHOSEN to IKE_SA_INIT: it accepts none of AES_CBC_128" \
	"fix: give ike= here and $E.1's ike proposals one proposal in common"
expect_explain west ike-r "ike_proposal as responder in IKE_SA_INIT" \
	"cause: $E.2 offered only AES_CBC_128-HMAC_SHA1-HMAC_SHA1_96-MODP2048" \
	"closest pair differs in ENCR: peer AES_CBC_128, here AES_GCM_16_128" \
	"fix: add aes128-sha1-modp2048 to ike= here"
expect_explain west esp-i "esp_proposal as initiator in IKE_AUTH" \
	"cause: $E.3 answered NO_PROPOSAL_CHOSEN to IKE_AUTH"
expect_explain west esp-r "esp_proposal as responder in IKE_AUTH" \
	"cause: $E.4 offered only AES_CBC_128-HMAC_SHA1_96" \
	"this conn accepts AES_GCM_16_128" \
	"fix: add aes128-sha1 to esp= here"
expect_explain west ts-i "ts as initiator in IKE_AUTH" \
	"cause: $E.6 answered TS_UNACCEPTABLE" \
	"this conn offered: TSi 10.1.0.0/24 TSr 10.2.0.0/24" \
	"fix: make leftsubnet=/rightsubnet="
expect_explain west ts-r "ts as responder in IKE_AUTH" \
	"$E.7 offered: TSi 10.3.0.0/24 TSr 10.4.0.0/24" \
	"this conn accepts: TSi 10.8.0.0/24 TSr 10.4.0.0/24"
expect_explain west nopsk-i "auth as initiator in IKE_AUTH" \
	"cause: no PSK in the secrets for 198.51.100.8 and @nobody" \
	"fix: add a line for the two IDs to the secrets file"
expect_explain west id-r "id as responder in IKE_AUTH" \
	"cause: $E.12 presented the ID @stranger; this conn expects $E.12" \
	"fix: set rightid=@stranger here (now rightid=$E.12), or leftid=$E.12 on $E.12"
expect_explain west psk-i "peer_auth as initiator in IKE_AUTH" \
	"cause: $E.9 answered AUTHENTICATION_FAILED to IKE_AUTH"
expect_explain west psk-r "auth as responder in IKE_AUTH" \
	"does not verify (wrong PSK?)" \
	"fix: make the PSK for this pair of IDs the same in the secrets file here and on $E.10"
expect_explain west noans "no_answer as initiator in IKE_SA_INIT" \
	"cause: no answer from $E.11:4999 to IKE_SA_INIT after" \
	"fix: check that an IKE daemon runs on $E.11 and listens on UDP 500 and 4500"
# the PFS group: after the first Child SA came up, strongSwan's rekey
expect_sa west count=1 timeout=20 src=198.51.100.5
expect_explain west pfs-r "pfs_group as responder in CREATE_CHILD_SA" \
	"closest pair differs in KE: peer ECP256, here ECP384" \
	"fix: use the same DH group for PFS on both ends"

# status --json carries the records, one conn's newest first
_ikb west status --json || fail "ikebana status --json failed"
kinds=$(t 20 ip netns exec west "$IKB_CLI" --rundir "$HOSTS/west/run" status --json |
	jq -r '.conns[] | select(.failures | length > 0) | "\(.name)=\(.failures[0].kind)"' |
	sort | tr '\n' ' ')
want='esp-i=esp_proposal esp-r=esp_proposal id-r=id ike-i=ike_proposal ike-r=ike_proposal noans=no_answer nopsk-i=auth pfs-r=pfs_group psk-i=peer_auth psk-r=auth ts-i=ts ts-r=ts '
[ "$kinds" = "$want" ] || fail "status --json failures: $kinds, expected $want"
log "ok: status --json: $kinds"

# The metrics of the same daemon (issue 20 item 3): promtool takes them,
# the failures count by reason, and the series move as pfs-r's tunnel
# carries traffic and goes down.
PROMTOOL=${IKB_PROMTOOL:-/var/cache/ikebana-testing/promtool/usr/bin/promtool}
[ -x "$PROMTOOL" ] || PROMTOOL=$(command -v promtool) ||
	fail "promtool is missing: run testing/lib/fetch-promtool"
M=$HOSTS/west/log
metrics() { t 20 ip netns exec west "$IKB_CLI" --rundir "$HOSTS/west/run" metrics >"$M/metrics.$1"; }
mval() { awk -v k="$2" '$1 == k { print $2 }' "$M/metrics.$1"; }
metrics 0 || fail "ikebana metrics failed"
"$PROMTOOL" check metrics <"$M/metrics.0" >"$M/promtool.out" 2>&1 ||
	fail "promtool check metrics: $(cat "$M/promtool.out")"
for r in ike_proposal:2 esp_proposal:2 ts:2 id:1 auth:2 peer_auth:1 no_answer:1 pfs_group:1; do
	got=$(mval 0 "ikebana_ike_negotiations_failed_total{reason=\"${r%:*}\"}")
	[ "${got:-0}" -ge "${r#*:}" ] ||
		fail "metrics: failed_total{reason=\"${r%:*}\"} is ${got:-none}, expected >= ${r#*:}"
done
est0=$(mval 0 'ikebana_ike_sas{state="established"}')
child0=$(mval 0 ikebana_child_sas)
out0=$(mval 0 'ikebana_child_sa_packets_total{conn="pfs-r",direction="out"}')
[ "${child0:-0}" -ge 1 ] || fail "metrics: ikebana_child_sas is ${child0:-none} with pfs-r up"
ip netns exec west ping -n -q -c 3 -i 0.2 -W 2 -I 198.51.100.5 203.0.113.5 >/dev/null ||
	fail "ping through pfs-r failed"
metrics 1
out1=$(mval 1 'ikebana_child_sa_packets_total{conn="pfs-r",direction="out"}')
[ "${out1:-0}" -ge $((${out0:-0} + 3)) ] ||
	fail "metrics: pfs-r's outbound packets went from ${out0:-none} to ${out1:-none} over 3 pings"
_ikb west down pfs-r || fail "ikebana down pfs-r failed"
_moved() { metrics 2 && [ "$(mval 2 'ikebana_ike_sas{state="established"}')" = $((est0 - 1)) ] &&
	[ "$(mval 2 ikebana_child_sas)" = $((child0 - 1)) ]; }
poll_for 20 _moved || fail "metrics after down pfs-r: $(grep -E '^ikebana_(ike_sas|child_sas)' "$M/metrics.2" | tr '\n' ' ') (before: $est0 established, $child0 Child SAs)"
log "ok: metrics: promtool accepts them; failures by reason; pfs-r's packets $out0 -> $out1; established IKE SAs $est0 -> $((est0 - 1)) and Child SAs $child0 -> $((child0 - 1)) after its down"
pass
