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
. "$IKB_UML/lib/scenario/certs.sh"
CERTS_WEST=strongswan CERTS_EAST=libreswan
topology west-east-pairs
capture_start west:eth0 east:eth0

pki_make "$PKI" || fail "pki_make"
t0=$(now_cs)
certs_conn 1 rsa west cert=rsa -- cert=rsa
certs_conn 2 ecdsa east cert=ecdsa -- cert=ecdsa
certs_conn 3 mixed west cert=rsa rcert=ecdsa -- cert=ecdsa rcert=rsa
certs_conn 4 inter east cert=inter rcert=rsa -- cert=rsa rcert=inter
certs_conn 5 dn east cert=rsa id=dn -- cert=rsa id=dn
certs_conn 6 fromcert west cert=ecdsa id=fromcert -- cert=ecdsa id=fromcert
certs_conn 7 revoked east cert=rsa -- cert=revoked rcert=rsa
certs_conn 8 lookalike east cert=rsa -- cert=lookalike rcert=rsa
certs_conn 9 expired east cert=rsa -- cert=expired rcert=rsa
certs_conn 10 wrongid east cert=rsa -- cert=wrongid rcert=rsa
log "stores filled, daemons started, all conns loaded and initiated in $(( $(now_cs) - t0 ))0 ms"

# The good cases' SAs, one each way per conn: 12 on each host.
expect_sa west count=12 timeout=40 mode=transport alg=aes_gcm128
expect_sa east count=12 timeout=40 mode=transport alg=aes_gcm128
log "cases 1-6 up $(( $(now_cs) - t0 ))0 ms after the first conn"

# The refusals. strongSwan, the responder, says why and answers
# AUTH_FAILED; its log names the IKE SA by its conn (ike_name), but not
# before a conn matched, as for the wrong ID. libreswan refuses to load a
# conn whose own cert has expired, so east-expired never goes out.
wlog=$HOSTS/west/log/charon.log
authfailed() { echo "<$1|[0-9]*> generating IKE_AUTH response .*N(AUTH_FAILED)"; }
wait_for 30 "strongSwan on west refusing east-revoked" \
	certs_found "$wlog" '<revoked|[0-9]*> certificate was revoked' "$(authfailed revoked)"
log "ok: west refused east-revoked: certificate was revoked, AUTH_FAILED"
wait_for 30 "strongSwan on west refusing east-lookalike" \
	certs_found "$wlog" '<lookalike|[0-9]*> no issuer certificate found for "C=CH, O=ikebana test, OU=lookalike' \
	'<lookalike|[0-9]*> signature validation failed' "$(authfailed lookalike)"
log "ok: west refused east-lookalike: no issuer, signature validation failed, AUTH_FAILED"
wait_for 30 "strongSwan on west refusing east-wrongid" \
	certs_found "$wlog" 'looking for peer configs matching .*\[mallory.ikebana.test\]' 'no matching peer config found'
log "ok: west refused east-wrongid: no matching peer config for mallory.ikebana.test"
certs_found "$HOSTS/east/log/pluto.log" "left certificate 'east-expired' is expired or not yet valid" ||
	fail "libreswan on east loaded a conn with the expired east-expired"
log "ok: east refused to load east-expired: expired"
certs_expect_sas "1 2 3 4 5 6"
capture_wait
expect_only_esp west:eth0 east:eth0
pass
