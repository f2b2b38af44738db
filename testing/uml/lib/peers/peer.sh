# One line per daemon and conn:
#   peer DAEMON HOST [REMOTE] [WORD...]
# DAEMON: strongswan, libreswan or ikebana. WORDs, in any order:
#   initiator | responder | add  role (default responder: load the conn and
#                                wait; initiator also initiates it; add loads it)
#   psk                          authentication by PSK (the default)
#   cert=KIND                    authentication by certificate: this host's cert
#                                is HOST-KIND from lib/pki.sh (rsa, ecdsa, inter;
#                                revoked, expired, lookalike, wrongid on east).
#                                The PKI is made on the first such peer(), and
#                                the host's store gets every HOST-* cert:
#                                strongSwan's swanctl dirs, the NSS db of
#                                libreswan and ikebana ($HOSTS/HOST/nss).
#                                strongSwan: auth = pubkey, certs = HOST-KIND.pem;
#                                libreswan, ikebana: leftcert=HOST-KIND and
#                                leftauth=/rightauth= rsasig or ecdsa per end
#   rcert=KIND                   the remote's cert, REMOTE-KIND (default: KIND),
#                                whose key type and ID this end expects
#   id=fqdn|dn|fromcert|ip       with cert=, how IDs are written (default fqdn):
#                                @HOST.ikebana.test; the cert's subject DN
#                                "C=CH, O=ikebana test, CN=west"; fromcert: the
#                                local ID is the subject (libreswan and ikebana
#                                leftid=%fromcert, strongSwan no id, which is the
#                                subject) and the remote's ID its DN; ip: the
#                                addresses, as with psk (they are in the SANs)
#   transport | tunnel           mode (default transport)
#   esp=P ike=P                  libreswan syntax (defaults aes_gcm128 and
#                                aes_gcm128-sha2_256-dh19); translated for strongSwan
#   replay=N esn=yes|no          replay window, ESN (default: the daemon's)
#   packets=N                    each ESP SA's packet limit: ipsec-max-packets=N;
#                                strongSwan life_packets=N, rekey_packets=N/2
#   af=4|6                       address family (default 4)
#   name=CONN                    conn name (default: both host names, sorted)
#   local=ADDR remote=ADDR       override the addresses (many-pairs)
#   secret=S                     the PSK
#   nat=yes                      remote is behind NAT: accept it from any address
#   lsubnet=NET rsubnet=NET      leftsubnet= and rightsubnet= (this end's, the
#                                remote's); strongSwan local_ts, remote_ts
# PEER_CONN_EXTRA (libreswan and ikebana: conn lines, \t and \n as printf
# %b writes them) is added to every conn written while it is set.
# Example, east answering west:  peer strongswan east west responder psk esp=aes_gcm128
# Without REMOTE, the daemon starts with the confs the scenario brings in
# $SCENARIO_DIR/HOST/ (see README) and nothing is generated.
# shellcheck shell=sh disable=SC2034,SC2015,SC2154
# (p_* are set by peer() in peer.sh, pki_* by pki_info in pki.sh; "a && b ||
# fail" is meant: fail exits)

