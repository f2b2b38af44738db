# Guest side helpers shared by the UML benches (sourced after
# $IKB_UML/lib/all.sh, inside UML).
#   bench_setup TOPOLOGY TSV   the topology, A and B (west's and east's
#                              addresses), tsv=$RESULTS/TSV emptied, the
#                              machine recorded and fresh TCP on both hosts
#   bench_iperf_server         iperf3 -s on east (every address, port
#                              5201) for the whole boot; srv is its PID
#   bench_guest_machine        writes $RESULTS/machine (kernel, CPUs, memory)
#   bench_fresh_tcp HOST...    no TCP metrics carried from one connection
#                              to the next (each transfer starts alike)
#   bench_ikb_stop HOST...     TERM to each ikebanad by PID; each must
#                              remove its SAs and policies
#   bench_ikb_clear HOST...    a new etc/, run/ and nss/ for the next round
#   bench_iperf JSONVAR ARGS   iperf3 client ARGS, output (-J) kept in the
#                              variable JSONVAR; fails naming iperf3's error
#   bench_sa_packets HOST SRC  ESP packets counted by HOST's SAs from SRC
#                              (two processes: sa_list's five cost seconds
#                              on a busy host)
#   bench_rounds               the guest's run_daemon DAEMON ROUND for each
#                              of $ROUNDS rounds and each of $DAEMONS
#   bench_wait_socket S WHAT PATH   until PATH is a socket, S seconds at most
#   bench_stop_pid HOST PID    a daemon of any kind stopped (TERM, KILL
#                              after 30 s), HOST's SAD and SPD flushed and
#                              its state dirs emptied
# Needs xfrm_objects: sources xfrm-replay.sh.
# shellcheck shell=sh source=/dev/null
. "$IKB_REPO/testing/bench/lib/xfrm-replay.sh"

# shellcheck disable=SC2034 # A, B, tsv and srv are the callers'
bench_setup() {
	topology "$1"
	A=$(addr_of west) B=$(addr_of east)
	tsv=$RESULTS/$2
	: >"$tsv"
	bench_guest_machine
	bench_fresh_tcp west east
}

# shellcheck disable=SC2034
bench_iperf_server() {
	timeout -k 2 3000 ip netns exec east iperf3 -s -p 5201 >"$HOSTS/east/log/iperf3.log" 2>&1 &
	srv=$!
	wait_for 15 "iperf3 server on east" _iperf_listening east
}

bench_guest_machine() {
	{
		echo "kernel=$(uname -r)"
		echo "cpus=$(grep -c '^processor' /proc/cpuinfo)"
		echo "mem=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)"
	} >"$RESULTS/machine"
}

# Without this the kernel hands a connection the previous one's ssthresh
# (tcp_metrics), and short transfers favour whichever runs first.
bench_fresh_tcp() {
	for _h; do
		ip netns exec "$_h" sysctl -qw net.ipv4.tcp_no_metrics_save=1 ||
			fail "$_h: sysctl net.ipv4.tcp_no_metrics_save=1"
	done
}

# bench_ikb_start HOST...: ikebanad on each at once (NSS start-up is
# seconds in UML); each ikebana_start waits until its daemon answers.
bench_ikb_start() {
	_bp=
	for _h; do
		ikebana_start "$_h" &
		_bp="$_bp $!"
	done
	for _p in $_bp; do
		wait "$_p" || fail "ikebanad on one of $* did not start"
	done
}

bench_ikb_stop() {
	for _h; do
		_pid=$(cat "$HOSTS/$_h/ikebanad.pid")
		kill "$_pid" 2>/dev/null
		poll_for 10 sh -c "! kill -0 $_pid" || fail "ikebanad on $_h (pid $_pid) did not stop"
		rm -f "$HOSTS/$_h/ikebanad.pid"
		[ "$(xfrm_objects "$_h")" = 0 ] ||
			fail "ikebanad on $_h left SAs or policies: $(ip -n "$_h" xfrm state) $(ip -n "$_h" xfrm policy)"
	done
	log "ok: ikebanad stopped on $* and removed its SAs and policies"
}

bench_ikb_clear() {
	for _h; do
		_H=$HOSTS/$_h
		for _l in "$_H"/log/*.log; do [ -e "$_l" ] && echo "===== next round" >>"$_l"; done
		rm -rf "${_H:?}/etc" "$_H/run" "$_H/nss" "$_H/daemons"
		mkdir -p "$_H/etc" "$_H/run" "$_H/nss"
	done
}

# bench_iperf VAR HOST ARGS...: iperf3 -J from HOST; VAR gets the JSON.
bench_iperf() {
	_bv=$1 _bh=$2
	shift 2
	_bj=$(t 300 ip netns exec "$_bh" iperf3 -J "$@" 2>&1) ||
		fail "iperf3 $* on $_bh failed: $(echo "$_bj" | jq -r '.error // empty' 2>/dev/null | head -c 300)"
	eval "$_bv=\$_bj"
}

bench_sa_packets() {
	ip -n "$1" -s xfrm state list src "$2" proto esp |
		awk '/^\t  [0-9]+\(bytes\), [0-9]+\(packets\)/ { p = $2; sub(/\(.*/, "", p); s += p }
		     END { print s + 0 }'
}

# bench_wait_socket SECONDS WHAT PATH: until PATH is a socket (builtins only,
# but sleep; at least SECONDS: a busy UML makes each sleep longer).
bench_wait_socket() {
	_ws=$(($1 * 10))
	until [ -S "$3" ]; do
		_ws=$((_ws - 1))
		[ "$_ws" -lt 0 ] && fail "timed out after ${1}s waiting for $2"
		sleep 0.1
	done
}

# bench_stop_pid HOST PID: TERM, then KILL after 30 s; the SAD and SPD are
# flushed either way, and the host's state dirs emptied.
bench_stop_pid() {
	kill "$2" 2>/dev/null
	_sd=300
	while kill -0 "$2" 2>/dev/null; do
		_sd=$((_sd - 1))
		if [ "$_sd" -lt 0 ]; then
			log "$1: pid $2 ignored TERM for 30 s: KILL"
			kill -KILL "$2" 2>/dev/null
			poll_for 10 sh -c "! kill -0 $2" || fail "$1: pid $2 does not die"
			break
		fi
		sleep 0.1
	done
	printf '%s\n' "xfrm state flush" "xfrm policy flush" | ip -n "$1" -b -
	_H=$HOSTS/$1
	for _l in "$_H"/log/*.log; do [ -e "$_l" ] && echo "===== stopped" >>"$_l"; done
	rm -rf "${_H:?}/etc" "$_H/run" "$_H/nss" "$_H/ikebanad.pid" "$_H/daemons"
	mkdir -p "$_H/etc" "$_H/run" "$_H/nss"
}

bench_rounds() {
	_br=1
	while [ "$_br" -le "$ROUNDS" ]; do
		for _bd in $DAEMONS; do
			run_daemon "$_bd" "$_br"
		done
		_br=$((_br + 1))
	done
}
