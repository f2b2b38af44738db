# libreswan 4.10 as a peer: pluto + whack, unpacked (not installed) under
# $IKB_CACHE/libreswan-root by install-deps (BASELINES 1). Each host passes
# every path explicitly so that pluto never falls back to its defaults, which
# belong to strongSwan here (BASELINES 4).
# shellcheck shell=sh disable=SC2154,SC2015
# (p_* are set by peer() in peer.sh; "a && b || fail" is meant: fail exits)

LS_ROOT=$IKB_CACHE/libreswan-root
LS_EXEC=$LS_ROOT/usr/libexec/ipsec

# Once per boot, in the root mount namespace (the hosts' namespaces inherit
# it). pluto runs the hard-coded /usr/libexec/ipsec/addconn (BASELINES 2):
# overlay /usr/libexec with a tmpfs of symlinks plus ipsec -> libreswan's.
# Its updown runs `ipsec _updown` through PATH, and /usr/sbin/ipsec is
# strongSwan's (BASELINES 3): bind libreswan's over it. Under /srv, not
# /run, because charon hides /run in its namespace.
libreswan_prepare() {
	[ -e /srv/libexec.new/ipsec ] && return 0
	[ -x "$LS_EXEC/pluto" ] || fail "libreswan is not unpacked in $LS_ROOT: run testing/uml/install-deps"
	mkdir -p /srv/libexec.orig /srv/libexec.new
	mount --bind /usr/libexec /srv/libexec.orig &&
		mount -t tmpfs libexec /srv/libexec.new || fail "libreswan: cannot overlay /usr/libexec"
	for _e in /srv/libexec.orig/*; do
		[ "${_e##*/}" = ipsec ] || ln -s "$_e" "/srv/libexec.new/${_e##*/}"
	done
	ln -s "$LS_EXEC" /srv/libexec.new/ipsec
	mount --bind /srv/libexec.new /usr/libexec &&
		mount --bind "$LS_ROOT/usr/sbin/ipsec" /usr/sbin/ipsec || fail "libreswan: bind mounts failed"
}

_ls_ctl() { echo "$HOSTS/$1/run/pluto.ctl"; }

# _ls_whack HOST ARGS...: output goes to the host's whack.log.
_ls_whack() {
	_lh=$1
	shift
	echo "# whack $*" >>"$HOSTS/$_lh/log/whack.log"
	t 30 "$LS_EXEC/whack" --ctlsocket "$(_ls_ctl "$_lh")" "$@" \
		>>"$HOSTS/$_lh/log/whack.log" 2>&1
}

libreswan_start() {
	_H=$HOSTS/$1
	[ -S "$(_ls_ctl "$1")" ] && return 0
	libreswan_prepare
	mkdir -p "$_H/etc/ipsec.d/conns"
	# printf, not a <<- here-document: ipsec.conf needs the indentation.
	# LIBRESWAN_SETUP: more config setup lines (printf %b)
	printf 'config setup\n\tlogfile=%s\n\tlogappend=yes\n\tdumpdir=%s\n%b\n' \
		"$_H/log/pluto.log" "$_H/run" "${LIBRESWAN_SETUP:-}" >"$_H/etc/ipsec.conf"
	[ -e "$_H/etc/ipsec.secrets" ] || : >"$_H/etc/ipsec.secrets"
	chmod 600 "$_H/etc/ipsec.secrets"
	# A cert= peer may have made the db already (pki_nssdb).
	[ -e "$_H/nss/cert9.db" ] ||
		t 20 certutil -N -d "sql:$_H/nss" --empty-password || fail "certutil on $1"
	ip netns exec "$1" "$LS_EXEC/pluto" --nofork --config "$_H/etc/ipsec.conf" \
		--rundir "$_H/run" --nssdir "$_H/nss" --secretsfile "$_H/etc/ipsec.secrets" \
		--ipsecdir "$_H/etc/ipsec.d" >"$_H/log/pluto-stderr.log" 2>&1 &
	wait_for 15 "pluto on $1" test -S "$(_ls_ctl "$1")"
	log "pluto running on $1"
}

# _ls_add HOST FILE: synchronous load of the conns in FILE (pluto's own
# addconn fork at startup is asynchronous; --autoall also makes pluto
# listen), then reread the secrets.
_ls_add() {
	echo "# addconn --config $2 --autoall" >>"$HOSTS/$1/log/whack.log"
	t 30 ip netns exec "$1" "$LS_EXEC/addconn" --ctlsocket "$(_ls_ctl "$1")" \
		--config "$2" --autoall >>"$HOSTS/$1/log/whack.log" 2>&1 &&
		_ls_whack "$1" --rereadsecrets
}