peer() {
	p_daemon=$1 p_host=$2
	shift 2
	case $p_daemon in strongswan | libreswan | ikebana) ;; *) fail "peer: unknown daemon $p_daemon" ;; esac
	[ -d "$HOSTS/$p_host" ] || fail "peer: no host $p_host in the topology"
	p_remote='' p_role=responder p_auth=psk p_mode=transport p_esp=aes_gcm128
	p_ike=aes_gcm128-sha2_256-dh19 p_replay='' p_esn='' p_packets='' p_af=4 p_name='' p_secret=''
	p_local='' p_raddr='' p_nat='' p_cert='' p_rcert='' p_idk=fqdn
	p_lsub='' p_rsub=''
	for _a; do
		case $_a in
		initiator | responder | add) p_role=$_a ;;
		psk) p_auth=psk ;;
		cert=*) p_auth=cert p_cert=${_a#*=} ;;
		rcert=*) p_rcert=${_a#*=} ;;
		id=fqdn | id=dn | id=fromcert | id=ip) p_idk=${_a#*=} ;;
		transport | tunnel) p_mode=$_a ;;
		esp=*) p_esp=${_a#*=} ;;
		ike=*) p_ike=${_a#*=} ;;
		replay=*) p_replay=${_a#*=} ;;
		esn=*) p_esn=${_a#*=} ;;
		packets=*) p_packets=${_a#*=} ;;
		af=*) p_af=${_a#*=} ;;
		name=*) p_name=${_a#*=} ;;
		secret=*) p_secret=${_a#*=} ;;
		local=*) p_local=${_a#*=} ;;
		remote=*) p_raddr=${_a#*=} ;;
		nat=*) p_nat=${_a#*=} ;;
		lsubnet=*) p_lsub=${_a#*=} ;;
		rsubnet=*) p_rsub=${_a#*=} ;;
		*=*) fail "peer: unknown option $_a" ;;
		*) [ -z "$p_remote" ] && [ -d "$HOSTS/$_a" ] || fail "peer: '$_a' is not a host or a word"
		   p_remote=$_a ;;
		esac
	done
	_peer_note_daemon "$p_host" "$p_daemon"
	if [ -z "$p_remote" ]; then
		"${p_daemon}_use_scenario_confs" "$p_host"
		return
	fi
	[ -n "$p_local" ] || p_local=$(addr_of "$p_host" "$p_af")
	[ -n "$p_raddr" ] || p_raddr=$(seen_addr "$p_remote" "$p_af")
	# IDs are the hosts' own addresses, also behind NAT.
	p_lid=$p_local p_rid=$p_raddr
	[ -n "$p_nat" ] && p_rid=$(addr_of "$p_remote" "$p_af")
	[ "$p_auth" != cert ] || _peer_cert
	[ -n "$p_name" ] || p_name=$(printf '%s\n' "$p_host" "$p_remote" | sort | tr '\n' - | sed 's/-$//')
	[ -n "$p_secret" ] || p_secret="ikebana-testing-$p_name"
	log "peer $p_daemon on $p_host: conn $p_name $p_local <-> $p_raddr, $p_role, $p_auth${p_cert:+ $p_lnick/$p_rnick id=$p_idk}, $p_mode, esp=$p_esp${p_replay:+ replay=$p_replay}"
	# Each daemon's _conn also initiates when p_role is initiator.
	"${p_daemon}_conn" "$p_host" || fail "$p_daemon on $p_host: cannot set up conn $p_name"
}

# initiate HOST CONN: asks HOST's daemon to bring CONN up. Success of the
# command proves nothing (BASELINES 12): follow with expect_sa.
initiate() {
	_d=$(head -n 1 "$HOSTS/$1/daemons" 2>/dev/null) || fail "initiate: no daemon on $1"
	log "initiate $2 on $1 ($_d)"
	"${_d}_initiate" "$1" "$2" || log "$_d on $1: initiate $2 returned an error"
}

_peer_note_daemon() {
	grep -qx "$2" "$HOSTS/$1/daemons" 2>/dev/null || echo "$2" >>"$HOSTS/$1/daemons"
}

# _peer_cert: for cert=, sets p_lnick p_rnick (the two certs' nicknames),
# p_lkey p_rkey (rsa|ecdsa), p_lid p_rid (the IDs as libreswan writes them;
# p_lid empty for fromcert: strongSwan then takes the subject) and fills the
# host's credential store on its first cert conn.
_peer_cert() {
	[ -n "$p_rcert" ] || p_rcert=$p_cert
	p_lnick=$p_host-$p_cert p_rnick=$p_remote-$p_rcert
	pki_make "$PKI" || fail "pki: cannot make the test PKI in $PKI"
	[ -e "$PKI/$p_lnick.info" ] || fail "peer: no cert $p_lnick in the test PKI (cert=$p_cert)"
	[ -e "$PKI/$p_rnick.info" ] || fail "peer: no cert $p_rnick in the test PKI (rcert=$p_rcert)"
	pki_info "$p_rnick"
	p_rkey=$pki_key
	case $p_idk in
	fqdn) p_rid=@$pki_fqdn ;;
	dn | fromcert) p_rid=$pki_dn ;;
	esac
	pki_info "$p_lnick"
	p_lkey=$pki_key
	case $p_idk in
	fqdn) p_lid=@$pki_fqdn ;;
	dn) p_lid=$pki_dn ;;
	fromcert) p_lid='' ;;
	esac
	[ -e "$HOSTS/$p_host/certs.$p_daemon" ] && return
	_pn=''
	for _pf in "$PKI/$p_host"-*.info; do
		_pf=${_pf##*/}
		_pn="$_pn ${_pf%.info}"
	done
	# shellcheck disable=SC2086 # _pn is a list of nicknames
	"${p_daemon}_certs" "$p_host" $_pn || fail "$p_daemon on $p_host: cannot store the certs$_pn"
	log "pki: $p_daemon on $p_host has the CAs, CRLs and$_pn"
	: >"$HOSTS/$p_host/certs.$p_daemon"
}

# The conn's PSK as a libreswan/ikebana secrets line.
_peer_psk_line() { printf '%s %s : PSK "%s"\n' "$p_lid" "$p_rid" "$p_secret"; }
