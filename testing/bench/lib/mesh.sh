#!/bin/sh
# Guest side of testing/bench/mesh, inside UML (started by testing/uml/boot
# with NODES, DAEMONS, ROUNDS, IKE, ESP and IKB_BUILD).
# A star: hub routes between nodes n1..nN, node i at 10.9.i.1/24 on its own
# link (the hub is 10.9.i.254, the nodes' default route). For each round
# and each daemon in DAEMONS, that daemon on every node, with one conn to
# every other node, all initiating (auto=start, start_action=start), as an
# overlay's node-to-node encryption is deployed: PSK, one per pair, IDs
# the addresses, transport mode, IKE $IKE, ESP $ESP, each daemon's
# defaults otherwise (uniqueids=yes for ikebana and libreswan, unique=no
# for strongSwan: what their users get).
#   1. every node's daemon started with no conn;
#   2. t0: on every node at once, the one command that loads the conns
#      and initiates them (ikebana: `ikebana reload`; strongSwan:
#      `swanctl --load-all`; libreswan: `addconn --autoall`);
#   3. up: every node's kernel holds an outbound and an inbound ESP SA for
#      every other node (mesh-wait.bash);
#   4. settled: the SAD totals unchanged for SETTLE seconds (at most
#      SETTLE_MAX): what is left then is what the mesh runs on. Counted:
#      SA directions without an SA, ESP SAs beyond one per direction
#      (duplicate Child SAs), and established IKE SAs beyond one per pair
#      (each daemon's own status);
#   5. every daemon stopped by PID, SAD and SPD flushed.
# Writes $RESULTS/mesh.tsv, one row per round and daemon:
#   round daemon nodes pairs t_cmd t_count t_up peak t_settled missing
#   child_dups other ike_sas ike_dups
# (times in seconds after t0; peak: the largest SAD total, all nodes, while
# coming up) and $RESULTS/machine.
# shellcheck source=/dev/null disable=SC2015 # "a && b || fail" is meant
. "$IKB_UML/lib/all.sh"
. "$IKB_REPO/testing/bench/lib/guest.sh"
[ -z "${TRACE_GUEST:-}" ] || { exec 2>>"$RESULTS/guest.err"; set -x; }
: "${NODES:=20}" "${DAEMONS:=ikebana,strongswan,libreswan}" "${ROUNDS:=1}"
: "${IKE:=aes_gcm256-sha2_256-dh19}" "${ESP:=aes_gcm128}"
: "${SETTLE:=5}" "${SETTLE_MAX:=60}"
DAEMONS=$(echo "$DAEMONS" | tr , ' ')
WAIT=$IKB_REPO/testing/bench/lib/mesh-wait.bash
PAIRS=$((NODES * (NODES - 1) / 2))
WAIT_SECS=$((60 + PAIRS))
tsv=$RESULTS/mesh.tsv
: >"$tsv"
bench_guest_machine
NODE_LIST=$(seq 1 "$NODES")

topo=/tmp/mesh.topology
awk -v n="$NODES" 'BEGIN {
	print "host hub"
	for (i = 1; i <= n; i++) {
		printf "host n%d\nlink hub:e%d n%d:eth0\n", i, i, i
		printf "addr hub e%d 10.9.%d.254/24\naddr n%d eth0 10.9.%d.1/24\n", i, i, i, i
		printf "route n%d 0.0.0.0/0 via 10.9.%d.254\n", i, i
	}
	print "forward hub"
}' >"$topo"
topology "$topo"
# Every node reaches every other before any daemon runs.
for i in $NODE_LIST; do
	j=$((i % NODES + 1))
	t 10 ip netns exec "n$i" ping -c 1 -W 5 "10.9.$j.1" >/dev/null ||
		fail "n$i cannot reach n$j (10.9.$j.1) through the hub"
done
# The kernel's rfc4106(gcm(aes)) instance, built once (see ike-rate.sh).
ip -n n1 xfrm state add src 10.9.1.1 dst 10.9.2.1 proto esp spi 0x1 mode transport \
	aead 'rfc4106(gcm(aes))' 0x0102030405060708090a0b0c0d0e0f1011121314 128 ||
	fail "the kernel refused an rfc4106(gcm(aes)) SA"
ip -n n1 xfrm state flush

