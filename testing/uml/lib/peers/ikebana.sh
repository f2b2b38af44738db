# ikebana as a peer: ikebanad with every path explicit, driven by the ikebana
# CLI. The binaries come from $IKB_BUILD (default: the repo's build/).
# The conn syntax is libreswan's, so the generator is shared with libreswan.
# shellcheck shell=sh disable=SC2154,SC2015
# (p_* are set by peer() in peer.sh; "a && b || fail" is meant: fail exits)

IKB_DAEMON=$IKB_BUILD/daemon/ikebanad
IKB_CLI=$IKB_BUILD/daemon/cli/ikebana

# _ikb HOST ARGS...: the CLI against HOST's daemon; output to ikebana.log.
_ikb() {
	_ih=$1
	shift
	echo "# ikebana $*" >>"$HOSTS/$_ih/log/ikebana.log"
	t 30 ip netns exec "$_ih" "$IKB_CLI" --rundir "$HOSTS/$_ih/run" "$@" \
		>>"$HOSTS/$_ih/log/ikebana.log" 2>&1
}


# ikebana_start HOST: starts ikebanad on HOST's etc/ikebana.conf (which
# includes etc/ikebana.d/*.conf) and etc/ikebana.secrets.
ikebana_start() {
	_H=$HOSTS/$1
	[ -e "$_H/ikebanad.pid" ] && return 0
	[ -x "$IKB_DAEMON" ] && [ -x "$IKB_CLI" ] || fail "ikebana: $IKB_DAEMON or $IKB_CLI not built"
	mkdir -p "$_H/etc/ikebana.d"
	# nssdir= only once a cert= peer has filled the host's NSS db: a
	# daemon without cert support would refuse the key.
	_nss=''
	[ -e "$_H/nss/ikebana-pki" ] && _nss="\tnssdir=$_H/nss\n"
	# IKEBANA_SETUP: more config setup lines (printf %b)
	[ -e "$_H/etc/ikebana.conf" ] ||
		printf "config setup\n\t# plugins: the defaults\n$_nss%b\ninclude %s/*.conf\n" \
			"${IKEBANA_SETUP:-}" "$_H/etc/ikebana.d" >"$_H/etc/ikebana.conf"
	[ -e "$_H/etc/ikebana.secrets" ] || : >"$_H/etc/ikebana.secrets"
	chmod 600 "$_H/etc/ikebana.secrets"
	# etc/resolv.conf (lib/dns.sh): the daemon's, in its own mount
	# namespace (ip netns exec unshares it), so that names resolve there
	_rc=/etc/resolv.conf
	[ -e "$_H/etc/resolv.conf" ] && _rc=$_H/etc/resolv.conf
	# IKB_DAEMON_WRAP: a command the daemon runs under (valgrind), its
	# words split; IKB_START_WAIT: how long it may take to answer
	# shellcheck disable=SC2086
	ip netns exec "$1" sh -c '[ "$0" = /etc/resolv.conf ] ||
		mount --bind "$0" /etc/resolv.conf && exec "$@"' "$_rc" \
		${IKB_DAEMON_WRAP:-} "$IKB_DAEMON" --nofork --config "$_H/etc/ikebana.conf" \
		--secrets "$_H/etc/ikebana.secrets" --rundir "$_H/run" \
		>>"$_H/log/ikebanad.log" 2>&1 &
	echo "$!" >"$_H/ikebanad.pid"
	wait_for "${IKB_START_WAIT:-15}" "ikebanad on $1 answering 'status'" _ikb "$1" status
	log "ikebanad running on $1"
}

# Writes ikebana.d/NAME.conf and its secret. A daemon already running
# rereads its config; one not yet started reads it when it starts.
ikebana_conn() {
	mkdir -p "$HOSTS/$p_host/etc/ikebana.d"
	_right=$p_raddr
	[ -n "$p_nat" ] && _right=%any
	{
		echo "conn $p_name"
		_ipsec_conf_body "$_right"
	} >"$HOSTS/$p_host/etc/ikebana.d/$p_name.conf"
	[ "$p_auth" = cert ] || _peer_psk_line >>"$HOSTS/$p_host/etc/ikebana.secrets"
	: >>"$HOSTS/$p_host/etc/ikebana.secrets"
	chmod 600 "$HOSTS/$p_host/etc/ikebana.secrets"
	if [ -e "$HOSTS/$p_host/ikebanad.pid" ]; then
		_ikb "$p_host" reload || return
	else
		ikebana_start "$p_host"
	fi
	[ "$p_role" != initiator ] || initiate "$p_host" "$p_name"
}

# ikebana_certs HOST NICK...: the NSS db, in libreswan's layout, that
# ikebanad reads (config setup nssdir=, written when it starts).
ikebana_certs() {
	_ih=$1
	shift
	[ ! -e "$HOSTS/$_ih/ikebanad.pid" ] ||
		fail "ikebana on $_ih: ikebanad runs without nssdir= (start it with a cert= peer)"
	pki_nssdb "$HOSTS/$_ih/nss" "$@"
}

# ikebana_use_confs HOST CONF [SECRETS]: starts ikebanad on HOST with a copy
# of CONF and SECRETS (copied: the daemon wants a 0600 secrets file).
ikebana_use_confs() {
	_peer_note_daemon "$1" ikebana
	cp "$2" "$HOSTS/$1/etc/ikebana.conf"
	[ -z "${3:-}" ] || cp "$3" "$HOSTS/$1/etc/ikebana.secrets"
	ikebana_start "$1"
}

# Scenario-supplied confs: $SCENARIO_DIR/HOST/ikebana.conf (+ ikebana.secrets).
ikebana_use_scenario_confs() {
	_src=$SCENARIO_DIR/$1
	[ -r "$_src/ikebana.conf" ] || fail "ikebana on $1: no $_src/ikebana.conf"
	if [ -r "$_src/ikebana.secrets" ]; then
		ikebana_use_confs "$1" "$_src/ikebana.conf" "$_src/ikebana.secrets"
	else
		ikebana_use_confs "$1" "$_src/ikebana.conf"
	fi
}

ikebana_initiate() { _ikb "$1" up "$2"; }

ikebana_status() { t 20 "$IKB_CLI" --rundir "$HOSTS/$1/run" status; }
