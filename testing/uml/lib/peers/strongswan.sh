# strongSwan as a peer: charon + swanctl (Debian packages). Each host has its
# own STRONGSWAN_CONF, its vici socket in its rundir, and charon runs with a
# private /run because its pid file path is compiled in (BASELINES 5).
# shellcheck shell=sh disable=SC2154
# (p_* are set by peer() in peer.sh; "a && b || fail" is meant: fail exits)

_ss_uri() { echo "unix://$HOSTS/$1/run/charon.vici"; }

# swanctl HOST ARGS...: swanctl against HOST's charon; output goes to the
# host's swanctl.log. `--uri` must follow the command word (BASELINES 6).
_ss_swanctl() {
	_sh=$1 _cmd=$2
	shift 2
	echo "# swanctl $_cmd $*" >>"$HOSTS/$_sh/log/swanctl.log"
	STRONGSWAN_CONF=$HOSTS/$_sh/etc/strongswan.conf \
		t 30 swanctl "$_cmd" --uri "$(_ss_uri "$_sh")" "$@" >>"$HOSTS/$_sh/log/swanctl.log" 2>&1
}

strongswan_start() {
	_H=$HOSTS/$1
	[ -S "$_H/run/charon.vici" ] && return 0
	for _d in conf.d x509 x509ca x509aa x509ocsp x509crl x509ac pubkey private rsa ecdsa bliss pkcs8 pkcs12; do
		mkdir -p "$_H/etc/swanctl/$_d"
	done
	echo "include $_H/etc/swanctl/conf.d/*.conf" >"$_H/etc/swanctl/swanctl.conf"
	# An explicit plugin list: Debian's ~40 plugins take seconds to load in
	# UML. STRONGSWAN_PLUGINS adds more (e.g. pem pkcs1 x509 for certificates).
	cat >"$_H/etc/strongswan.conf" <<-CONF
	charon {
		load = random nonce openssl kdf drbg kernel-netlink socket-default vici updown ${STRONGSWAN_PLUGINS:-}
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
		load = random openssl ${STRONGSWAN_PLUGINS:-}
	}
	CONF
	STRONGSWAN_CONF=$_H/etc/strongswan.conf ip netns exec "$1" \
		sh -c 'mount -t tmpfs run /run && exec /usr/lib/ipsec/charon' \
		>"$_H/log/charon-stderr.log" 2>&1 &
	wait_for 15 "charon on $1" test -S "$_H/run/charon.vici"
	log "charon running on $1"
}

# _ss_prop esp|ike PROPOSAL: libreswan's proposal syntax to strongSwan's.
_ss_prop() {
	echo "$2" | tr '-' '\n' | awk -v kind="$1" -v esn="$p_esn" '
	NR == 1 && /gcm|chacha/ { aead = 1 }
	/^aes_gcm(128)?$/ { o = o "-aes128gcm16"; next }
	/^aes_gcm256$/ { o = o "-aes256gcm16"; next }
	/^aes_gcm192$/ { o = o "-aes192gcm16"; next }
	/^chacha20_poly1305$/ { o = o "-chacha20poly1305"; next }
	/^aes$/ { o = o "-aes128"; next }
	/^sha2_(256|384|512)$/ { b = substr($0, 6); o = o "-" (kind == "ike" && aead ? "prf" : "") "sha" b; next }
	/^sha1?$/ { o = o "-" (kind == "ike" && aead ? "prf" : "") "sha1"; next }
	/^dh14$/ { o = o "-modp2048"; next }
	/^dh15$/ { o = o "-modp3072"; next }
	/^dh16$/ { o = o "-modp4096"; next }
	/^dh19$/ { o = o "-ecp256"; next }
	/^dh20$/ { o = o "-ecp384"; next }
	/^dh21$/ { o = o "-ecp521"; next }
	/^dh31$/ { o = o "-curve25519"; next }
	{ o = o "-" $0 }
	END { if (kind == "esp" && esn == "yes") o = o "-esn"
	      if (kind == "esp" && esn == "no") o = o "-noesn"
	      print substr(o, 2) }'
}

# Writes conf.d/NAME.conf from the peer variables (see peer.sh) and loads it.
# An initiator's child says start_action = start, so loading it initiates:
# a swanctl call costs ~1 s in UML.
strongswan_conn() {
	strongswan_start "$p_host"
	_raddrs=$p_raddr
	[ -n "$p_nat" ] && _raddrs=%any
	cat >"$HOSTS/$p_host/etc/swanctl/conf.d/$p_name.conf" <<-CONF
	connections {
		$p_name {
			version = 2
			local_addrs = $p_local
			remote_addrs = $_raddrs
			proposals = $(_ss_prop ike "$p_ike")
			local {
				auth = psk
				id = $p_lid
			}
			remote {
				auth = psk
				id = $p_rid
			}
			children {
				$p_name {
					mode = $p_mode
					esp_proposals = $(_ss_prop esp "$p_esp")
					${p_replay:+replay_window = $p_replay}
					start_action = $( [ "$p_role" = initiator ] && echo start || echo none)
				}
			}
		}
	}
	secrets {
		ike-$p_name {
			id-1 = $p_lid
			id-2 = $p_rid
			secret = "$p_secret"
		}
	}
	CONF
	_ss_swanctl "$p_host" --load-all --file "$HOSTS/$p_host/etc/swanctl/swanctl.conf"
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
