#!/bin/sh
# Authentication without certificates, ikebana (west) with libreswan
# (east), one conn per address pair of west-east-pairs.
# Raw RSA keys as libreswan's own tests use them: keys made by libreswan's
# rsasigkey in each host's NSS database, leftrsasigkey=0s... (RFC 3110)
# and leftckaid=:
#   1  west initiates; ikebana has leftrsasigkey= and leftckaid=
#   2  east initiates; ikebana has leftckaid= only (its public half)
#   3  east initiates, but ikebana's rightrsasigkey= is another key: ikebana
#      refuses, saying the signature does not verify with it; no SA
# NULL authentication (RFC 7619), as opportunistic encryption uses it:
#   4  west initiates; authby=null, ikebana without leftid= (ID_NULL)
#   5  east initiates; authby=null, leftid=%null rightid=%null on both
#   6  east initiates with authby=null, but ikebana's conn wants east's
#      PSK (rightauth=secret): ikebana refuses, saying so; no SA
# 1-2, 4-5: one SA each way on both ends, ping both ways through them.
# shellcheck disable=SC2034 # PAIRS is read by the topology
PAIRS=6
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/certs.sh"
topology west-east-pairs
capture_start west:eth0 east:eth0
set -- $(pki_rawkey "$HOSTS/west/nss") || fail "west's raw key"
wck=$1 wkey=$2
set -- $(pki_rawkey "$HOSTS/east/nss") || fail "east's raw key"
eck=$1 ekey=$2
set -- $(pki_rawkey "$HOSTS/east/nss") || fail "east's second raw key"
okey=$2
log "raw keys: west $wck, east $eck, and another of east's"

# conn NAME I WHO-INITIATES: west's and east's ends, libreswan's syntax
ls_conn() {
	certs_pair "$2"
	printf 'conn %s\n\tleft=%s\n\tleftid=@east\n\tleftrsasigkey=%s\n\tright=%s\n\trightid=@west\n\trightrsasigkey=%s\n\tauthby=rsasig\n\ttype=transport\n\tleftupdown=%%disabled\n\tauto=add\n\n' \
		"$1" "$r" "$ekey" "$l" "$wkey"
}
ikb_conn() {
	certs_pair "$2"
	printf 'conn %s\n\tleft=%s\n\tleftid=@west\n%s\tright=%s\n\trightid=@east\n\trightrsasigkey=%s\n\tauthby=rsasig\n\ttype=transport\n\tauto=add\n\n' \
		"$1" "$l" "$3" "$r" "$4"
}
# null_ls NAME I: libreswan's anonymous conn; null_ikb NAME I WORDS: ikebana's
null_ls() {
	certs_pair "$2"
	printf 'conn %s\n\tleft=%s\n\tleftid=%%null\n\tright=%s\n\trightid=%%null\n\tauthby=null\n\ttype=transport\n\tleftupdown=%%disabled\n\tauto=add\n\n' \
		"$1" "$r" "$l"
}
null_ikb() {
	certs_pair "$2"
	printf 'conn %s\n\tleft=%s\n\tright=%s\n%s\ttype=transport\n\tauto=add\n\n' \
		"$1" "$l" "$r" "$3"
}
mkdir -p "$HOSTS/west/etc/ikebana.d"
{
	ikb_conn raw-a 1 "	leftrsasigkey=$wkey
	leftckaid=$wck
" "$ekey"
	ikb_conn raw-b 2 "	leftckaid=$wck
" "$ekey"
	ikb_conn raw-wrong 3 "	leftckaid=$wck
" "$okey"
} >"$HOSTS/west/etc/ikebana.d/raw.conf"
{
	null_ikb null-a 4 "	authby=null
"
	null_ikb null-b 5 "	leftid=%null
	rightid=%null
	authby=null
"
	null_ikb null-psk 6 "	rightid=%any
	leftauth=null
	rightauth=secret
"
} >"$HOSTS/west/etc/ikebana.d/null.conf"
printf 'config setup\n\tnssdir=%s\n\ninclude %s/*.conf\n' "$HOSTS/west/nss" \
	"$HOSTS/west/etc/ikebana.d" >"$HOSTS/west/etc/ikebana.conf"
_peer_note_daemon west ikebana
ikebana_start west
libreswan_start east
{
	ls_conn raw-a 1
	ls_conn raw-b 2
	ls_conn raw-wrong 3
	null_ls null-a 4
	null_ls null-b 5
	null_ls null-psk 6
} >"$HOSTS/east/etc/ipsec.d/conns/raw.conf"
_ls_add east "$HOSTS/east/etc/ipsec.d/conns/raw.conf" || fail "libreswan: addconn"
_peer_note_daemon east libreswan
initiate west raw-a
initiate east raw-b
initiate east raw-wrong
initiate west null-a
initiate east null-b
initiate east null-psk
expect_sa west count=8 timeout=40 mode=transport
expect_sa east count=8 timeout=40 mode=transport
wlog=$HOSTS/west/log/ikebanad.log
wait_for 30 "ikebana refusing the key it does not know" certs_found "$wlog" \
	'conn raw-wrong #[0-9]*: IKE_AUTH: peer @east, rightrsasigkey=: AUTH payload: the RSA-PSS with SHA2-[0-9]* signature does not verify with the peer.s key.*answering AUTHENTICATION_FAILED'
log "ok: ikebana refused east's signature by a key rightrsasigkey= does not name"
wait_for 20 "ikebana's raw-a and raw-b up" certs_found "$wlog" \
	'conn raw-a #[0-9]*: IKE SA established with @east (RSA-PSS' 'conn raw-b #[0-9]*: IKE SA established with @east (RSA-PSS'
wait_for 20 "ikebana's null-a and null-b up, anonymous" certs_found "$wlog" \
	'conn null-a #[0-9]*: IKE SA established with %null (NULL)' 'conn null-b #[0-9]*: IKE SA established with %null (NULL)'
wait_for 30 "ikebana refusing NULL authentication where it wants a PSK" certs_found "$wlog" \
	'conn null-psk #[0-9]*: IKE_AUTH: peer %null used NULL authentication (AUTH method 13, RFC 7619), which proves no identity, but the conn wants a PSK (authby=secret): answering AUTHENTICATION_FAILED'
log "ok: ikebana refused east's NULL authentication where the conn wants a PSK"
_ikb west status
grep -q 'authenticated by NULL' "$HOSTS/west/log/ikebana.log" || fail "ikebana status: no peer authenticated by NULL"
certs_expect_sas "1 2 4 5"
capture_wait
expect_only_esp west:eth0 east:eth0
pass
