# A test PKI, generated at test time (no private key is ever committed),
# and the credential stores the daemons read. Sourced by all.sh; runs
# inside UML (or anywhere with openssl and NSS's tools).
#
#   pki_make DIR              root CA, intermediate CA, CRLs and host certs
#                             in DIR (once: a second call returns at once)
#   pki_nssdb DIR NICK...     sql:DIR for libreswan and ikebana: host certs
#                             and keys under their nicknames, the CAs, the CRLs
#   pki_swanctl DIR NICK...   the same for strongSwan: DIR is its swanctl dir
#   pki_info NICK             sets pki_dn, pki_fqdn, pki_email, pki_key
#                             (rsa|ecdsa) from the cert NICK
#   pki_der NICK              $PKI/NICK.der (host certs get it on demand)
#   pki_ocsp_make             the OCSP certs below and the responder's index
#   pki_ocsp_start HOST PORT  openssl's OCSP responder for the root, in HOST's
#                             namespace, answering on PORT of every address
#                             (the certs name http://127.0.0.1:8888/)
#
# What pki_make makes ($PKI, /srv/pki by default, when the harness makes it):
#   root.pem/.der/.key        C=CH, O=ikebana test, CN=ikebana test root (RSA 2048)
#   inter.pem/.der/.key       C=CH, O=ikebana test, CN=ikebana test intermediate
#                             (ECDSA P-256), issued by the root
#   root.crl, inter.crl       CRLs (DER; .crl.pem PEM): east-revoked is in the root's
#   lookalike.pem/.key        a CA with the root's DN and another key (RSA 2048)
#   stranger.pem/.key         a CA no store has: C=CH, O=ikebana test,
#                             CN=ikebana test stranger (P-256)
#   NICK.pem/.key             host certs (NICK.der by pki_der, NICK.p12 by
#                             pki_nssdb: a process each costs ~0.2 s in UML):
#                             keyUsage digitalSignature, SANs
#                             DNS:HOST.ikebana.test, email:HOST@ikebana.test and
#                             IP: every address of the host ($HOSTS/HOST/local,
#                             made by `topology`; none before it)
#     west-rsa  east-rsa      RSA 2048, by the root, C=CH, O=ikebana test, CN=HOST
#     west-ecdsa east-ecdsa   P-256, by the root, ... OU=ecdsa, CN=HOST
#     west-inter              P-256, by the intermediate, ... OU=inter, CN=west
#     east-expired            P-256, by the root, valid 2020-01-01..2021-01-01
#     east-revoked            P-256, by the root, revoked in root.crl
#     east-lookalike          P-256, by the look-alike CA
#     east-wrongid            P-256, by the root, CN=mallory, DNS:mallory.ikebana.test
#     east-unknown            P-256, by the stranger CA, ... OU=unknown, CN=east
#   by pki_ocsp_make: P-256, by the root, with authorityInfoAccess OCSP
#   http://127.0.0.1:PORT/ (8888 unless said), in ocsp.index for the
#   responder as said:
#     east-ocsp               OU=ocsp, good
#     east-ocsprevoked        OU=ocsprevoked, revoked (in no CRL)
#     east-ocspunknown        OU=ocspunknown, not in the index: unknown
#     east-ocspdead           OU=ocspdead, names port 8889, where none answers
#   (east-ecdsa, with no authorityInfoAccess, is good in ocsp.index too)
#   NICK.info                 "key dn fqdn email", read by pki_info
# NSS gives every cert of one subject DN the same nickname (a second
# import under another name keeps the first name), so each cert of a host
# has its own DN: the OU says which one. The refusal certs carry the OU of
# their flaw (OU=revoked...), except east-wrongid.
# Key generation is cheap except RSA: four RSA keys, the others P-256.
# shellcheck shell=sh disable=SC2034
# (pki_info sets pki_* for its callers in peers/)

PKI=${PKI:-/srv/pki}
PKI_O='ikebana test'
PKI_P12PASS=ikebana-test