# Writes ipsec.d/conns/NAME.conf from the peer variables and loads it.
libreswan_conn() {
	libreswan_start "$p_host"
	libreswan_write_conn
	_ls_add "$p_host" "$_f" || return
	[ "$p_role" != initiator ] || initiate "$p_host" "$p_name"
}

# libreswan_write_conn: only writes ipsec.d/conns/NAME.conf (its path in
# _f) and the secret, so that many conns cost one _ls_add of a file that
# holds them all.
libreswan_write_conn() {
	_f=$HOSTS/$p_host/etc/ipsec.d/conns/$p_name.conf
	_right=$p_raddr
	[ -n "$p_nat" ] && _right=%any
	{
		echo "conn $p_name"
		_ipsec_conf_body "$_right"
		echo "	leftupdown=%disabled"
	} >"$_f"
	# With certs, pluto finds the key in its NSS db by the cert.
	[ "$p_auth" = cert ] || _peer_psk_line >>"$HOSTS/$p_host/etc/ipsec.secrets"
}

# libreswan_certs HOST NICK...: the NSS db pluto reads (--nssdir), made
# before pluto starts when the host's first conn is a cert= one.
libreswan_certs() {
	_lh=$1
	shift
	pki_nssdb "$HOSTS/$_lh/nss" "$@"
}

# The conn keys ikebana shares with libreswan. updown is disabled: in UML
# its forks dominate SA setup and cause retransmits (BASELINES 11). auto is
# add unless p_auto says otherwise (start: many conns initiated by loading
# them, without one command each). With certs, each end says its own auth
# (leftauth= and rightauth=, not authby=, so RSA can meet ECDSA), the cert
# is sent unasked, and an ID with a space (a DN) is quoted.
_ipsec_conf_body() {
	if [ "$p_auth" = cert ]; then
		_lid=${p_lid:-%fromcert}
		case $_lid in *' '*) _lid="\"$_lid\"" ;; esac
		_rid=$p_rid
		case $_rid in *' '*) _rid="\"$_rid\"" ;; esac
		_la=rsasig _ra=rsasig
		[ "$p_lkey" = ecdsa ] && _la=ecdsa
		[ "$p_rkey" = ecdsa ] && _ra=ecdsa
		printf '\t%s\n' "left=$p_local" "leftid=$_lid" "leftcert=$p_lnick" \
			"leftsendcert=always" "leftauth=$_la" "right=$1" "rightid=$_rid" "rightauth=$_ra"
	else
		printf '\t%s\n' "left=$p_local" "leftid=$p_lid" "right=$1" "rightid=$p_rid" \
			"authby=secret"
	fi
	printf '\t%s\n' "type=$p_mode" "ike=$p_ike" "esp=$p_esp" "auto=${p_auto:-add}"
	[ -z "$p_lsub" ] || printf '\tleftsubnet=%s\n' "$p_lsub"
	[ -z "$p_rsub" ] || printf '\trightsubnet=%s\n' "$p_rsub"
	[ -z "${PEER_CONN_EXTRA:-}" ] || printf '%b\n' "$PEER_CONN_EXTRA"
	[ -z "$p_replay" ] || printf '\treplay-window=%s\n' "$p_replay"
	[ -z "$p_esn" ] || printf '\tesn=%s\n' "$p_esn"
	[ -z "$p_packets" ] || printf '\tipsec-max-packets=%s\n' "$p_packets"
}

# Scenario-supplied confs: $SCENARIO_DIR/HOST/ipsec.conf (conns only) and
# optionally ipsec.secrets.
libreswan_use_scenario_confs() {
	_src=$SCENARIO_DIR/$1
	[ -r "$_src/ipsec.conf" ] || fail "libreswan on $1: no $_src/ipsec.conf"
	[ -r "$_src/ipsec.secrets" ] && cat "$_src/ipsec.secrets" >>"$HOSTS/$1/etc/ipsec.secrets"
	libreswan_start "$1"
	cp "$_src/ipsec.conf" "$HOSTS/$1/etc/ipsec.d/conns/scenario.conf"
	_ls_add "$1" "$HOSTS/$1/etc/ipsec.d/conns/scenario.conf" ||
		fail "libreswan on $1: addconn failed"
}

libreswan_initiate() { _ls_whack "$1" --initiate --name "$2"; }

libreswan_status() {
	t 20 "$LS_EXEC/whack" --ctlsocket "$(_ls_ctl "$1")" --trafficstatus
	t 20 "$LS_EXEC/whack" --ctlsocket "$(_ls_ctl "$1")" --showstates
}
