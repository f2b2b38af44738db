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
