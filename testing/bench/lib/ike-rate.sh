#!/bin/sh
# Guest side of testing/bench/ike-rate, inside UML (started by
# testing/uml/boot with N, DAEMONS, ROUNDS, IKE, ESP and IKB_BUILD).
# For each round and each daemon in DAEMONS, the same daemon on west
# (initiator) and east (responder), N conns, one address pair each
# (west 10.1.H.L/32 <-> east 10.2.H.L/32), transport mode, PSK or (AUTH=rsa
# or ecdsa) one certificate per host from the test PKI (lib/pki.sh: RSA
# 2048 or P-256, by the test root) for all N conns, IDs @HOST.ikebana.test,
# uniqueids off on both daemons (the N IKE SAs share the pair of IDs):
#   1. start both daemons with no conn: "idle" RSS (VmRSS of the daemon's
#      one process, all its threads);
#   2. load the N conns on both, none initiating (auto=add,
#      start_action=none): "before" RSS, so the conns' config is in it;
#   3. t0: ONE command on west loads the same conns again, now initiating
#      (ikebana: auto=start and `ikebana reload`; strongSwan:
#      start_action=start and `swanctl --load-all`; libreswan: auto=start
#      and `addconn --autoall`), each daemon's analogue of "load and go";
#   4. t1: both kernels hold 2N SAs (ike-rate-wait.bash polls the SAD
#      counts every 20 ms through two running `ip -b -`; no process per
#      poll, BASELINES 10);
#   5. 2 s later (settled), "after" RSS; then each host must hold exactly
#      N inbound and N outbound ESP SAs of esp=$ESP;
#   6. both daemons stopped by PID, SAD and SPD flushed.
# Then, with no daemon running, ke_rate_bench (if built): NSS key exchanges
# per second in this boot, the floor under ikebana's time ($RESULTS/ke.md).
# Writes $RESULTS/ike-rate.tsv, one row per round and daemon:
#   round daemon n t_cmd t_first t_done sas_west sas_east
#   idle_w before_w after_w idle_e before_e after_e threads_w threads_e
#   memavail_kb udp_drops_w udp_drops_e cpu_w cpu_e idle t_ike
# (cpu_*: the daemon's CPU time and idle: the guest's idle time, from t0
# until the helper returned, in ticks of 1/100 s; t_ike: west's first IKE
# datagram, seconds after t0)
# (times in seconds after t0, RSS in KiB), and $RESULTS/machine.
# shellcheck source=/dev/null disable=SC2015 # the helpers are checked on
# their own; "a && b || fail" is meant: fail exits
. "$IKB_UML/lib/all.sh"
. "$IKB_REPO/testing/bench/lib/guest.sh"
[ -z "${TRACE_GUEST:-}" ] || { exec 2>>"$RESULTS/guest.err"; set -x; }
: "${N:=100}" "${DAEMONS:=ikebana,strongswan,libreswan}" "${ROUNDS:=1}"
: "${IKE:=aes_gcm256-sha2_256-dh19}" "${ESP:=aes_gcm128}" "${AUTH:=psk}"
case $AUTH in psk | rsa | ecdsa) ;; *) fail "AUTH=$AUTH: psk, rsa or ecdsa" ;; esac
# Before the topology: no IP addresses in the certificates (N of them).
if [ "$AUTH" != psk ]; then
	pki_make "$PKI" || fail "pki_make"
fi
DAEMONS=$(echo "$DAEMONS" | tr , ' ')
WAIT=$IKB_REPO/testing/bench/lib/ike-rate-wait.bash
# Seconds to wait for all SAs: generous, the point is a number, not a race.
WAIT_SECS=$((30 + N / 4))
tsv=$RESULTS/ike-rate.tsv
: >"$tsv"
: >"$RESULTS/control.tsv"
{
	echo "kernel=$(uname -r)"
	echo "cpus=$(grep -c '^processor' /proc/cpuinfo)"
	echo "mem=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)"
} >"$RESULTS/machine"

# swanctl --load-all of 10,000 conns takes more than a minute in UML.
SWANCTL_TIMEOUT=$((30 + N / 50))
# pluto opens two sockets per local address (N + 1 of them here).
# shellcheck disable=SC3045 # dash has ulimit -n
ulimit -n 65536 || fail "ulimit -n 65536"

