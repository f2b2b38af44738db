#!/bin/sh
# ikebana (west) and libreswan (east) authenticate each other with
# certificates from the test PKI, in both roles, one conn per address pair
# of west-east-pairs, all in one boot:
#   I  conn       west (ikebana)            east (libreswan)        initiator
#   1  rsa        west-rsa                  east-rsa                west
#   2  ecdsa      west-ecdsa                east-ecdsa              east
#   3  mixed      west-rsa                  east-ecdsa              west
#   4  inter      west-inter (intermediate) east-rsa                east
#   5  dn         west-rsa, DN IDs          east-rsa, DN IDs        east
#   6  fromcert   west-ecdsa, %fromcert     east-ecdsa, %fromcert   west
# and ikebana's refusals, as responder and as initiator:
#   7  revoked    east-revoked (in the root's CRL)                  east
#   8  lookalike  east-lookalike (by a CA with the root's DN)       east
#   9  wrongid    east-wrongid (CN=mallory, @mallory.ikebana.test)  east
#   10 revoked-r  east answers with east-revoked                    west
# 1-6: one SA each way on both ends, pings both ways through that conn's
# SAs, only ESP on the wire; 7-10: ikebana's log names the reason, and no
# SA of those pairs reaches either kernel (checked after the good ones are
# up and the refusals logged, and by the SA counts of every pair).
# Both hosts drop every IP fragment they receive, and ikebana keeps IKE
# datagrams within a 576-octet IP datagram (ike-fragment-size=), as
# libreswan does for IPv4 (RFC 7383's minimum): every IKE_AUTH with a
# certificate crosses as fragments, both ways.
# And conn v6: west-rsa and east-rsa between the hosts' IPv6 addresses,
# west initiating, and conn v6r between a second pair, east initiating,
# through the same small path.
# shellcheck disable=SC2034 # PAIRS is read by the topology
PAIRS=10
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/certs.sh"
CERTS_WEST=ikebana CERTS_EAST=libreswan
topology west-east-pairs
capture_start west:eth0 east:eth0
pki_make "$PKI" || fail "pki_make"
certs_small_path
t0=$(now_cs)
certs_conn 1 rsa west cert=rsa -- cert=rsa
certs_conn 2 ecdsa east cert=ecdsa -- cert=ecdsa
certs_conn 3 mixed west cert=rsa rcert=ecdsa -- cert=ecdsa rcert=rsa
certs_conn 4 inter east cert=inter rcert=rsa -- cert=rsa rcert=inter
certs_conn 5 dn east cert=rsa id=dn -- cert=rsa id=dn
certs_conn 6 fromcert west cert=ecdsa id=fromcert -- cert=ecdsa id=fromcert
certs_conn 7 revoked east cert=rsa -- cert=revoked rcert=rsa
certs_conn 8 lookalike east cert=rsa -- cert=lookalike rcert=rsa
certs_conn 9 wrongid east cert=rsa -- cert=wrongid rcert=rsa
certs_conn 10 revoked-r west cert=rsa -- cert=revoked rcert=rsa
log "all conns loaded and initiated in $(( $(now_cs) - t0 ))0 ms"

certs_v6 libreswan
expect_sa west count=16 timeout=60 mode=transport alg=aes_gcm128
expect_sa east count=16 timeout=60 mode=transport alg=aes_gcm128
log "pairs 1-6 up $(( $(now_cs) - t0 ))0 ms after the first conn"

wlog=$HOSTS/west/log/ikebanad.log
wait_for 30 "ikebana refusing east-revoked" certs_found "$wlog" \
	'conn revoked #[0-9]*: IKE_AUTH: certificate "C=CH, O=ikebana test, OU=revoked, CN=east" issued by "C=CH, O=ikebana test, CN=ikebana test root": it is revoked: a CRL in the NSS database lists it (SEC_ERROR_REVOKED_CERTIFICATE): answering AUTHENTICATION_FAILED'
log "ok: ikebana refused east-revoked as responder, naming the CRL"
wait_for 30 "ikebana refusing east-lookalike" certs_found "$wlog" \
	'conn lookalike #[0-9]*: IKE_AUTH: certificate "C=CH, O=ikebana test, OU=lookalike, CN=east" issued by "C=CH, O=ikebana test, CN=ikebana test root": a CA of that name is in the NSS database but did not sign it: a look-alike CA, same name, other key (SEC_ERROR_[A-Z_]*): answering AUTHENTICATION_FAILED'
log "ok: ikebana refused east-lookalike as a look-alike CA's"
wait_for 30 "ikebana refusing east-wrongid" certs_found "$wlog" \
	'conn wrongid #[0-9]*: IKE_AUTH: no conn accepts peer ID @mallory.ikebana.test: answering AUTHENTICATION_FAILED'
log "ok: ikebana refused @mallory.ikebana.test: no conn accepts it"
wait_for 30 "ikebana refusing east-revoked as initiator" certs_found "$wlog" \
	'conn revoked-r #[0-9]*: .*certificate "C=CH, O=ikebana test, OU=revoked, CN=east".*it is revoked.*SEC_ERROR_REVOKED_CERTIFICATE'
log "ok: ikebana refused the responder's east-revoked and deleted the IKE SA"
certs_expect_sas "1 2 3 4 5 6"
certs_expect_v6
certs_expect_fragments
capture_wait
expect_only_esp west:eth0 east:eth0
pass
