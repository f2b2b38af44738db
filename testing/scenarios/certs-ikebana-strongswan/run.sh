#!/bin/sh
# ikebana (west) and strongSwan (east) authenticate each other with
# certificates from the test PKI, in both roles, one conn per address pair
# of west-east-pairs, all in one boot:
#   I  conn       west (ikebana)            east (strongSwan)       initiator
#   1  rsa        west-rsa                  east-rsa                west
#   2  ecdsa      west-ecdsa                east-ecdsa              east
#   3  mixed      west-rsa                  east-ecdsa              east
#   4  inter      west-inter (intermediate) east-rsa                west
#   5  dn         west-rsa, DN IDs          east-rsa, DN IDs        west
#   6  fromcert   west-ecdsa, %fromcert     east-ecdsa, no local id east
# and ikebana's refusals, as responder and as initiator:
#   7  revoked    east-revoked (in the root's CRL)                  east
#   8  lookalike  east-lookalike (by a CA with the root's DN)       east
#   9  expired    east-expired (2020-2021)                          east
#   10 wrongid    east-wrongid (CN=mallory, @mallory.ikebana.test)  east
#   11 expired-r  east answers with east-expired                    west
#   12 unknown    east-unknown (by a CA no store of west's has)     east
# 1-6: one SA each way on both ends, pings both ways through that conn's
# SAs, only ESP on the wire; 7-12: ikebana's log names the reason, and no
# SA of those pairs is in either kernel.
# Both hosts drop every IP fragment they receive, and both daemons keep
# IKE datagrams within a 576-octet IP datagram (ikebana's
# ike-fragment-size=, strongSwan's charon.fragment_size): every IKE_AUTH
# with a certificate crosses as RFC 7383 fragments, both ways.
# And conn v6: west-rsa and east-rsa between the hosts' IPv6 addresses,
# west initiating, and conn v6r between a second pair, east initiating,
# through the same small path.
# shellcheck disable=SC2034 # PAIRS is read by the topology
PAIRS=12
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/certs.sh"
CERTS_WEST=ikebana CERTS_EAST=strongswan
topology west-east-pairs
capture_start west:eth0 east:eth0
pki_make "$PKI" || fail "pki_make"
certs_small_path
STRONGSWAN_CHARON='fragment_size = 576'
export STRONGSWAN_CHARON
t0=$(now_cs)
certs_conn 1 rsa west cert=rsa -- cert=rsa
certs_conn 2 ecdsa east cert=ecdsa -- cert=ecdsa
certs_conn 3 mixed east cert=rsa rcert=ecdsa -- cert=ecdsa rcert=rsa
certs_conn 4 inter west cert=inter rcert=rsa -- cert=rsa rcert=inter
certs_conn 5 dn west cert=rsa id=dn -- cert=rsa id=dn
certs_conn 6 fromcert east cert=ecdsa id=fromcert -- cert=ecdsa id=fromcert
certs_conn 7 revoked east cert=rsa -- cert=revoked rcert=rsa
certs_conn 8 lookalike east cert=rsa -- cert=lookalike rcert=rsa
certs_conn 9 expired east cert=rsa -- cert=expired rcert=rsa
certs_conn 10 wrongid east cert=rsa -- cert=wrongid rcert=rsa
certs_conn 11 expired-r west cert=rsa -- cert=expired rcert=rsa
certs_conn 12 unknown east cert=rsa -- cert=unknown rcert=rsa
log "all conns loaded and initiated in $(( $(now_cs) - t0 ))0 ms"

certs_v6 strongswan
expect_sa west count=16 timeout=60 mode=transport alg=aes_gcm128
expect_sa east count=16 timeout=60 mode=transport alg=aes_gcm128
log "pairs 1-6 up $(( $(now_cs) - t0 ))0 ms after the first conn"

wlog=$HOSTS/west/log/ikebanad.log
root='issued by "C=CH, O=ikebana test, CN=ikebana test root"'
wait_for 30 "ikebana refusing east-revoked" certs_found "$wlog" \
	"conn revoked #[0-9]*: IKE_AUTH: certificate \"C=CH, O=ikebana test, OU=revoked, CN=east\" $root: it is revoked: a CRL in the NSS database lists it (SEC_ERROR_REVOKED_CERTIFICATE): answering AUTHENTICATION_FAILED"
log "ok: ikebana refused east-revoked, naming the CRL"
wait_for 30 "ikebana refusing east-lookalike" certs_found "$wlog" \
	"conn lookalike #[0-9]*: IKE_AUTH: certificate \"C=CH, O=ikebana test, OU=lookalike, CN=east\" $root: a CA of that name is in the NSS database but did not sign it: a look-alike CA, same name, other key (SEC_ERROR_[A-Z_]*): answering AUTHENTICATION_FAILED"
log "ok: ikebana refused east-lookalike as a look-alike CA's"
wait_for 30 "ikebana refusing east-expired" certs_found "$wlog" \
	"conn expired #[0-9]*: IKE_AUTH: certificate \"C=CH, O=ikebana test, OU=expired, CN=east\" $root: it expired on 2021-01-01 00:00:00 UTC (SEC_ERROR_EXPIRED_CERTIFICATE): answering AUTHENTICATION_FAILED"
log "ok: ikebana refused east-expired, naming the date"
wait_for 30 "ikebana refusing east-wrongid" certs_found "$wlog" \
	'conn wrongid #[0-9]*: IKE_AUTH: no conn accepts peer ID @mallory.ikebana.test: answering AUTHENTICATION_FAILED'
log "ok: ikebana refused @mallory.ikebana.test: no conn accepts it"
wait_for 30 "ikebana refusing east-expired as initiator" certs_found "$wlog" \
	"conn expired-r #[0-9]*: .*certificate \"C=CH, O=ikebana test, OU=expired, CN=east\" $root: it expired on 2021-01-01"
log "ok: ikebana refused the responder's east-expired and told it"
wait_for 30 "ikebana refusing east-unknown" certs_found "$wlog" \
	'conn unknown #[0-9]*: IKE_AUTH: certificate "C=CH, O=ikebana test, OU=unknown, CN=east" issued by "C=CH, O=ikebana test, CN=ikebana test stranger": its issuer "C=CH, O=ikebana test, CN=ikebana test stranger" is not a CA in the NSS database, and no CERT payload carried a chain to one (SEC_ERROR_UNKNOWN_ISSUER): answering AUTHENTICATION_FAILED'
log "ok: ikebana refused east-unknown: its CA is not in the database"
# issue 20: explain names each refusal and the fix
expect_explain west revoked "cert as responder in IKE_AUTH" \
	"cause: the certificate of" "it is revoked" "fix: the CA revoked it"
expect_explain west lookalike "a look-alike CA" \
	"fix: a CA with the name of one this host trusts signed it"
expect_explain west expired "it expired on 2021-01-01" \
	"fix: renew the certificate"
expect_explain west unknown "is not a CA in the NSS database" \
	"fix: import the CA that issued it: ikebana import --ca"
expect_explain west wrongid "presented the ID @mallory.ikebana.test" \
	"fix: set rightid=@mallory.ikebana.test here"
expect_explain west expired-r "cert as initiator in IKE_AUTH" \
	"fix: renew the certificate"
certs_expect_sas "1 2 3 4 5 6"
certs_expect_v6
certs_expect_fragments
capture_wait
expect_only_esp west:eth0 east:eth0
pass