# _pki_cnf DIR: the openssl config every command reads (OPENSSL_CONF).
# PKI_SAN and PKI_DIR come from the environment of each command.
_pki_cnf() {
	cat >"$1/openssl.cnf" <<-'CNF'
	[ req ]
	distinguished_name = req_dn
	string_mask = utf8only
	[ req_dn ]
	[ ca_ext ]
	basicConstraints = critical, CA:true
	keyUsage = critical, keyCertSign, cRLSign
	subjectKeyIdentifier = hash
	authorityKeyIdentifier = keyid
	[ host_ext ]
	basicConstraints = CA:false
	keyUsage = critical, digitalSignature
	subjectAltName = $ENV::PKI_SAN
	subjectKeyIdentifier = hash
	authorityKeyIdentifier = keyid
	[ ocsp_host_ext ]
	basicConstraints = CA:false
	keyUsage = critical, digitalSignature
	subjectAltName = $ENV::PKI_SAN
	subjectKeyIdentifier = hash
	authorityKeyIdentifier = keyid
	authorityInfoAccess = OCSP;URI:$ENV::PKI_OCSP
	[ crl_ext ]
	authorityKeyIdentifier = keyid
	[ ca ]
	default_ca = root
	[ root ]
	dir = $ENV::PKI_DIR
	database = $dir/root.index
	serial = $dir/root.serial
	crlnumber = $dir/root.crlnumber
	new_certs_dir = $dir/new
	certificate = $dir/root.pem
	private_key = $dir/root.key
	default_md = sha256
	default_crl_days = 3650
	policy = any
	unique_subject = no
	preserve = yes
	copy_extensions = none
	[ inter ]
	dir = $ENV::PKI_DIR
	database = $dir/inter.index
	crlnumber = $dir/inter.crlnumber
	certificate = $dir/inter.pem
	private_key = $dir/inter.key
	default_md = sha256
	default_crl_days = 3650
	[ any ]
	countryName = optional
	organizationName = optional
	organizationalUnitName = optional
	commonName = supplied
	CNF
}

# _pki_ips HOST: ",IP:a,IP:b" for every address of HOST but loopback.
_pki_ips() {
	_pi=''
	[ -r "${HOSTS:-/nonexistent}/$1/local" ] || return 0
	while read -r _pa; do
		case $_pa in 127.* | ::1 | '') ;; *) _pi="$_pi,IP:$_pa" ;; esac
	done <"$HOSTS/$1/local"
	printf '%s' "$_pi"
}

# _pki_newkey rsa|ecdsa: sets _pnew to req's words for a new key of that type.
_pki_newkey() {
	case $1 in
	rsa) _pnew='-newkey rsa:2048' ;;
	*) _pnew='-newkey ec -pkeyopt ec_paramgen_curve:P-256' ;;
	esac
}