# gen_ipsec I CONF SECRETS [EXTRA]: node I's conns in libreswan syntax
# (ikebana's too), to-nJ for every other node J; one PSK per pair.
gen_ipsec() {
	awk -v n="$NODES" -v me="$1" -v conf="$2" -v sec="$3" -v extra="${4:-}" \
		-v ike="$IKE" -v esp="$ESP" 'BEGIN {
		for (j = 1; j <= n; j++) {
			if (j == me) continue
			a = "10.9." me ".1"; b = "10.9." j ".1"
			printf "conn to-n%d\n\tleft=%s\n\tright=%s\n\tauthby=secret\n", j, a, b >conf
			printf "\ttype=transport\n\tike=%s\n\tesp=%s\n\tauto=start\n", ike, esp >conf
			if (extra != "") printf "\t%s\n", extra >conf
			print "" >conf
			lo = me < j ? me : j; hi = me < j ? j : me
			printf "%s %s : PSK \"mesh-%d-%d\"\n", a, b, lo, hi >sec
		}
	}'
}

# gen_swanctl I FILE: the same conns as swanctl.conf (BASELINES 6).
gen_swanctl() {
	if [ -z "${_ssi:-}" ]; then
		# shellcheck disable=SC2034 # read by _ss_prop
		p_esn=''
		_ssi=$(_ss_prop ike "$IKE") _sse=$(_ss_prop esp "$ESP")
	fi
	awk -v n="$NODES" -v me="$1" -v ike="$_ssi" -v esp="$_sse" 'BEGIN {
		print "connections {"
		for (j = 1; j <= n; j++) {
			if (j == me) continue
			a = "10.9." me ".1"; b = "10.9." j ".1"
			printf "\tto-n%d {\n\t\tversion = 2\n\t\tlocal_addrs = %s\n\t\tremote_addrs = %s\n", j, a, b
			printf "\t\tproposals = %s\n", ike
			printf "\t\tlocal {\n\t\t\tauth = psk\n\t\t\tid = %s\n\t\t}\n", a
			printf "\t\tremote {\n\t\t\tauth = psk\n\t\t\tid = %s\n\t\t}\n", b
			printf "\t\tchildren {\n\t\t\tto-n%d {\n\t\t\t\tmode = transport\n", j
			printf "\t\t\t\tesp_proposals = %s\n\t\t\t\tstart_action = start\n\t\t\t}\n\t\t}\n\t}\n", esp
		}
		print "}"; print "secrets {"
		for (j = 1; j <= n; j++) {
			if (j == me) continue
			lo = me < j ? me : j; hi = me < j ? j : me
			printf "\tike-mesh-%d {\n\t\tid-1 = 10.9.%d.1\n\t\tid-2 = 10.9.%d.1\n\t\tsecret = \"mesh-%d-%d\"\n\t}\n", j, me, j, lo, hi
		}
		print "}"
	}' >"$2"
}

# Per daemon: NAME_mesh_start HOST I (starts the daemon with no conn,
# writes the conns to be loaded, records the PID in $HOSTS/HOST/mesh.pid)
# and NAME_mesh_go HOST I (prints the one command that loads and
# initiates them), NAME_mesh_ike HOST (established IKE SAs).
ikebana_mesh_start() {
	_H=$HOSTS/$1
	mkdir -p "$_H/etc/ikebana.d"
	printf 'config setup\ninclude %s/*.conf\n' "$_H/etc/ikebana.d" >"$_H/etc/ikebana.conf"
	: >"$_H/etc/ikebana.secrets"
	chmod 600 "$_H/etc/ikebana.secrets"
	ip netns exec "$1" "$IKB_DAEMON" --nofork --config "$_H/etc/ikebana.conf" \
		--secrets "$_H/etc/ikebana.secrets" --rundir "$_H/run" \
		>>"$_H/log/ikebanad.log" 2>&1 &
	echo "$!" >"$_H/mesh.pid"
	bench_wait_socket 60 "ikebanad on $1" "$_H/run/ikebana.ctl"
	gen_ipsec "$2" "$_H/etc/ikebana.d/mesh.conf" "$_H/etc/ikebana.secrets"
}
ikebana_mesh_go() {
	echo "ip netns exec $1 $IKB_CLI --rundir $HOSTS/$1/run reload"
}
ikebana_mesh_ike() {
	t 30 ip netns exec "$1" "$IKB_CLI" --rundir "$HOSTS/$1/run" status --json |
		jq '[.ike_sas[] | select(.state == "established")] | length'
}

