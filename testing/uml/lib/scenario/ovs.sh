# Open vSwitch with its IPsec monitor, ikebana under it (ovs-* scenarios):
# per host, ovsdb-server and ovs-vswitchd in the host's namespace, and
# Debian's ovs-monitor-ipsec run unchanged with --ike-daemon=libreswan and
# --root-prefix, as OVS's own tests run it, pointed at the host's
# libreswan prefix (lswpaths.sh).
# shellcheck shell=sh

OVS_MONITOR=$IKB_CACHE/ovs-ipsec-root/usr/share/openvswitch/scripts/ovs-monitor-ipsec

# shellcheck source=lswpaths.sh
. "$IKB_UML/lib/scenario/lswpaths.sh"

_ovs_dir() { echo "$HOSTS/$1/ovs"; }

# _ovs HOST CMD...: an OVS tool in HOST's namespace, with HOST's run dir.
_ovs() {
	_oh=$1
	shift
	_od=$(_ovs_dir "$_oh")
	t 30 ip netns exec "$_oh" env OVS_RUNDIR="$_od" OVS_LOGDIR="$_od" \
		OVS_DBDIR="$_od" "$@"
}

vsctl() {
	_vh=$1
	shift
	_ovs "$_vh" ovs-vsctl --db="unix:$(_ovs_dir "$_vh")/db.sock" "$@"
}

# ovs_prepare: the kernel modules, once, before anything else runs. An
# ovs-vswitchd that starts while its datapath's conntrack modules load
# was seen to set up no flow at all (its upcall handlers counted 0).
ovs_prepare() {
	[ -x "$OVS_MONITOR" ] || skip "no ovs-monitor-ipsec at $OVS_MONITOR (testing/uml/fetch-ovs-ipsec)"
	command -v ovs-vswitchd >/dev/null || skip "openvswitch-switch is not installed"
	modprobe -q -a openvswitch vxlan geneve ip_gre nf_conntrack nf_nat \
		nf_defrag_ipv4 nf_defrag_ipv6 2>/dev/null
	return 0
}

_vswitchd() {
	_ovs "$1" ovs-vswitchd "unix:$(_ovs_dir "$1")/db.sock" \
		--pidfile="$(_ovs_dir "$1")/ovs-vswitchd.pid" \
		--unixctl="$(_ovs_dir "$1")/ovs-vswitchd.ctl" \
		--log-file="$HOSTS/$1/log/ovs-vswitchd.log" --detach ||
		fail "ovs-vswitchd on $1"
}

# ovs_start HOST OVERLAY_ADDR/LEN: ovsdb-server, ovs-vswitchd, bridge
# br-ipsec with the overlay address.
ovs_start() {
	_d=$(_ovs_dir "$1")
	mkdir -p "$_d"
	t 30 ovsdb-tool create "$_d/conf.db" /usr/share/openvswitch/vswitch.ovsschema ||
		fail "ovsdb-tool create on $1"
	_ovs "$1" ovsdb-server "$_d/conf.db" --remote="punix:$_d/db.sock" \
		--pidfile="$_d/ovsdb-server.pid" --unixctl="$_d/ovsdb-server.ctl" \
		--log-file="$HOSTS/$1/log/ovsdb-server.log" --detach ||
		fail "ovsdb-server on $1"
	vsctl "$1" --no-wait init || fail "ovs-vsctl init on $1"
	_vswitchd "$1"
	vsctl "$1" add-br br-ipsec || fail "add-br on $1"
	# In UML (one CPU, per-CPU upcall dispatch), about half the
	# ovs-vswitchd starts count 0 upcall handlers ("Overriding
	# n-handler-threads to 0") and then set up no flow at all, whatever
	# other_config says; one started again on the same datapath does the
	# same. Such a one goes with its datapath and starts again on a new
	# one, up to 8 times (each try about 1.5 s).
	for _try in 1 2 3 4 5 6 7 8; do
		grep -q 'n-handler-threads to 0' "$HOSTS/$1/log/ovs-vswitchd.log" || break
		log "ovs-vswitchd on $1 counted no upcall handler: starting it again on a new datapath"
		_ovs "$1" ovs-appctl -t "$_d/ovs-vswitchd.ctl" exit --cleanup
		# it removes its pid file on its way out (a zombie would still
		# answer kill -0)
		wait_for 15 "ovs-vswitchd on $1 gone" test ! -e "$_d/ovs-vswitchd.pid"
		_ovs "$1" ovs-dpctl del-dp system@ovs-system 2>/dev/null
		mv "$HOSTS/$1/log/ovs-vswitchd.log" "$HOSTS/$1/log/ovs-vswitchd.$_try.log"
		_vswitchd "$1"
		wait_for 15 "ovs-vswitchd on $1 with its bridge" \
			vsctl "$1" br-exists br-ipsec
	done
	grep -q 'n-handler-threads to 0' "$HOSTS/$1/log/ovs-vswitchd.log" &&
		fail "ovs-vswitchd on $1 counted no upcall handler 9 times"
	ip -n "$1" addr add "$2" dev br-ipsec &&
		ip -n "$1" link set br-ipsec up || fail "br-ipsec address on $1"
	log "Open vSwitch running on $1 (br-ipsec $2)"
}

