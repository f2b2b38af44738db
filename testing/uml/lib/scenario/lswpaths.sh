# ikebana with libreswan's paths, as ikebana-libreswan-compat installs it,
# under a prefix per host ($HOSTS/HOST/lsw): usr/sbin/ipsec (ikebana's ipsec
# command), sbin/ip, etc/ipsec.conf and etc/ipsec.secrets (including
# etc/ipsec.d/*), etc/ipsec.d (NSS), run/pluto/pluto.ctl. The tools that
# drive libreswan get the prefix (ovs-monitor-ipsec --root-prefix) or
# the socket (ipsec --ctlsocket).
# shellcheck shell=sh

IPSEC_CMD=$IKB_BUILD/daemon/ipsec/ipsec

lsw_prefix() { echo "$HOSTS/$1/lsw"; }

# lsw_ikebana HOST: ikebanad with libreswan's paths under HOST's prefix.
lsw_ikebana() {
	_p=$(lsw_prefix "$1")
	mkdir -p "$_p/usr/sbin" "$_p/sbin" "$_p/etc/ipsec.d" "$_p/run/pluto"
	ln -sf "$IPSEC_CMD" "$_p/usr/sbin/ipsec"
	ln -sf "$(command -v ip)" "$_p/sbin/ip"
	# as ikebana-libreswan-compat ships them
	printf 'config setup\n\ninclude %s/etc/ipsec.d/*.conf\n' "$_p" >"$_p/etc/ipsec.conf"
	printf 'include %s/etc/ipsec.d/*.secrets\n' "$_p" >"$_p/etc/ipsec.secrets"
	chmod 600 "$_p/etc/ipsec.secrets"
	# as ipsec.service: the NSS database the tools import into
	"$IPSEC_CMD" checknss --nssdir "$_p/etc/ipsec.d" >/dev/null ||
		fail "ipsec checknss on $1"
	ip netns exec "$1" "$IKB_BUILD/daemon/ikebanad" --nofork --libreswan-paths \
		--config "$_p/etc/ipsec.conf" --secrets "$_p/etc/ipsec.secrets" \
		--rundir "$HOSTS/$1/run" --nssdir "$_p/etc/ipsec.d" \
		--ctlsocket "$_p/run/pluto/pluto.ctl" \
		>>"$HOSTS/$1/log/ikebanad.log" 2>&1 &
	echo "$!" >"$HOSTS/$1/ikebanad.pid"
	echo lsw >>"$HOSTS/$1/daemons" # the dump shows lsw_status
	wait_for 15 "ikebanad on $1 answering at pluto.ctl" lsw_ipsec "$1" status
	log "ikebanad running on $1 under the libreswan paths of $_p"
}

# lsw_ipsec HOST ARGS...: the ipsec command as the monitor calls it.
lsw_ipsec() {
	_lh=$1
	shift
	t 30 ip netns exec "$_lh" "$IPSEC_CMD" --ctlsocket \
		"$(lsw_prefix "$_lh")/run/pluto/pluto.ctl" "$@"
}


# For the dump: what ipsec status says.
lsw_status() { lsw_ipsec "$1" status; }

# lsw_libreswan HOST: real libreswan 4.10 (unpacked, lib/peers/libreswan.sh)
# under HOST's prefix instead: its own ipsec script (usr/sbin/ipsec), pluto
# on run/pluto/pluto.ctl, the NSS database in etc/ipsec.d. The tools reach
# it through the script, which takes these paths from IPSEC_RUNDIR,
# IPSEC_CONF and IPSEC_NSSDIR (lsw_env HOST prints them).
lsw_libreswan() {
	_p=$(lsw_prefix "$1")
	libreswan_prepare
	mkdir -p "$_p/usr/sbin" "$_p/sbin" "$_p/etc/ipsec.d" "$_p/run/pluto"
	ln -sf /usr/sbin/ipsec "$_p/usr/sbin/ipsec"
	ln -sf "$(command -v ip)" "$_p/sbin/ip"
	printf 'config setup\n\tlogfile=%s\n\tlogappend=yes\n' \
		"$HOSTS/$1/log/pluto.log" >"$_p/etc/ipsec.conf"
	: >"$_p/etc/ipsec.secrets"
	chmod 600 "$_p/etc/ipsec.secrets"
	t 20 certutil -N -d "sql:$_p/etc/ipsec.d" --empty-password ||
		fail "certutil on $1"
	ip netns exec "$1" "$LS_EXEC/pluto" --nofork --config "$_p/etc/ipsec.conf" \
		--rundir "$_p/run/pluto" --nssdir "$_p/etc/ipsec.d" \
		--secretsfile "$_p/etc/ipsec.secrets" --ipsecdir "$_p/etc/ipsec.d" \
		>"$HOSTS/$1/log/pluto-stderr.log" 2>&1 &
	echo "$!" >"$HOSTS/$1/pluto.pid"
	echo libreswan >"$HOSTS/$1/lsw-daemon"
	wait_for 15 "pluto on $1" test -S "$_p/run/pluto/pluto.ctl"
	log "libreswan 4.10 running on $1 under the libreswan paths of $_p"
}

# lsw_env HOST: the environment HOST's tools run the ipsec command with.
lsw_env() {
	_p=$(lsw_prefix "$1")
	[ -e "$HOSTS/$1/lsw-daemon" ] &&
		echo "IPSEC_RUNDIR=$_p/run/pluto IPSEC_CONF=$_p/etc/ipsec.conf IPSEC_NSSDIR=$_p/etc/ipsec.d IPSEC_CONFDDIR=$_p/etc/ipsec.d"
	return 0
}

# lsw_status_of HOST: ipsec status of whichever daemon HOST runs.
lsw_status_of() {
	if [ -e "$HOSTS/$1/lsw-daemon" ]; then
		# shellcheck disable=SC2046 # lsw_env's words are NAME=VALUE
		t 30 ip netns exec "$1" env $(lsw_env "$1") \
			"$(lsw_prefix "$1")/usr/sbin/ipsec" status
	else
		lsw_ipsec "$1" status
	fi
}
