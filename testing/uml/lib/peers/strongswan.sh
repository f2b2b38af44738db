# strongSwan as a peer: charon + swanctl (Debian packages). Each host has its
# own STRONGSWAN_CONF, its vici socket in its rundir, and charon runs with a
# private /run because its pid file path is compiled in (BASELINES 5).
# shellcheck shell=sh disable=SC2154
# (p_* are set by peer() in peer.sh; "a && b || fail" is meant: fail exits)

_ss_uri() { echo "unix://$HOSTS/$1/run/charon.vici"; }

# swanctl HOST ARGS...: swanctl against HOST's charon; output goes to the
# host's swanctl.log. `--uri` must follow the command word (BASELINES 6).
# SWANCTL_TIMEOUT: seconds it may take (default 30; a bench loading
# thousands of conns sets more).
_ss_swanctl() {
	_sh=$1 _cmd=$2
	shift 2
	echo "# swanctl $_cmd $*" >>"$HOSTS/$_sh/log/swanctl.log"
	STRONGSWAN_CONF=$HOSTS/$_sh/etc/strongswan.conf \
		t "${SWANCTL_TIMEOUT:-30}" swanctl "$_cmd" --uri "$(_ss_uri "$_sh")" "$@" \
		>>"$HOSTS/$_sh/log/swanctl.log" 2>&1
}

strongswan_start() {
	_H=$HOSTS/$1
	[ -S "$_H/run/charon.vici" ] && return 0
	for _d in conf.d x509 x509ca x509aa x509ocsp x509crl x509ac pubkey private rsa ecdsa bliss pkcs8 pkcs12; do
		mkdir -p "$_H/etc/swanctl/$_d"
	done
	echo "include $_H/etc/swanctl/conf.d/*.conf" >"$_H/etc/swanctl/swanctl.conf"
	# An explicit plugin list: Debian's ~40 plugins take seconds to load in
	# UML. STRONGSWAN_PLUGINS adds more. Once the test PKI exists (a cert=
	# peer made it), the certificate plugins: PEM, PKCS#1 and PKCS#8 keys,
	# X.509, CRL checks, path constraints, public key auth (the openssl
	# plugin does the crypto). A charon started before cannot do certs.
	_ss_plugins=${STRONGSWAN_PLUGINS:-}
	if [ -e "$PKI/done" ]; then
		_ss_plugins="pem pkcs1 pkcs8 x509 revocation constraints pubkey $_ss_plugins"
		: >"$_H/run/charon.certs"
	fi
	cat >"$_H/etc/strongswan.conf" <<-CONF
	charon {
		load = random nonce openssl kdf drbg kernel-netlink socket-default vici updown $_ss_plugins
		${STRONGSWAN_CHARON:-}
		plugins {
			vici {
				socket = $(_ss_uri "$1")
			}
		}
		filelog {
			charon {
				path = $_H/log/charon.log
				time_format = %T
				ike_name = yes
				flush_line = yes
				default = 1
			}
		}
	}
	swanctl {
		load = random openssl $_ss_plugins
	}
	CONF
	STRONGSWAN_CONF=$_H/etc/strongswan.conf ip netns exec "$1" \
		sh -c 'mount -t tmpfs run /run && exec /usr/lib/ipsec/charon' \
		>"$_H/log/charon-stderr.log" 2>&1 &
	wait_for 15 "charon on $1" test -S "$_H/run/charon.vici"
	log "charon running on $1"
}

# _ss_prop esp|ike PROPOSAL...: libreswan's proposal syntax to strongSwan's,
# one line per PROPOSAL. "null" is the null cipher (ENCR_NULL, ESP only),
# except after an AEAD, where libreswan's "-null" says "no integrity"
# (aes_gcm128-null); 3des, aes128 and aes256 are the same words in both.
_ss_prop() {
	_sk=$1
	shift
	printf '%s\n' "$@" | awk -v kind="$_sk" -v esn="$p_esn" '
	function word(w) {
		if (w ~ /^aes_gcm(128)?$/) return "aes128gcm16"
		if (w ~ /^aes_gcm(192|256)$/) return "aes" substr(w, 8) "gcm16"
		if (w == "chacha20_poly1305") return "chacha20poly1305"
		if (w == "aes") return "aes128"
		if (w ~ /^aes_ctr(128)?$/) return "aes128ctr"
		if (w ~ /^aes_ctr(192|256)$/) return "aes" substr(w, 8) "ctr"
		if (w == "null") return aead ? "" : "null"
		if (w == "aes_xcbc") return prf "aesxcbc"
		if (w ~ /^sha2_(256|384|512)$/) return prf "sha" substr(w, 6)
		if (w ~ /^sha1?$/) return prf "sha1"
		if (w ~ /^dh(14|15|16)$/) return "modp" (w == "dh14" ? 2048 : w == "dh15" ? 3072 : 4096)
		if (w ~ /^dh(19|20|21)$/) return "ecp" (w == "dh19" ? 256 : w == "dh20" ? 384 : 521)
		if (w == "dh31") return "curve25519"
		return w
	}
	{
		n = split($0, t, "-")
		aead = t[1] ~ /gcm|chacha/
		prf = kind == "ike" && aead ? "prf" : ""
		o = ""
		for (i = 1; i <= n; i++) if ((w = word(t[i])) != "") o = o "-" w
		if (kind == "esp" && esn == "yes") o = o "-esn"
		if (kind == "esp" && esn == "no") o = o "-noesn"
		print substr(o, 2)
	}'
}