# ovs_monitor HOST: ovs-monitor-ipsec, unchanged, in the foreground of a
# background job (its pid file names it for the dump).
ovs_monitor() {
	_d=$(_ovs_dir "$1")
	# shellcheck disable=SC2046 # lsw_env's words are NAME=VALUE
	ip netns exec "$1" env OVS_RUNDIR="$_d" OVS_LOGDIR="$_d" OVS_DBDIR="$_d" \
		$(lsw_env "$1") \
		/usr/bin/python3 "$OVS_MONITOR" --root-prefix="$(lsw_prefix "$1")" \
		--ike-daemon=libreswan --no-restart-ike-daemon \
		--log-file="$HOSTS/$1/log/ovs-monitor-ipsec.log" \
		--pidfile="$_d/ovs-monitor-ipsec.pid" "unix:$_d/db.sock" \
		>>"$HOSTS/$1/log/ovs-monitor-ipsec.out" 2>&1 &
	echo "$!" >"$HOSTS/$1/ovs-monitor-ipsec.jobpid"
	wait_for 15 "ovs-monitor-ipsec on $1" test -e "$_d/ovs-monitor-ipsec.pid"
	log "ovs-monitor-ipsec running on $1"
}

# ovs_tunnel HOST PORT TYPE LOCAL REMOTE AUTH: an encrypted tunnel port;
# AUTH is psk=KEY, remote_cert=FILE or remote_name=NAME (its option).
ovs_tunnel() {
	vsctl "$1" add-port br-ipsec "$2" -- set interface "$2" type="$3" \
		options:local_ip="$4" options:remote_ip="$5" "options:$6" ||
		fail "add-port $2 on $1"
}

# ovs_pki_make: as OVS's IPsec tutorial, with ovs-pki: per host a key and
# a self-signed certificate (HOSTS/HOST/pki-self), and a CA (HOSTS/pki-ca)
# that signs another key of each (HOSTS/HOST/pki-ca). CN and SAN DNS are
# the host's name, which the monitor writes as leftid=@NAME.
ovs_pki_make() {
	_ca=$HOSTS/pki-ca
	t 120 ovs-pki -d "$_ca" -l "$_ca.log" init --force >/dev/null 2>&1 ||
		fail "ovs-pki init: $(tail -n 3 "$_ca.log")"
	for _h in west east; do
		for _k in self ca; do
			_d=$HOSTS/$_h/pki-$_k
			mkdir -p "$_d"
			if [ "$_k" = self ]; then
				(cd "$_d" && t 60 ovs-pki -l "$_d/log" -u req "$_h" &&
					t 60 ovs-pki -l "$_d/log" self-sign "$_h")
			else
				(cd "$_d" && t 60 ovs-pki -d "$_ca" -l "$_d/log" -u -b \
					req+sign "$_h" switch)
			fi >/dev/null 2>&1 || fail "ovs-pki $_k on $_h: $(tail -n 3 "$_d/log")"
		done
	done
	log "ovs-pki: self-signed and CA-signed certificates for west and east"
}

