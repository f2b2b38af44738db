#!/bin/sh
# Revocation by OCSP (and crl-strict=yes), ikebana (west) verifying
# libreswan's (east) certificates; east initiates each conn, one per
# address pair of west-east-pairs. openssl's OCSP responder for the test
# root runs on west's loopback (the certificates name it), so its traffic
# never crosses the link that must carry ESP only.
# Phase 1, ocsp-enable=yes:
#   1  good         east-ocsp: the responder says good; up
#   2  ocsprevoked  east-ocsprevoked: revoked by the responder, in no CRL:
#                   refused (a CRL that says "good" does not hide OCSP)
#   3  crlrevoked   east-revoked: in the root's CRL, no responder: refused
# Phase 2, a reload with ocsp-strict=yes:
#   4  unknown      east-ocspunknown: the responder does not know it: refused
#   5  noaia        east-ecdsa: names no responder: refused
#   6  dead         east-ocspdead: its responder's port is closed: refused
# Phase 3, a reload with ocsp-uri= and ocsp-trustname= (the root signs the
# answers) and crl-strict=yes: east initiates 5 again, and the default
# responder says good: up. 4 and 6 stay refused.
# Then: one SA each way for 1 and 5 on both hosts, none for the others,
# pings through them, the responder asked, only ESP on the wire.
# shellcheck disable=SC2034 # PAIRS is read by the topology
PAIRS=6
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/certs.sh"
CERTS_WEST=ikebana CERTS_EAST=libreswan
topology west-east-pairs
capture_start west:eth0 east:eth0
pki_make "$PKI" || fail "pki_make"
pki_ocsp_make || fail "pki_ocsp_make"
pki_ocsp_start west 8888

W=$HOSTS/west
conf() {
	printf 'config setup\n\tnssdir=%s\n\tocsp-enable=yes\n%s\ninclude %s/*.conf\n' \
		"$W/nss" "$1" "$W/etc/ikebana.d" >"$W/etc/ikebana.conf"
}
mkdir -p "$W/etc/ikebana.d"
conf ''
wlog=$W/log/ikebanad.log
ocsp_asked() { grep -c 'Received request' "$W/log/ocsp-8888.log"; }
asked0=$(ocsp_asked)

certs_conn 1 good east cert=rsa rcert=ocsp -- cert=ocsp rcert=rsa
certs_conn 2 ocsprevoked east cert=rsa rcert=ocsprevoked -- cert=ocsprevoked rcert=rsa
certs_conn 3 crlrevoked east cert=rsa rcert=revoked -- cert=revoked rcert=rsa
ROOT='issued by "C=CH, O=ikebana test, CN=ikebana test root"'
wait_for 30 "ikebana refusing east-ocsprevoked by OCSP" certs_found "$wlog" \
	"conn ocsprevoked #[0-9]*: IKE_AUTH: certificate \"C=CH, O=ikebana test, OU=ocsprevoked, CN=east\" $ROOT: it is revoked: its OCSP responder says so (http://127.0.0.1:8888/; SEC_ERROR_REVOKED_CERTIFICATE): answering AUTHENTICATION_FAILED"
log "ok: ikebana refused east-ocsprevoked, revoked by OCSP only"
wait_for 30 "ikebana refusing east-revoked by the CRL" certs_found "$wlog" \
	"conn crlrevoked #[0-9]*: IKE_AUTH: certificate \"C=CH, O=ikebana test, OU=revoked, CN=east\" $ROOT: it is revoked: a CRL in the NSS database lists it (SEC_ERROR_REVOKED_CERTIFICATE)"
log "ok: ikebana refused east-revoked by the CRL, with OCSP on"
wait_for 30 "ikebana's good conn up" certs_found "$wlog" \
	'conn good #[0-9]*: IKE SA established with @east.ikebana.test'
[ "$(ocsp_asked)" -gt "$asked0" ] || fail "the OCSP responder was never asked"
log "ok: east-ocsp up after $(( $(ocsp_asked) - asked0 )) OCSP request(s)"

conf '	ocsp-strict=yes
'
_ikb west reload || fail "ikebana reload (ocsp-strict=yes)"
certs_conn 4 unknown east cert=rsa rcert=ocspunknown -- cert=ocspunknown rcert=rsa
certs_conn 5 noaia east cert=rsa rcert=ecdsa -- cert=ecdsa rcert=rsa
certs_conn 6 dead east cert=rsa rcert=ocspdead -- cert=ocspdead rcert=rsa
wait_for 30 "ikebana refusing east-ocspunknown (strict)" certs_found "$wlog" \
	"conn unknown #[0-9]*: IKE_AUTH: certificate \"C=CH, O=ikebana test, OU=ocspunknown, CN=east\" $ROOT: its OCSP responder does not know it (status unknown), and ocsp-strict=yes wants a good answer (http://127.0.0.1:8888/; SEC_ERROR_OCSP_UNKNOWN_CERT)"
log "ok: ikebana refused east-ocspunknown: unknown to the responder"
wait_for 30 "ikebana refusing east-ecdsa, which names no responder (strict)" certs_found "$wlog" \
	"conn noaia #[0-9]*: IKE_AUTH: certificate \"C=CH, O=ikebana test, OU=ecdsa, CN=east\" $ROOT: it names no OCSP responder (no OCSP URI in its authorityInfoAccess) and ocsp-uri= is not set, so ocsp-strict=yes refuses it"
log "ok: ikebana refused east-ecdsa: no responder to ask"
wait_for 30 "ikebana refusing east-ocspdead (strict)" certs_found "$wlog" \
	"conn dead #[0-9]*: IKE_AUTH: certificate \"C=CH, O=ikebana test, OU=ocspdead, CN=east\" $ROOT: its OCSP responder could not be reached (ocsp-timeout=), and ocsp-strict=yes wants a good answer (http://127.0.0.1:8889/; PR_CONNECT_[A-Z]*_ERROR)"
log "ok: ikebana refused east-ocspdead: its responder is down"

conf '	ocsp-strict=yes
	ocsp-uri=http://127.0.0.1:8888/
	ocsp-trustname="ikebana test root"
	crl-strict=yes
'
_ikb west reload || fail "ikebana reload (ocsp-uri=, crl-strict=yes)"
initiate east noaia
wait_for 30 "ikebana's noaia conn up through the default responder" certs_found "$wlog" \
	'conn noaia #[0-9]*: IKE SA established with @east.ikebana.test'
log "ok: east-ecdsa up: ocsp-uri= answered for it"
expect_sa west count=4 timeout=30 mode=transport
expect_sa east count=4 timeout=30 mode=transport
certs_expect_sas "1 5"
capture_wait
expect_only_esp west:eth0 east:eth0
pass