# _pki_ssl ARGS...: openssl with our config; output kept in openssl.log.
_pki_ssl() {
	echo "# openssl $*" >>"$_D/openssl.log"
	PKI_DIR=$_D PKI_SAN=${PKI_SAN:-DNS:unset.ikebana.test} \
		PKI_OCSP=${PKI_OCSP:-http://127.0.0.1:8888/} OPENSSL_CONF=$_D/openssl.cnf \
		t 60 openssl "$@" >>"$_D/openssl.log" 2>&1 ||
		{ log "pki: openssl $1 failed, see $_D/openssl.log"; return 1; }
}

# _pki_der NAME: NAME.der from NAME.pem.
_pki_der() { _pki_ssl x509 -in "$_D/$1.pem" -outform DER -out "$_D/$1.der"; }

# _pki_p12 NICK: NICK.p12 (cert and key, named NICK) for pk12util.
_pki_p12() {
	_pki_ssl pkcs12 -export -in "$_D/$1.pem" -inkey "$_D/$1.key" -name "$1" \
		-passout "pass:$PKI_P12PASS" -out "$_D/$1.p12" && chmod 600 "$_D/$1.p12"
}

# _pki_info NICK KEY OU CN: NICK.info, "key dn fqdn email" (tabs).
_pki_info() {
	printf '%s\t%s\t%s\t%s\n' "$2" "C=CH, O=$PKI_O${3:+, OU=$3}, CN=$4" \
		"$4.ikebana.test" "$4@ikebana.test" >"$_D/$1.info"
}

# _pki_san HOST CN: sets PKI_SAN for a host cert.
_pki_san() { PKI_SAN="DNS:$2.ikebana.test,email:$2@ikebana.test$(_pki_ips "$1")"; }

# _pki_host NICK KEY ISSUER SERIAL HOST [OU] [CN]: one host cert, its key
# and NICK.info (its DER and PKCS#12 are made when asked for: pki_der,
# pki_nssdb).
_pki_host() {
	_pn=$1 _pk=$2 _pis=$3 _ps=$4 _ph=$5 _pou=${6:-} _pcn=${7:-$5}
	_pki_newkey "$_pk"
	_pki_san "$_ph" "$_pcn"
	# shellcheck disable=SC2086 # _pnew is a list of words
	_pki_ssl req -x509 -nodes $_pnew -keyout "$_D/$_pn.key" \
		-out "$_D/$_pn.pem" -subj "/C=CH/O=$PKI_O${_pou:+/OU=$_pou}/CN=$_pcn" \
		-CA "$_D/$_pis.pem" -CAkey "$_D/$_pis.key" -set_serial "$_ps" -days 3650 \
		-extensions "${PKI_EXT:-host_ext}" && _pki_info "$_pn" "$_pk" "$_pou" "$_pcn"
}

# _pki_ca NAME KEY ISSUER SERIAL CN: a CA cert and its DER (self-signed when
# ISSUER is NAME).
_pki_ca() {
	_pki_newkey "$2"
	_pca="-CA $_D/$3.pem -CAkey $_D/$3.key"
	[ "$1" = "$3" ] && _pca=''
	# shellcheck disable=SC2086 # _pnew and _pca are lists of words
	_pki_ssl req -x509 -nodes $_pnew -keyout "$_D/$1.key" -out "$_D/$1.pem" \
		-subj "/C=CH/O=$PKI_O/CN=$5" $_pca -set_serial "$4" -days 3650 -extensions ca_ext &&
		case $1 in lookalike | stranger) ;; *) _pki_der "$1" ;; esac
}