# ovs_pki_cert HOST self|ca: HOST's certificate of that kind.
ovs_pki_cert() { echo "$HOSTS/$1/pki-$2/$1-cert.pem"; }

# ovs_pki_use HOST self|ca: HOST's switch takes that certificate and key
# (and the CA's certificate for ca), as the tutorial sets them.
ovs_pki_use() {
	_d=$HOSTS/$1/pki-$2
	if [ "$2" = self ]; then
		vsctl "$1" remove Open_vSwitch . other_config ca_cert -- \
			set Open_vSwitch . other_config:certificate="$_d/$1-cert.pem" \
			other_config:private_key="$_d/$1-privkey.pem"
	else
		vsctl "$1" set Open_vSwitch . other_config:certificate="$_d/$1-cert.pem" \
			other_config:private_key="$_d/$1-privkey.pem" \
			other_config:ca_cert="$HOSTS/pki-ca/switchca/cacert.pem"
	fi || fail "other_config on $1: the $2 certificate"
}

# ovs_appctl HOST CMD...: the monitor's unixctl commands (tunnels/show).
ovs_appctl() {
	_d=$(_ovs_dir "$1")
	_h=$1
	shift
	_ovs "$_h" ovs-appctl -t "$_d/ovs-monitor-ipsec.$(cat "$_d/ovs-monitor-ipsec.pid").ctl" "$@"
}

# ovs_monitor_quiet HOST: no warning or error in the monitor's log.
ovs_monitor_quiet() {
	_bad=$(grep -E '\| (WARN|ERR|EMER) \|' "$HOSTS/$1/log/ovs-monitor-ipsec.log" |
		grep -v 'could not create unixctl' | head -n 5)
	[ -z "$_bad" ] || fail "ovs-monitor-ipsec on $1 warned: $_bad"
	log "ok: no warning in ovs-monitor-ipsec's log on $1"
}

# _ike_sas HOST CONN: the established IKE SAs of CONN in ipsec status.
_ike_sas() {
	lsw_status_of "$1" |
		grep -c "^000 #[0-9]*: \"$2\":[0-9]* STATE_V2_ESTABLISHED_IKE_SA" || true
}

# ovs_one_sa HOST CONN...: exactly one IKE SA and one Child SA pair per conn.
ovs_one_sa() {
	_h=$1
	shift
	for _c; do
		_n=$(_ike_sas "$_h" "$_c")
		[ "$_n" = 1 ] || fail "$_h has $_n IKE SAs of $_c, not one"
		_k=$(lsw_status_of "$_h" | grep -c "^000 #[0-9]*: \"$_c\" esp\." || true)
		[ "$_k" = 1 ] || fail "$_h has $_k Child SAs of $_c, not one"
	done
	log "ok: $_h has one IKE SA and one Child SA of each of $*"
}

# ovs_stop HOST: the monitor, ovs-vswitchd, ovsdb-server, by their pids.
ovs_stop() {
	_d=$(_ovs_dir "$1")
	for _f in "$HOSTS/$1/ovs-monitor-ipsec.jobpid" "$_d/ovs-vswitchd.pid" \
		"$_d/ovsdb-server.pid"; do
		[ -e "$_f" ] && kill "$(cat "$_f")" 2>/dev/null
	done
	return 0
}

# The cases (ovs-ipsec, ovs-ipsec-libreswan) -----------------------------

_no_sa() { [ "$(sa_count "$1")" = 0 ]; }
_status_has() { lsw_status_of "$1" | grep -q "$2"; }
_status_lacks() { ! lsw_status_of "$1" | grep -q "$2"; }

