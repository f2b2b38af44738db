#!/bin/sh
# ikebana on both ends with certificates from the test PKI, on UML 7.2 (the
# `kernel` file) for per-CPU Child SAs, one conn per address pair of
# west-east-pairs:
#   1  pcpu     west-rsa and east-rsa, %fromcert, clones=2 esn=yes: the
#               fallback Child SA and one clone for CPU 0 on both hosts
#               (UML has one possible CPU), the clone's outbound SA with
#               XFRMA_SA_PCPU 0; ping through them; west initiates
#   2  mixed    west-rsa, east-ecdsa (leftauth/rightauth); east initiates
#   3  inter    west-inter (by the intermediate), DN IDs; west initiates
#   4  revoked  east initiates with east-revoked: west refuses it, naming
#               the CRL, and east logs the AUTHENTICATION_FAILED answer;
#               no SA of pair 4 on either host
# Then both show the peer's certificate in `ikebana status --json`.
# East runs NSS in FIPS mode (fips=yes) with its certificate database: the
# RSA-PSS and ECDSA signatures, the chain checks and the default proposals
# all pass FIPS mode's rules, with a FIPS-mode peer and a normal one.
# shellcheck disable=SC2034 # PAIRS is read by the topology
PAIRS=4
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/certs.sh"
CERTS_WEST=ikebana CERTS_EAST=ikebana
XFRMCTL=$IKB_BUILD/testing/tools/xfrmctl
[ -x "$XFRMCTL" ] || fail "no $XFRMCTL: build it"
case $(uname -r) in 6.1[3-9]* | 6.[2-9]* | [7-9].*) ;;
*) skip "kernel $(uname -r) has no per-CPU SAs: run with UML_KERNEL=7.2" ;; esac
topology west-east-pairs
capture_start west:eth0 east:eth0
pki_make "$PKI" || fail "pki_make"
mkdir -p "$HOSTS/east/etc/ikebana.d"
printf 'config setup\n\tnssdir=%s\n\tfips=yes\n\ninclude %s/*.conf\n' \
	"$HOSTS/east/nss" "$HOSTS/east/etc/ikebana.d" >"$HOSTS/east/etc/ikebana.conf"

# pair 1: the conn as the harness writes it, plus the RFC 9611 keys
certs_pair 1
peer ikebana east west add name=pcpu local="$r" remote="$l" cert=rsa id=fromcert
peer ikebana west east add name=pcpu local="$l" remote="$r" cert=rsa id=fromcert
for h in west east; do
	printf '\tesn=yes\n\tclones=2\n' >>"$HOSTS/$h/etc/ikebana.d/pcpu.conf"
	_ikb "$h" reload || fail "ikebana reload on $h: $(tail -n 5 "$HOSTS/$h/log/ikebana.log")"
done
certs_conn 2 mixed east cert=rsa rcert=ecdsa -- cert=ecdsa rcert=rsa
certs_conn 3 inter west cert=inter rcert=rsa id=dn -- cert=rsa rcert=inter id=dn
certs_conn 4 revoked east cert=rsa -- cert=revoked rcert=rsa
_ikb west up pcpu || fail "ikebana up pcpu: $(tail -n 5 "$HOSTS/west/log/ikebana.log")"

# 4 ESP states for pcpu, 2 each for mixed and inter
expect_sa west count=8 timeout=60 mode=transport alg=aes_gcm128
expect_sa east count=8 timeout=60 mode=transport alg=aes_gcm128
grep -q 'NSS (FIPS mode) ready' "$HOSTS/east/log/ikebanad.log" ||
	fail "east's ikebanad is not in FIPS mode: $(grep -m3 'NSS\|fips' "$HOSTS/east/log/ikebanad.log")"
log "ok: east authenticated in NSS's FIPS mode"
certs_pair 1
for h in west east; do
	ns "$h" "$XFRMCTL" dump >"$HOSTS/$h/log/xfrmctl.dump" 2>&1 || fail "xfrmctl dump on $h"
	f=$HOSTS/$h/log/xfrmctl.dump
	n=$(grep -c "^sa src=\($l\|$r\) " "$f")
	[ "$n" = 4 ] || fail "$h: $n SAs of pcpu, expected the fallback's and the clone's 4: $(cat "$f")"
	[ "$(grep -c "^sa src=\($l\|$r\) .* cpu=0$" "$f")" = 1 ] ||
		fail "$h: not exactly one SA of pcpu with CPU 0: $(cat "$f")"
	log "ok: $h: pcpu has the fallback and the CPU 0 clone (4 SAs), authenticated by certificate"
done
before=$(esp_packets west src="$l")
ns west ping -n -q -c 3 -i 0.2 -W 2 -I "$l" "$r" >/dev/null || fail "ping through pcpu"
after=$(esp_packets west src="$l")
[ "$after" -ge $((before + 3)) ] || fail "pcpu's outbound SAs on west carried $((after - before)) packets of 3 pings"
log "ok: pings through pcpu's SAs ($before -> $after packets out)"

wlog=$HOSTS/west/log/ikebanad.log elog=$HOSTS/east/log/ikebanad.log
wait_for 30 "west refusing east-revoked" certs_found "$wlog" \
	'conn revoked #[0-9]*: IKE_AUTH: certificate "C=CH, O=ikebana test, OU=revoked, CN=east" issued by "C=CH, O=ikebana test, CN=ikebana test root": it is revoked: a CRL in the NSS database lists it (SEC_ERROR_REVOKED_CERTIFICATE): answering AUTHENTICATION_FAILED'
wait_for 30 "east hearing AUTHENTICATION_FAILED" certs_found "$elog" \
	'conn revoked #[0-9]*: .*peer answered AUTHENTICATION_FAILED'
log "ok: west refused east-revoked, east was told"
certs_expect_sas "2 3" "1"

# status: the peer's certificate and how it signed
for h in west east; do
	_ikb "$h" status --json || fail "status on $h"
	ns "$h" "$IKB_CLI" --rundir "$HOSTS/$h/run" status --json >"$HOSTS/$h/log/status.json" 2>&1
done
jq -e '[.ike_sas[] | select(.conn == "mixed") | .peer_cert.subject] | .[0] == "C=CH, O=ikebana test, OU=ecdsa, CN=east"' \
	"$HOSTS/west/log/status.json" >/dev/null || fail "west's status does not show east-ecdsa for mixed: $(cat "$HOSTS/west/log/status.json")"
jq -e '[.ike_sas[] | select(.conn == "inter") | .peer_cert.issuer] | .[0] == "C=CH, O=ikebana test, CN=ikebana test intermediate"' \
	"$HOSTS/east/log/status.json" >/dev/null || fail "east's status does not show west-inter's issuer for inter: $(cat "$HOSTS/east/log/status.json")"
log "ok: status --json shows each peer's certificate"
capture_wait
expect_only_esp west:eth0 east:eth0
pass