strongswan_mesh_start() {
	strongswan_start "$1" >&2
	echo "$!" >"$HOSTS/$1/mesh.pid"
	gen_swanctl "$2" "$HOSTS/$1/etc/swanctl/conf.d/mesh.conf"
}
strongswan_mesh_go() {
	echo "env STRONGSWAN_CONF=$HOSTS/$1/etc/strongswan.conf ip netns exec $1" \
		"swanctl --load-all --uri $(_ss_uri "$1") --file $HOSTS/$1/etc/swanctl/swanctl.conf"
}
strongswan_mesh_ike() {
	STRONGSWAN_CONF=$HOSTS/$1/etc/strongswan.conf t 30 swanctl --list-sas --uri "$(_ss_uri "$1")" |
		grep -c ', ESTABLISHED, IKEv2'
}

libreswan_mesh_start() {
	_H=$HOSTS/$1
	mkdir -p "$_H/etc/ipsec.d/conns"
	gen_ipsec "$2" "$_H/etc/ipsec.d/conns/mesh.conf" "$_H/etc/ipsec.secrets" leftupdown=%disabled
	libreswan_start "$1" >&2
	echo "$!" >"$_H/mesh.pid"
}
libreswan_mesh_go() {
	echo "ip netns exec $1 $LS_EXEC/addconn --ctlsocket $(_ls_ctl "$1")" \
		"--config $HOSTS/$1/etc/ipsec.d/conns/mesh.conf --autoall"
}
libreswan_mesh_ike() {
	t 30 "$LS_EXEC/whack" --ctlsocket "$(_ls_ctl "$1")" --showstates |
		grep -c 'ESTABLISHED_IKE_SA'
}

# sad_total: the ESP SAs of all nodes together (one process per node:
# once a second while settling).
sad_total() {
	_st=0
	for _i in $NODE_LIST; do
		_c=$(ip -n "n$_i" xfrm state count)
		_st=$((_st + ${_c##* }))
	done
	echo "$_st"
}

run_daemon() {
	d=$1 r=$2
	log "=== round $r: $d on $NODES nodes, $PAIRS pairs, every node initiating to every other"
	[ "$d" = libreswan ] && libreswan_prepare
	_cmds=/tmp/mesh.cmds
	: >"$_cmds"
	for i in $NODE_LIST; do
		"${d}_mesh_start" "n$i" "$i"
		"${d}_mesh_go" "n$i" >>"$_cmds"
	done
	log "$d: $NODES daemons started, none with a conn"
	out=$(bash "$WAIT" wait "$NODES" "$WAIT_SECS" "$RESULTS/sad-trace.$d.$r" \
		"$RESULTS/go.$d.$r.log" "$_cmds") ||
		fail "$d: the timing helper failed: $out"
	log "$d: t_cmd t_count t_up peak: $out"
	# shellcheck disable=SC2086 # four words
	set -- $out
	t_cmd=$1 t_count=$2 t_up=$3 peak=$4
	[ "$t_up" != timeout ] || {
		log "$d: after ${WAIT_SECS}s: missing, duplicate, other SAs: $(bash "$WAIT" pairs "$NODES")"
		fail "$d: not every pair of the mesh is up after ${WAIT_SECS}s"
	}
	# settled: no change for SETTLE seconds
	_last=$(sad_total) _same=0 _waited=0
	while [ "$_same" -lt "$SETTLE" ] && [ "$_waited" -lt "$SETTLE_MAX" ]; do
		sleep 1
		_now=$(sad_total)
		if [ "$_now" = "$_last" ]; then _same=$((_same + 1)); else _same=0 _last=$_now; fi
		_waited=$((_waited + 1))
	done
	t_settled=$(awk -v t="$t_up" -v w="$_waited" 'BEGIN { printf "%.1f", t + w }')
	# shellcheck disable=SC2046 # three words
	set -- $(bash "$WAIT" pairs "$NODES")
	missing=$1 cdups=$2 other=$3
	ike=0
	for i in $NODE_LIST; do
		_k=$("${d}_mesh_ike" "n$i") || _k=0
		ike=$((ike + _k))
	done
	# each pair's IKE SA is counted at both of its ends
	idups=$((ike - 2 * PAIRS))
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$d" "$NODES" "$PAIRS" \
		"$t_cmd" "$t_count" "$t_up" "$peak" "$t_settled" "$missing" "$cdups" "$other" "$ike" "$idups" >>"$tsv"
	log "ok: $d: every pair up in $t_up s; settled after $t_settled s: $missing SA directions missing, $cdups duplicate Child SAs, $ike IKE SA ends ($idups beyond one per pair)"
	for i in $NODE_LIST; do
		bench_stop_pid "n$i" "$(cat "$HOSTS/n$i/mesh.pid")"
	done
}

bench_rounds
pass