# _ss_propv esp|ike PROPOSAL: sets _ss_p to _ss_prop's answer, from a cache
# that _ss_prop_cache fills for many proposals with one awk (a process costs
# ~0.1 s in UML, more when it is busy).
_ss_propv() {
	_sck="
$1:$p_esn:$2="
	case ${_ss_cache:-} in
	*"$_sck"*) ;;
	*) _ss_prop_cache "$1" "$2" ;;
	esac
	_ss_p=${_ss_cache#*"$_sck"}
	_ss_p=${_ss_p%%"
"*}
}

# strongswan_prop_cache esp|ike PROPOSAL...: translates them all at once.
strongswan_prop_cache() { _ss_prop_cache "$@"; }
_ss_prop_cache() {
	_sk=$1
	shift
	_ss_out=$(_ss_prop "$_sk" "$@")
	for _sp; do
		_ss_cache="${_ss_cache:-}
$_sk:$p_esn:$_sp=${_ss_out%%"
"*}"
		_ss_out=${_ss_out#*"
"}
	done
	_ss_cache="$_ss_cache
"
}

# Writes conf.d/NAME.conf from the peer variables (see peer.sh) and loads it.
# An initiator's child says start_action = start, so loading it initiates:
# a swanctl call costs ~1 s in UML.
strongswan_conn() {
	strongswan_start "$p_host"
	strongswan_write_conn
	strongswan_load "$p_host"
}

# strongswan_load HOST: loads every conn written so far (new ones with
# start_action = start initiate; unchanged ones are left alone).
strongswan_load() {
	_ss_swanctl "$1" --load-all --file "$HOSTS/$1/etc/swanctl/swanctl.conf"
}

# strongswan_certs HOST NICK...: HOST's certs, keys, the CAs and CRLs in
# its swanctl dirs; --load-all loads them with the conns.
strongswan_certs() {
	_sh=$1
	shift
	[ ! -S "$HOSTS/$_sh/run/charon.vici" ] || [ -e "$HOSTS/$_sh/run/charon.certs" ] ||
		fail "strongswan on $_sh: charon runs without the certificate plugins (start it with a cert= peer)"
	pki_swanctl "$HOSTS/$_sh/etc/swanctl" "$@"
}

# _ss_auth: sets _ss_l and _ss_r, the local and remote sections' lines,
# and _ss_sec, the secrets section (PSK only). No subshell: a fork costs
# ~20 ms in UML, and the matrix writes many conns.
_ss_auth() {
	_ss_sec=''
	if [ "$p_auth" = cert ]; then
		_ss_l="auth = pubkey
certs = $p_lnick.pem"
		[ -z "$p_lid" ] || _ss_l="$_ss_l
id = \"${p_lid#@}\""
		_ss_r="auth = pubkey
id = \"${p_rid#@}\""
		return
	fi
	_ss_l="auth = psk
id = $p_lid"
	_ss_r="auth = psk
id = $p_rid"
	_ss_sec="secrets {
	ike-$p_name {
		id-1 = $p_lid
		id-2 = $p_rid
		secret = \"$p_secret\"
	}
}"
}

# strongswan_write_conn: only writes conf.d/NAME.conf (charon started), so
# that many conns cost one strongswan_load.
strongswan_write_conn() {
	_ss_propv ike "$p_ike"
	_ss_ike=$_ss_p
	_ss_propv esp "$p_esp"
	_ss_esp=$_ss_p
	_ss_start=none
	[ "$p_role" = initiator ] && _ss_start=start
	_raddrs=$p_raddr
	[ -n "$p_nat" ] && _raddrs=%any
	# The cert goes out even unasked: a refusal must be for the cert.
	_ss_sendcert=''
	[ "$p_auth" = cert ] && _ss_sendcert='send_cert = always'
	_ss_auth
	_ss_life=''
	[ -z "$p_packets" ] ||
		_ss_life="life_packets = $p_packets
					rekey_packets = $((p_packets / 2))"
	cat >"$HOSTS/$p_host/etc/swanctl/conf.d/$p_name.conf" <<-CONF
	connections {
		$p_name {
			version = 2
			local_addrs = $p_local
			remote_addrs = $_raddrs
			proposals = $_ss_ike
			${_ss_sendcert}
			local {
				$_ss_l
			}
			remote {
				$_ss_r
			}
			children {
				$p_name {
					mode = $p_mode
					${p_lsub:+local_ts = $p_lsub}
					${p_rsub:+remote_ts = $p_rsub}
					esp_proposals = $_ss_esp
					${p_replay:+replay_window = $p_replay}
					$_ss_life
					start_action = $_ss_start
				}
			}
		}
	}
	$_ss_sec
	CONF
}

# Scenario-supplied confs: $SCENARIO_DIR/HOST/swanctl.conf.
strongswan_use_scenario_confs() {
	[ -r "$SCENARIO_DIR/$1/swanctl.conf" ] || fail "strongswan on $1: no $SCENARIO_DIR/$1/swanctl.conf"
	strongswan_start "$1"
	cp "$SCENARIO_DIR/$1/swanctl.conf" "$HOSTS/$1/etc/swanctl/conf.d/scenario.conf"
	_ss_swanctl "$1" --load-all --file "$HOSTS/$1/etc/swanctl/swanctl.conf" ||
		fail "strongswan on $1: swanctl --load-all failed"
}

strongswan_initiate() { _ss_swanctl "$1" --initiate --child "$2" --timeout 20; }

strongswan_status() {
	STRONGSWAN_CONF=$HOSTS/$1/etc/strongswan.conf t 20 swanctl --list-sas --uri "$(_ss_uri "$1")"
}