pki_make() {
	_D=$1
	[ -e "$_D/done" ] && return 0
	_pt0=$(now_cs)
	mkdir -p "$_D/new" || return
	: >"$_D/openssl.log"
	_pki_cnf "$_D"
	_pki_ca root rsa root 1 'ikebana test root' &&
		_pki_ca inter ecdsa root 2 'ikebana test intermediate' &&
		_pki_ca lookalike rsa lookalike 1 'ikebana test root' &&
		_pki_ca stranger ecdsa stranger 3 'ikebana test stranger' || return
	_pki_host west-rsa rsa root 16 west &&
		_pki_host east-rsa rsa root 17 east &&
		_pki_host west-ecdsa ecdsa root 18 west ecdsa &&
		_pki_host east-ecdsa ecdsa root 19 east ecdsa &&
		_pki_host west-inter ecdsa inter 20 west inter &&
		_pki_host east-revoked ecdsa root 21 east revoked &&
		_pki_host east-lookalike ecdsa lookalike 22 east lookalike &&
		_pki_host east-wrongid ecdsa root 23 east '' mallory &&
		_pki_host east-unknown ecdsa stranger 24 east unknown || return
	# east-expired: `openssl req -x509` and `x509` of OpenSSL 3.0 have no
	# -not_before/-not_after (3.4 has) and refuse a negative -days; `ca`
	# takes -startdate/-enddate. It also writes the root's database.
	echo 18 >"$_D/root.serial"
	: >"$_D/root.index"
	_pki_newkey ecdsa
	_pki_san east east
	# shellcheck disable=SC2086 # _pnew is a list of words
	_pki_ssl req -new -nodes $_pnew -keyout "$_D/east-expired.key" -out "$_D/east-expired.csr" \
		-subj "/C=CH/O=$PKI_O/OU=expired/CN=east" &&
		_pki_ssl ca -batch -name root -notext -in "$_D/east-expired.csr" \
			-out "$_D/east-expired.pem" -startdate 200101000000Z -enddate 210101000000Z \
			-extensions host_ext &&
		_pki_info east-expired ecdsa expired east || return
	# CRLs: the root's lists east-revoked (serial 21 = 0x15), written into
	# its database by hand (one process less than `ca -revoke`); the
	# intermediate's is empty.
	printf 'R\t301231235959Z\t240101000000Z\t15\tunknown\t/C=CH/O=%s/OU=revoked/CN=east\n' \
		"$PKI_O" >>"$_D/root.index"
	: >"$_D/inter.index"
	echo 01 >"$_D/root.crlnumber"
	echo 01 >"$_D/inter.crlnumber"
	for _pc in root inter; do
		_pki_ssl ca -gencrl -name "$_pc" -crlexts crl_ext -out "$_D/$_pc.crl.pem" &&
			_pki_ssl crl -in "$_D/$_pc.crl.pem" -outform DER -out "$_D/$_pc.crl" || return
	done
	chmod 600 "$_D"/*.key
	touch "$_D/done"
	log "pki: made in $_D in $(( $(now_cs) - _pt0 ))0 ms"
}

# pki_ocsp_make: the OCSP certs and ocsp.index (once), after pki_make and
# before the first cert conn (a host's store takes the certs there are).
pki_ocsp_make() {
	_D=$PKI
	[ -e "$_D/ocsp.index" ] && return 0
	PKI_EXT=ocsp_host_ext _pki_host east-ocsp ecdsa root 25 east ocsp &&
		PKI_EXT=ocsp_host_ext _pki_host east-ocsprevoked ecdsa root 26 east ocsprevoked &&
		PKI_EXT=ocsp_host_ext _pki_host east-ocspunknown ecdsa root 27 east ocspunknown &&
		PKI_EXT=ocsp_host_ext PKI_OCSP=http://127.0.0.1:8889/ \
			_pki_host east-ocspdead ecdsa root 28 east ocspdead || return
	# status, expiry, revocation, serial (hex), file, DN: ca's index format
	{
		printf 'V\t301231235959Z\t\t19\tunknown\t/C=CH/O=%s/OU=ocsp/CN=east\n' "$PKI_O"
		printf 'R\t301231235959Z\t240101000000Z\t1A\tunknown\t/C=CH/O=%s/OU=ocsprevoked/CN=east\n' "$PKI_O"
		printf 'V\t301231235959Z\t\t13\tunknown\t/C=CH/O=%s/OU=ecdsa/CN=east\n' "$PKI_O"
	} >"$_D/ocsp.index.new" && mv "$_D/ocsp.index.new" "$_D/ocsp.index"
}

# pki_ocsp_start HOST PORT: the responder, signing with the root's key
# (a CA answers for its own certificates without a delegated signer), in
# the background; returns once it answers for east-ocsp. Log:
# $HOSTS/HOST/log/ocsp-PORT.log, one line per request.
pki_ocsp_start() {
	_ol=$HOSTS/$1/log/ocsp-$2.log
	ip netns exec "$1" openssl ocsp -index "$PKI/ocsp.index" -port "$2" \
		-rsigner "$PKI/root.pem" -rkey "$PKI/root.key" -CA "$PKI/root.pem" \
		-ignore_err >"$_ol" 2>&1 &
	echo "$!" >"$HOSTS/$1/ocsp-$2.pid"
	wait_for 15 "the OCSP responder on $1:$2 answering" _pki_ocsp_good "$1" "$2"
	log "pki: OCSP responder on $1, port $2 (pid $(cat "$HOSTS/$1/ocsp-$2.pid"))"
}

_pki_ocsp_good() {
	ip netns exec "$1" openssl ocsp -issuer "$PKI/root.pem" -cert "$PKI/east-ocsp.pem" \
		-url "http://127.0.0.1:$2/" -CAfile "$PKI/root.pem" -timeout 2 2>&1 |
		grep -q ': good$'
}

# pki_der NICK: $PKI/NICK.der, made on the first call.
pki_der() {
	_D=$PKI
	[ -e "$PKI/$1.der" ] || _pki_der "$1"
}

# pki_info NICK: sets pki_key, pki_dn, pki_fqdn, pki_email (no process).
pki_info() {
	[ -r "$PKI/$1.info" ] || { log "pki: no cert $1 in $PKI"; return 1; }
	IFS='	' read -r pki_key pki_dn pki_fqdn pki_email <"$PKI/$1.info"
}

# pki_nssdb DIR NICK...: creates sql:DIR (empty password) unless it exists,
# imports each NICK's cert and key (PKCS#12) under its nickname, the root
# (trust CT,,), the intermediate (,,) and both CRLs. A NICK already in the
# db is skipped, so it can be called again with more.
pki_nssdb() {
	_nd=$1
	shift
	[ -e "$_nd/cert9.db" ] || t 20 certutil -N -d "sql:$_nd" --empty-password || return
	if [ ! -e "$_nd/ikebana-pki" ]; then
		t 20 certutil -A -d "sql:$_nd" -n 'ikebana test root' -t CT,, -i "$PKI/root.der" &&
			t 20 certutil -A -d "sql:$_nd" -n 'ikebana test intermediate' -t ,, -i "$PKI/inter.der" &&
			t 20 crlutil -I -d "sql:$_nd" -i "$PKI/root.crl" &&
			t 20 crlutil -I -d "sql:$_nd" -i "$PKI/inter.crl" || return
		: >"$_nd/ikebana-pki"
	fi
	_nhave=' '
	while read -r _nn; do _nhave="$_nhave$_nn "; done <"$_nd/ikebana-pki"
	for _nn; do
		case $_nhave in *" $_nn "*) continue ;; esac
		_D=$PKI
		[ -e "$PKI/$_nn.p12" ] || _pki_p12 "$_nn" || return
		t 20 pk12util -i "$PKI/$_nn.p12" -d "sql:$_nd" -W "$PKI_P12PASS" >/dev/null || return
		echo "$_nn" >>"$_nd/ikebana-pki"
	done
}

# pki_swanctl DIR NICK...: x509/NICK.pem, private/NICK.key, the CAs in
# x509ca and the CRLs in x509crl under strongSwan's swanctl dir DIR.
pki_swanctl() {
	_sd=$1
	shift
	mkdir -p "$_sd/x509" "$_sd/x509ca" "$_sd/private" "$_sd/x509crl"
	[ -e "$_sd/x509ca/root.pem" ] ||
		cp "$PKI/root.pem" "$PKI/inter.pem" "$_sd/x509ca/" &&
		cp "$PKI/root.crl" "$_sd/x509crl/root.crl" &&
		cp "$PKI/inter.crl" "$_sd/x509crl/inter.crl" || return
	for _sn; do
		[ -e "$_sd/x509/$_sn.pem" ] && continue
		cp "$PKI/$_sn.pem" "$_sd/x509/" && cp "$PKI/$_sn.key" "$_sd/private/" || return
	done
}

# pki_rawkey DIR: a new RSA 3072 raw key in sql:DIR (made if need be, empty
# password) by libreswan's own rsasigkey, as `ipsec newhostkey` makes one;
# prints "CKAID 0sKEY", the public key as showhostkey prints it.
pki_rawkey() {
	[ -e "$1/cert9.db" ] || t 20 certutil -N -d "sql:$1" --empty-password || return
	_rk=$(t 60 "$LS_EXEC/rsasigkey" --nssdir "$1" --seeddev /dev/urandom 3072 2>&1) ||
		{ log "pki: rsasigkey: $_rk"; return 1; }
	_rc=$(echo "$_rk" | sed -n 's/.*with CKAID \([0-9a-f]*\) .*/\1/p')
	[ -n "$_rc" ] || { log "pki: rsasigkey said: $_rk"; return 1; }
	_rp=$(t 20 "$LS_EXEC/showhostkey" --nssdir "$1" --left --ckaid "$_rc" 2>&1 |
		sed -n 's/^[[:space:]]*leftrsasigkey=//p')
	[ -n "$_rp" ] || { log "pki: showhostkey found no key $_rc"; return 1; }
	echo "$_rc $_rp"
}