# _ovs_up PORT TYPE CONN...: the tunnel PORT (TYPE) carries the overlay
# through ESP both ways, with one IKE SA and one Child SA pair per conn in
# ipsec status on both hosts, which tunnels/show lists.
_ovs_up() {
	_port=$1 _type=$2
	shift 2
	wait_for 60 "the overlay ping west -> east over $_type" \
		ns west ping -n -q -c 1 -W 1 10.10.0.2
	# from here on the underlay carries the overlay only in ESP
	capture_start west:eth0
	expect_esp_grows west ping_ok west 10.10.0.2
	expect_esp_grows east ping_ok east 10.10.0.1
	expect_only_esp west:eth0
	for h in west east; do
		wait_for 30 "every conn active in $h's ipsec status" \
			_status_has "$h" "Total IPsec connections: loaded [0-9]*, active $#"
		ovs_one_sa "$h" "$@"
		show=$(ovs_appctl "$h" tunnels/show) || fail "tunnels/show on $h"
		echo "$show" >"$HOSTS/$h/log/tunnels-show-$_port.txt"
		echo "$show" | grep -A2 'Kernel security associations installed:' |
			grep -q 'sel src' || fail "tunnels/show on $h lists no SA: $show"
		echo "$show" | grep -A2 'IPsec connections that are active:' |
			grep -q "\"$_port-" || fail "tunnels/show on $h lists no active conn: $show"
		log "ok: tunnels/show on $h lists the SAs and the active conns"
	done
}

# _ovs_gone PORT TYPE: the port removed on OVS_FIRST (west, else east)
# first: its monitor deletes the conns, and the SAs go at both ends (the
# Delete). ovs-monitor-ipsec 3.1 deletes only conns that ipsec status lists
# as active, so the other host's, whose SAs the peer deleted, stay loaded,
# as they would under libreswan (whose trap policy of such a conn then
# takes the next tunnel's traffic between the same hosts: a libreswan
# host goes first). The conn lines count: an SA the deleted conn refused
# (the peer's trap initiated as the secrets went) lingers in the SA
# lines, to answer the peer's retransmits.
OVS_FIRST=west
_ovs_gone() {
	_a=$OVS_FIRST _b=east
	[ "$_a" = east ] && _b=west
	vsctl "$_a" del-port br-ipsec "$1" || fail "del-port on $_a"
	wait_for 60 "$_a's conns deleted" _status_lacks "$_a" "^000 \"$1-"
	wait_for 60 "$_a's SAs gone" _no_sa "$_a"
	wait_for 60 "$_b's SAs gone" _no_sa "$_b"
	vsctl "$_b" del-port br-ipsec "$1" || fail "del-port on $_b"
	log "ok: the $2 port removed took its conns and the SAs of both ends"
}

# ovs_case PORT TYPE CONN...: a TYPE tunnel with a PSK on both hosts,
# over the underlay of family OVS_AF (4 or 6).
OVS_AF=4
ovs_case() {
	log "=== case: $2 with a PSK, IPv$OVS_AF underlay"
	_w=$(addr_of west "$OVS_AF") _e=$(addr_of east "$OVS_AF")
	ovs_tunnel west "$1" "$2" "$_w" "$_e" psk=swordfish
	ovs_tunnel east "$1" "$2" "$_e" "$_w" psk=swordfish
	_ovs_up "$@"
	_ovs_gone "$1" "$2"
}

# ovs_cert_case PORT self|ca: a gre tunnel authenticated by certificates
# as OVS's tutorial sets them up (ovs-pki): self-signed, each host with
# the peer's certificate (options:remote_cert), or signed by one CA
# (other_config:ca_cert, options:remote_name). The monitor imports them
# into the NSS database that ikebanad has open, after it started.
ovs_cert_case() {
	log "=== case: gre with $2 certificates"
	for h in west east; do
		ovs_pki_use "$h" "$2"
	done
	if [ "$2" = self ]; then
		_wa=remote_cert=$(ovs_pki_cert east self) _ea=remote_cert=$(ovs_pki_cert west self)
	else
		_wa=remote_name=east _ea=remote_name=west
	fi
	ovs_tunnel west "$1" gre 192.0.2.1 192.0.2.2 "$_wa"
	ovs_tunnel east "$1" gre 192.0.2.2 192.0.2.1 "$_ea"
	_ovs_up "$1" gre "$1-1"
	_ovs_gone "$1" gre
}