# With thousands of SAs the default dump (every SA, every policy) would
# bury the failure: counts and the logs' tails instead.
dump_host() {
	_H=$HOSTS/$1
	for _l in "$_H"/log/*.log; do
		[ -e "$_l" ] || continue
		echo "----- $1: $(basename "$_l") (last 60 lines)"
		tail -n 60 "$_l"
	done
	echo "----- $1: $(ip -n "$1" xfrm state count), policies: $(ip -n "$1" xfrm policy | grep -c '^src')"
	ip -n "$1" xfrm state | head -n 20
}

# The topology: west and east on one link, N /32 addresses on each side.
# Generated: west-east-pairs stops at 254 pairs. The peer's addresses are
# routed through its link address, not on-link: on-link, each one would be
# an ARP neighbour, and the neighbour table (gc_thresh3 = 1024, for all
# namespaces together) overflows at about 500 pairs: sends then fail with
# ENOBUFS and some conns never come up, whichever daemon runs.
topo=/tmp/ike-rate.topology
awk -v n="$N" 'BEGIN {
	print "host west"; print "host east"; print "link west:eth0 east:eth0"
	print "addr west eth0 192.0.2.1/24"; print "addr east eth0 192.0.2.2/24"
	for (i = 0; i < n; i++) {
		printf "addr west eth0 10.1.%d.%d/32\n", int(i / 250), i % 250 + 1
		printf "addr east eth0 10.2.%d.%d/32\n", int(i / 250), i % 250 + 1
	}
	print "route west 10.2.0.0/16 via 192.0.2.2 dev eth0 src 10.1.0.1"
	print "route east 10.1.0.0/16 via 192.0.2.1 dev eth0 src 10.2.0.1"
}' >"$topo"
topology "$topo"

# The first SA with an algorithm makes the kernel build its instance
# (rfc4106(gcm(aes))) and ask modprobe for a dozen names, each a process:
# seconds in a busy UML, and the first daemon measured would pay for it.
# One SA set by hand and removed again leaves the instance registered.
ip -n west xfrm state add src 192.0.2.1 dst 192.0.2.2 proto esp spi 0x1 mode transport \
	aead 'rfc4106(gcm(aes))' 0x0102030405060708090a0b0c0d0e0f1011121314 128 ||
	fail "the kernel refused an rfc4106(gcm(aes)) SA"
ip -n west xfrm state flush

# Inside a busy UML each process costs 0.1-1 s (BASELINES 10): what runs
# once per daemon and host below is kept to a few processes (one awk per
# generated file, builtins to read /proc and to wait).

# gen_ipsec HOST AUTO CONF SECRETS [EXTRA]: libreswan syntax (ikebana's too),
# one conn per address pair; the IDs are the addresses, one PSK per conn
# (the same on both ends: keyed by the conn number).
gen_ipsec() {
	awk -v n="$N" -v me="$1" -v auto="$2" -v conf="$3" -v sec="$4" -v extra="${5:-}" \
		-v ike="$IKE" -v esp="$ESP" -v auth="$AUTH" 'BEGIN {
		me = me == "west" ? 1 : 2
		host[1] = "west"; host[2] = "east"
		for (i = 1; i <= n; i++) {
			hl = int((i - 1) / 250) "." ((i - 1) % 250 + 1)
			a = "10." me "." hl; b = "10." (3 - me) "." hl
			la = a; ra = b
			if (auth != "psk") { la = "@" host[me] ".ikebana.test"; ra = "@" host[3 - me] ".ikebana.test" }
			printf "conn rate%d\n\tleft=%s\n\tleftid=%s\n\tright=%s\n\trightid=%s\n", i, a, la, b, ra >conf
			if (auth == "psk") printf "\tauthby=secret\n" >conf
			else printf "\tauthby=%s\n\tleftcert=%s-%s\n", auth == "rsa" ? "rsasig" : "ecdsa", host[me], auth >conf
			printf "\ttype=transport\n\tike=%s\n\tesp=%s\n\tauto=%s\n", ike, esp, auto >conf
			if (extra != "") printf "\t%s\n", extra >conf
			print "" >conf
			if (sec != "" && auth == "psk") printf "%s %s : PSK \"ike-rate-%d\"\n", a, b, i >sec
		}
	}'
}

# gen_swanctl HOST START_ACTION FILE: swanctl.conf, one setting per line
# (BASELINES 6). The proposals are translated once (_ss_prop).
gen_swanctl() {
	if [ -z "${_ssi:-}" ]; then
		# shellcheck disable=SC2034 # read by _ss_prop
		p_esn=''
		_ssi=$(_ss_prop ike "$IKE") _sse=$(_ss_prop esp "$ESP")
	fi
	awk -v n="$N" -v me="$1" -v start="$2" -v ike="$_ssi" -v esp="$_sse" -v auth="$AUTH" 'BEGIN {
		me = me == "west" ? 1 : 2
		host[1] = "west"; host[2] = "east"
		kind = auth == "psk" ? "psk" : "pubkey"
		print "connections {"
		for (i = 1; i <= n; i++) {
			hl = int((i - 1) / 250) "." ((i - 1) % 250 + 1)
			a[i] = "10." me "." hl; b[i] = "10." (3 - me) "." hl
			printf "\trate%d {\n\t\tversion = 2\n\t\tlocal_addrs = %s\n\t\tremote_addrs = %s\n", i, a[i], b[i]
			printf "\t\tproposals = %s\n", ike
			if (auth == "psk") {
				printf "\t\tlocal {\n\t\t\tauth = psk\n\t\t\tid = %s\n\t\t}\n", a[i]
				printf "\t\tremote {\n\t\t\tauth = psk\n\t\t\tid = %s\n\t\t}\n", b[i]
			} else {
				# never: it also ignores, and sends no, INITIAL_CONTACT,
				# which would drop the IKE SAs that share the two IDs
				printf "\t\tsend_cert = always\n\t\tunique = never\n"
				printf "\t\tlocal {\n\t\t\tauth = pubkey\n\t\t\tcerts = %s-%s.pem\n\t\t\tid = %s.ikebana.test\n\t\t}\n", host[me], auth, host[me]
				printf "\t\tremote {\n\t\t\tauth = pubkey\n\t\t\tid = %s.ikebana.test\n\t\t}\n", host[3 - me]
			}
			printf "\t\tchildren {\n\t\t\trate%d {\n\t\t\t\tmode = transport\n", i
			printf "\t\t\t\tesp_proposals = %s\n\t\t\t\tstart_action = %s\n\t\t\t}\n\t\t}\n\t}\n", esp, start
		}
		print "}"; print "secrets {"
		for (i = 1; auth == "psk" && i <= n; i++)
			printf "\tike-rate%d {\n\t\tid-1 = %s\n\t\tid-2 = %s\n\t\tsecret = \"ike-rate-%d\"\n\t}\n", i, a[i], b[i], i
		print "}"
	}' >"$3"
}

# Per daemon: NAME_rate_start HOST (starts the daemon with no conn, prints
# its PID), NAME_rate_load HOST (the N conns, none initiating),
# NAME_rate_go (writes west's conns again, initiating, and prints the one
# command as words).
ikebana_rate_start() {
	_H=$HOSTS/$1
	[ -x "$IKB_DAEMON" ] && [ -x "$IKB_CLI" ] || fail "ikebana: $IKB_DAEMON or $IKB_CLI not built"
	mkdir -p "$_H/etc/ikebana.d"
	# NHELPERS=N (a NAME=VALUE word for boot): nhelpers= for both daemons,
	# to compare helper threads with the default (none on UML's one CPU)
	if [ "$AUTH" != psk ]; then
		mkdir -p "$_H/nss"
		pki_nssdb "$_H/nss" "$1-$AUTH" >&2 || fail "ikebana on $1: NSS database"
		_certs="	nssdir=$_H/nss
	uniqueids=no
"
	fi
	printf 'config setup\n%s%s\ninclude %s/*.conf\n' "${NHELPERS:+	nhelpers=$NHELPERS
}" "${_certs:-}" "$_H/etc/ikebana.d" >"$_H/etc/ikebana.conf"
	: >"$_H/etc/ikebana.secrets"
	chmod 600 "$_H/etc/ikebana.secrets"
	# STRACE=1 (a NAME=VALUE word for boot): count ikebanad's system calls,
	# $RESULTS/strace.HOST; STRACE=full: log each one there instead
	# (strace slows it down: not for timing)
	_st=
	case ${STRACE:-} in
	'') ;;
	full) _st="strace -f -o $RESULTS/strace.$1" ;;
	*) _st="strace -f -c -o $RESULTS/strace.$1" ;;
	esac
	# shellcheck disable=SC2086 # _st is a command line or nothing
	ip netns exec "$1" $_st \
		"$IKB_DAEMON" --nofork --config "$_H/etc/ikebana.conf" \
		--secrets "$_H/etc/ikebana.secrets" --rundir "$_H/run" \
		>>"$_H/log/ikebanad.log" 2>&1 &
	_ip=$!
	bench_wait_socket 30 "ikebanad on $1" "$_H/run/ikebana.ctl"
	[ -z "${STRACE:-}" ] || _ip=$(pgrep -P "$_ip")
	echo "$_ip" >"$_H/ikebanad.pid"
	echo "$_ip"
}
ikebana_rate_load() {
	_H=$HOSTS/$1
	gen_ipsec "$1" add "$_H/etc/ikebana.d/rate.conf" "$_H/etc/ikebana.secrets"
	_ikb "$1" reload || fail "ikebana on $1: reload of $N conns failed"
}
ikebana_rate_go() {
	gen_ipsec west start "$HOSTS/west/etc/ikebana.d/rate.conf" ''
	echo ip netns exec west "$IKB_CLI" --rundir "$HOSTS/west/run" reload
}

strongswan_rate_start() {
	strongswan_start "$1" >&2
	echo "$!"
	[ "$AUTH" = psk ] || pki_swanctl "$HOSTS/$1/etc/swanctl" "$1-$AUTH" >&2 ||
		fail "strongSwan on $1: certificates"
}
strongswan_rate_load() {
	gen_swanctl "$1" none "$HOSTS/$1/etc/swanctl/conf.d/rate.conf"
	strongswan_load "$1" || fail "strongSwan on $1: swanctl --load-all of $N conns failed"
}
strongswan_rate_go() {
	gen_swanctl west start "$HOSTS/west/etc/swanctl/conf.d/rate.conf"
	echo env STRONGSWAN_CONF="$HOSTS/west/etc/strongswan.conf" ip netns exec west \
		swanctl --load-all --uri "$(_ss_uri west)" --file "$HOSTS/west/etc/swanctl/swanctl.conf"
}

libreswan_rate_start() {
	libreswan_start "$1" >&2
	echo "$!"
}
libreswan_rate_load() {
	_H=$HOSTS/$1
	gen_ipsec "$1" add "$_H/etc/ipsec.d/conns/rate.conf" "$_H/etc/ipsec.secrets" \
		leftupdown=%disabled
	_ls_add "$1" "$_H/etc/ipsec.d/conns/rate.conf" ||
		fail "libreswan on $1: addconn of $N conns failed"
}
libreswan_rate_go() {
	gen_ipsec west start "$HOSTS/west/etc/ipsec.d/conns/rate.conf" '' leftupdown=%disabled
	echo ip netns exec west "$LS_EXEC/addconn" --ctlsocket "$(_ls_ctl west)" \
		--config "$HOSTS/west/etc/ipsec.d/conns/rate.conf" --autoall
}

# proc_status PID: sets _rss (VmRSS, KiB: the process, all its threads)
# and _thr (Threads) from /proc/PID/status, with builtins.
proc_status() {
	_rss=0 _thr=0
	while read -r _k _v _; do
		case $_k in
		VmRSS:) _rss=$_v ;;
		Threads:) _thr=$_v ;;
		esac
	done <"/proc/$1/status"
}

# cpu_ticks PID: sets _cpu to the process's user + system time in ticks
# (USER_HZ, 1/100 s), all threads (/proc/PID/stat fields 14 and 15).
cpu_ticks() {
	read -r _st </proc/"$1"/stat
	# shellcheck disable=SC2086 # the fields, after "(comm) "
	set -- ${_st#*) }
	_cpu=$((${12} + ${13})) _utime=${12} _minflt=$8
}

# idle_ticks: sets _idle to the guest's idle + iowait ticks (/proc/stat).
idle_ticks() {
	read -r _c _u _n _s _i _w _ </proc/stat
	_idle=$((_i + _w))
}

# udp_drops HOST: datagrams HOST's kernel dropped for a full socket buffer
# (UDP RcvbufErrors + SndbufErrors, /proc/net/snmp), or for ENOBUFS on the
# way out. A daemon that falls behind its socket loses requests and lives
# on retransmits.
udp_drops() {
	# shellcheck disable=SC2016 # awk's $
	ip netns exec "$1" awk '$1 == "Udp:" && $2 ~ /^[0-9]/ { print $6 + $7; exit }' /proc/net/snmp
}

# expect_rate_sas HOST: exactly N inbound and N outbound ESP SAs of $ESP
# (sa_list's lines are kept in the host's log). Counted by awk: dash's
# read takes one syscall per byte, and 2000 lines of it cost UML seconds.
expect_rate_sas() {
	_f=$HOSTS/$1/log/sas.$d.$r
	sa_list "$1" >"$_f"
	# shellcheck disable=SC2016 # awk's $
	set -- "$1" $(awk -v alg="alg=$ESP" '{ all++ } $5 == alg && $11 == "dir=in" { i++ }
		$5 == alg && $11 == "dir=out" { o++ } END { print i + 0, o + 0, all + 0 }' "$_f")
	[ "$2" = "$N" ] && [ "$3" = "$N" ] && [ "$4" = $((2 * N)) ] ||
		fail "$d on $1: expected $N inbound and $N outbound ESP SAs with alg=$ESP, found $2 in, $3 out, $4 in all"
}

# CONTROL=1: how long west's daemon takes, with the N SAs up, to show
# them (status), their traffic (trafficstatus) and to reload its unchanged
# configuration; each answer is checked (N SAs in it; after the reload
# still exactly N SAs each way). Rows of $RESULTS/control.tsv:
#   round daemon n command seconds lines
# NAME_rate_ctl HOST status|traffic|reload: the command as words, or
# nothing where the daemon has no such command.
ikebana_rate_ctl() {
	case $2 in
	status) set -- "$1" status ;;
	traffic) set -- "$1" trafficstatus ;;
	reload) set -- "$1" reload ;;
	esac
	echo ip netns exec "$1" "$IKB_CLI" --rundir "$HOSTS/$1/run" "$2"
}
strongswan_rate_ctl() {
	case $2 in
	status) set -- "$1" --list-sas ;;
	traffic) return 0 ;; # --list-sas shows the counters too
	reload) set -- "$1" --load-all --file "$HOSTS/$1/etc/swanctl/swanctl.conf" ;;
	esac
	_c=$1
	shift
	echo env STRONGSWAN_CONF="$HOSTS/$_c/etc/strongswan.conf" swanctl "$@" --uri "$(_ss_uri "$_c")"
}
libreswan_rate_ctl() {
	case $2 in
	status) set -- "$1" --status ;;
	traffic) set -- "$1" --trafficstatus ;;
	reload) echo ip netns exec "$1" "$LS_EXEC/addconn" --ctlsocket "$(_ls_ctl "$1")" \
		--config "$HOSTS/$1/etc/ipsec.d/conns/rate.conf" --autoall; return 0 ;;
	esac
	echo "$LS_EXEC/whack" --ctlsocket "$(_ls_ctl "$1")" "$2"
}

control_times() {
	for _what in status traffic reload; do
		# shellcheck disable=SC2046 # the command as words
		set -- $("${d}_rate_ctl" west "$_what")
		[ $# -gt 0 ] || continue
		_o=$HOSTS/west/log/ctl.$_what.$d.$r
		# shellcheck disable=SC2046 # three words
		set -- $(bash "$IKB_REPO/testing/bench/lib/time-cmd.bash" "$_o" "$@")
		[ "$3" = 0 ] || fail "$d: $_what failed (exit $3): $(tail -n 5 "$_o")"
		# an answer that shows the SAs has a line per SA at least
		[ "$_what" = reload ] || [ "$2" -ge "$N" ] ||
			fail "$d: $_what printed $2 lines for $N SAs: $(head -n 5 "$_o")"
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$d" "$N" "$_what" "$1" "$2" >>"$RESULTS/control.tsv"
		log "$d: $_what with $N SAs up: $1 s, $2 lines"
	done
	expect_rate_sas west
}

run_daemon() {
	d=$1 r=$2
	log "=== round $r: $d <-> $d, $N IKE SAs with one Child SA each"
	# both at once: most of a start is waiting for the daemon to answer
	[ "$d" = libreswan ] && libreswan_prepare # mounts, once
	"${d}_rate_start" west >/tmp/ike-rate.pid.west &
	_sw=$!
	"${d}_rate_start" east >/tmp/ike-rate.pid.east &
	wait "$_sw" && wait $! || exit 1
	read -r pw </tmp/ike-rate.pid.west && read -r pe </tmp/ike-rate.pid.east ||
		fail "$d: no PID"
	for _p in "$pw" "$pe"; do
		[ -r "/proc/$_p/status" ] || fail "$d: no process $_p"
	done
	read -r _cw </proc/"$pw"/comm && read -r _ce </proc/"$pe"/comm
	log "$d: west pid $pw ($_cw), east pid $pe ($_ce)"
	sleep 0.5 # a daemon may answer before it is fully up
	proc_status "$pw"; iw=$_rss
	proc_status "$pe"; ie=$_rss
	"${d}_rate_load" east
	"${d}_rate_load" west
	sleep 0.5
	proc_status "$pw"; bw=$_rss
	proc_status "$pe"; be=$_rss
	log "$d: RSS idle west $iw east $ie KiB; with $N conns loaded west $bw east $be KiB"
	uw0=$(udp_drops west) ue0=$(udp_drops east)
	cpu_ticks "$pw"; cw0=$_cpu uw0t=$_utime fw0=$_minflt
	cpu_ticks "$pe"; ce0=$_cpu ue0t=$_utime fe0=$_minflt
	idle_ticks; id0=$_idle
	# shellcheck disable=SC2046 # go prints the command as words (no spaces inside)
	set -- $("${d}_rate_go")
	out=$(bash "$WAIT" $((2 * N)) "$WAIT_SECS" "$HOSTS/west/log/sad-trace.$d.$r" \
		"$HOSTS/west/log/go.$d.$r.log" "$@") ||
		fail "$d: the timing helper failed: $out"
	# CPU while it ran: each daemon's, and the guest's idle time (waiting)
	idle_ticks; idle=$((_idle - id0))
	cpu_ticks "$pw"; cw=$((_cpu - cw0)) uwt=$((_utime - uw0t)) fw=$((_minflt - fw0))
	cpu_ticks "$pe"; ce=$((_cpu - ce0)) uet=$((_utime - ue0t)) fe=$((_minflt - fe0))
	log "$d: CPU ticks (1/100 s) user+system: west $uwt+$((cw - uwt)), east $uet+$((ce - uet)); guest idle $idle; page faults west $fw east $fe"
	log "$d: t_cmd t_first t_done west east t_ike: $out"
	# shellcheck disable=SC2086 # five words
	set -- $out
	[ "$3" != timeout ] ||
		fail "$d: after ${WAIT_SECS}s west holds $4 and east $5 SAs, not $((2 * N)) each"
	sleep 2
	proc_status "$pw"; aw=$_rss tw=$_thr
	proc_status "$pe"; ae=$_rss te=$_thr
	expect_rate_sas west
	expect_rate_sas east
	uw=$(($(udp_drops west) - uw0)) ue=$(($(udp_drops east) - ue0))
	while read -r _k _v _; do [ "$_k" = MemAvailable: ] && mem=$_v; done </proc/meminfo
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$r" "$d" "$N" "$1" "$2" "$3" "$4" "$5" "$iw" "$bw" "$aw" "$ie" "$be" "$ae" \
		"$tw" "$te" "$mem" "$uw" "$ue" "$cw" "$ce" "$idle" "$6" >>"$tsv"
	log "ok: $d: $N IKE+Child SAs in $3 s; RSS after west $aw east $ae KiB; MemAvailable $mem KiB; UDP drops west $uw east $ue"
	[ -z "${CONTROL:-}" ] || control_times
	bench_stop_pid west "$pw"
	bench_stop_pid east "$pe"
}

bench_rounds

# The floor: ikebana's key exchanges go through NSS (crypto/ke.c), and each
# IKE SA costs both ends one generation and one derivation of group 19, on
# the one CPU of this boot.
kb=$IKB_BUILD/testing/unit/crypto/ke_rate_bench
if [ -x "$kb" ]; then
	t 120 "$kb" "${KE_SECS:-0.5}" >"$RESULTS/ke.md" ||
		fail "ke_rate_bench failed: $(cat "$RESULTS/ke.md")"
	log "ok: NSS key exchanges per second measured"
else
	log "no $kb: the report has no ECDH floor"
fi
pass
