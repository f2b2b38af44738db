#!/bin/sh
# Certificate authentication between the two reference peers, no ikebana:
# the harness's own check of the test PKI (lib/pki.sh) and of peer()'s
# cert=, rcert= and id= words. Topology west-east-pairs, strongSwan on west,
# libreswan on east, one conn per address pair (west 198.51.100.I, east
# 203.0.113.I), all in one boot:
#   I  case       west (strongSwan)         east (libreswan)        initiator
#   1  rsa        west-rsa                  east-rsa                west
#   2  ecdsa      west-ecdsa                east-ecdsa              east
#   3  mixed      west-rsa                  east-ecdsa              west
#   4  inter      west-inter (intermediate) east-rsa                east
#   5  dn         west-rsa, DN IDs          east-rsa, DN IDs        east
#   6  fromcert   west-ecdsa, no local id   east-ecdsa, %fromcert   west
# and four refusals, east initiating with a bad cert and strongSwan, the
# responder, refusing it in IKE_AUTH (so no Child SA can exist anywhere):
#   7  revoked    east-revoked (in the root's CRL)
#   8  lookalike  east-lookalike (by a CA with the root's DN, other key)
#   9  expired    east-expired (2020-2021): libreswan already refuses to load
#                 the conn, so it never reaches strongSwan
#   10 wrongid    east-wrongid (CN=mallory, @mallory.ikebana.test)
# Cases 1-6: one SA each way on both ends, pings both ways through that
# conn's SAs; only ESP on the wire. Cases 7-10: the refusing side logs why,
# and neither host has an SA for the pair.
# shellcheck disable=SC2034 # PAIRS is read by the topology
PAIRS=10
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology west-east-pairs
capture_start west:eth0 east:eth0

# pair I: sets l and r, west's and east's address of pair I.
pair() { p=$(pair_addrs west "$1"); l=${p% *} r=${p#* }; }

# conn I NAME INITIATOR WEST-WORDS -- EAST-WORDS: the responder first.
conn() {
	pair "$1"
	_n=$2 _init=$3
	shift 3
	_w='' _e=''
	while [ $# -gt 0 ] && [ "$1" != -- ]; do _w="$_w $1"; shift; done
	shift
	_e=$*
	_wr=responder _er=initiator
	[ "$_init" = west ] && _wr=initiator _er=responder
	# shellcheck disable=SC2086 # _w and _e are lists of words
	if [ "$_init" = west ]; then
		peer libreswan east west $_er name="$_n" local="$r" remote="$l" $_e
		peer strongswan west east $_wr name="$_n" local="$l" remote="$r" $_w
	else
		peer strongswan west east $_wr name="$_n" local="$l" remote="$r" $_w
		peer libreswan east west $_er name="$_n" local="$r" remote="$l" $_e
	fi
}

pki_make "$PKI" || fail "pki_make"
t0=$(now_cs)
conn 1 rsa west cert=rsa -- cert=rsa
conn 2 ecdsa east cert=ecdsa -- cert=ecdsa
conn 3 mixed west cert=rsa rcert=ecdsa -- cert=ecdsa rcert=rsa
conn 4 inter east cert=inter rcert=rsa -- cert=rsa rcert=inter
conn 5 dn east cert=rsa id=dn -- cert=rsa id=dn
conn 6 fromcert west cert=ecdsa id=fromcert -- cert=ecdsa id=fromcert
conn 7 revoked east cert=rsa -- cert=revoked rcert=rsa
conn 8 lookalike east cert=rsa -- cert=lookalike rcert=rsa
conn 9 expired east cert=rsa -- cert=expired rcert=rsa
conn 10 wrongid east cert=rsa -- cert=wrongid rcert=rsa
log "stores filled, daemons started, all conns loaded and initiated in $(( $(now_cs) - t0 ))0 ms"

# The good cases' SAs, one each way per conn: 12 on each host.
expect_sa west count=12 timeout=40 mode=transport alg=aes_gcm128
expect_sa east count=12 timeout=40 mode=transport alg=aes_gcm128
log "cases 1-6 up $(( $(now_cs) - t0 ))0 ms after the first conn"

# The refusals. strongSwan, the responder, says why and answers
# AUTH_FAILED; its log names the IKE SA by its conn (ike_name), but not
# before a conn matched, as for the wrong ID. libreswan refuses to load a
# conn whose own cert has expired, so east-expired never goes out.
# found LOG PATTERN...: every PATTERN is in HOST's LOG.
found() {
	_fl=$1
	shift
	for _fp; do grep -q -- "$_fp" "$_fl" || return; done
}
wlog=$HOSTS/west/log/charon.log
authfailed() { echo "<$1|[0-9]*> generating IKE_AUTH response .*N(AUTH_FAILED)"; }
wait_for 30 "strongSwan on west refusing east-revoked" \
	found "$wlog" '<revoked|[0-9]*> certificate was revoked' "$(authfailed revoked)"
log "ok: west refused east-revoked: certificate was revoked, AUTH_FAILED"
wait_for 30 "strongSwan on west refusing east-lookalike" \
	found "$wlog" '<lookalike|[0-9]*> no issuer certificate found for "C=CH, O=ikebana test, OU=lookalike' \
	'<lookalike|[0-9]*> signature validation failed' "$(authfailed lookalike)"
log "ok: west refused east-lookalike: no issuer, signature validation failed, AUTH_FAILED"
wait_for 30 "strongSwan on west refusing east-wrongid" \
	found "$wlog" 'looking for peer configs matching .*\[mallory.ikebana.test\]' 'no matching peer config found'
log "ok: west refused east-wrongid: no matching peer config for mallory.ikebana.test"
found "$HOSTS/east/log/pluto.log" "left certificate 'east-expired' is expired or not yet valid" ||
	fail "libreswan on east loaded a conn with the expired east-expired"
log "ok: east refused to load east-expired: expired"
# One SAD snapshot per host before and after the pings (each process costs
# ~0.1 s in UML). Per pair and host: exactly one SA each way for 1-6, none
# for 7-10; after the pings, each SA of 1-6 carried both pings and both
# replies of its direction (4 packets), on the sender and on the receiver.
snap() { for _h in west east; do sa_list "$_h" >"/tmp/sad.$_h.$1"; done; }
pairs=$(i=1; while [ "$i" -le 10 ]; do pair "$i"; echo "$i $l $r"; i=$((i + 1)); done)
check() {
	echo "$pairs" | awk -v d=/tmp/sad -v traffic="$1" '
	function load(h, t,   f, l, k, n, a, i, p) {
		f = d "." h "." t
		while ((getline l < f) > 0) {
			n = split(l, a, " "); k = ""
			for (i = 1; i <= n; i++) {
				if (a[i] ~ /^src=/) k = substr(a[i], 5) k
				if (a[i] ~ /^dst=/) k = k ">" substr(a[i], 5)
				if (a[i] ~ /^packets=/) p = substr(a[i], 9)
			}
			cnt[h, t, k]++; pk[h, t, k] = p
		}
		close(f)
	}
	function sa(i, h, k,   want) {
		want = i <= 6
		if (cnt[h, "after", k] + 0 != want)
			print "case " i ": " h " has " cnt[h, "after", k] + 0 " SAs " k ", not " want
		else if (want && traffic && pk[h, "after", k] - pk[h, "before", k] < 4)
			print "case " i ": " h ": SA " k " carried " pk[h, "after", k] - pk[h, "before", k] " packets"
	}
	BEGIN { for (j = 0; j < 2; j++) { h = j ? "east" : "west"
		load(h, "before"); load(h, "after") } }
	{ sa($1, "west", $2 ">" $3); sa($1, "west", $3 ">" $2)
	  sa($1, "east", $2 ">" $3); sa($1, "east", $3 ">" $2) }'
}
snap before
cp /tmp/sad.west.before /tmp/sad.west.after
cp /tmp/sad.east.before /tmp/sad.east.after
bad=$(check '')
[ -z "$bad" ] || fail "SAs not as expected:
$bad"
log "ok: one SA each way for each of cases 1-6 on both hosts, none for the refused 7-10"

# Traffic through each good conn: its own SAs' counters must move.
capture_wait
echo "$pairs" | while read -r i l r; do
	[ "$i" -le 6 ] || break
	ns west ping -n -q -c 2 -i 0.2 -W 2 -I "$l" "$r" >/dev/null || fail "ping west $l -> east $r (case $i)"
	ns east ping -n -q -c 2 -i 0.2 -W 2 -I "$r" "$l" >/dev/null || fail "ping east $r -> west $l (case $i)"
done || exit 1
snap after
bad=$(check traffic)
[ -z "$bad" ] || fail "traffic not through the cert conns' SAs:
$bad"
log "ok: pings both ways moved each good conn's SA counters on both hosts"
expect_only_esp west:eth0 east:eth0
pass
