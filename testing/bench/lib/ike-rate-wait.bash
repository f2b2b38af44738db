#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Part of testing/bench/ike-rate, inside UML: runs one command and times
# until the kernels of both hosts hold enough SAs.
#
#   ike-rate-wait.bash WANT SECONDS TRACE LOG CMD...
#
# Starts CMD (the one command that initiates every conn; its output is
# appended to LOG), with a tcpdump on west's eth0 that keeps only the first
# IKE datagram west sends. Then polls the SAD count of namespaces west and
# east every 20 ms until both hold at least WANT SAs, or SECONDS pass.
# Prints one line:
#   t_cmd t_first t_done west east t_ike
# in seconds after CMD was started: when CMD returned, when west's kernel
# first held an SA, when both held WANT (or "timeout"), the last counts,
# and when west sent its first IKE datagram ("none" if tcpdump saw none).
# TRACE gets one "seconds west east" line per poll that saw a change.
#
# Why bash and two long-lived `ip -b -`: a process costs 14-28 ms in UML
# (BASELINES 10), so a poll that forked `ip` would take the daemons' one
# CPU. Here each poll is two netlink round trips on running processes, and
# the clock is $EPOCHREALTIME (microseconds), not /proc/uptime (10 ms);
# tcpdump -tt stamps packets with the same (wall) clock.
set -u
want=$1 secs=$2 trace=$3 cmdlog=$4
shift 4
ns_a=${IKR_A:-west} ns_b=${IKR_B:-east}
dir=$(mktemp -d /tmp/ike-rate-wait.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$dir"
}
trap cleanup EXIT

# One `ip -b -` per namespace, answering "xfrm state count" line by line
# (stdbuf: ip's stdout is a pipe, which stdio would block-buffer).
open_counter() {
	stdbuf -oL ip -n "$1" -b - <"$dir/$1.in" >"$dir/$1.out" 2>&1 &
	pids+=($!)
}
mkfifo "$dir/$ns_a.in" "$dir/$ns_a.out" "$dir/$ns_b.in" "$dir/$ns_b.out" "$dir/sleep" || exit 1
open_counter "$ns_a"
open_counter "$ns_b"
exec 3>"$dir/$ns_a.in" 4<"$dir/$ns_a.out" 5>"$dir/$ns_b.in" 6<"$dir/$ns_b.out"
# a fifo nobody writes: `read -t` on it is a sleep without a process
exec 7<>"$dir/sleep"

# The first IKE datagram out of west, IKE_SA_INIT on port 500 whichever
# daemon: tcpdump exits after it (-c 1), so it costs nothing later on.
# --immediate-mode: else libpcap hands the packet over when its buffer
# block times out, up to a second later (the stamp is the kernel's anyway).
ip netns exec "$ns_a" tcpdump -i eth0 -Q out -n -tt -c 1 --immediate-mode \
	'udp port 500' >"$dir/ike0" 2>"$dir/tcpdump.err" &
tcpdump=$!
pids+=("$tcpdump")
for _ in $(seq 250); do
	[[ $(<"$dir/tcpdump.err") == *listening* ]] && break
	read -r -t 0.02 -u 7 _ || :
done

# Inside the loop nothing may fork (a $(...) is a fork too): the helpers
# set variables instead of printing.
# count OUT_FD IN_FD: sets c to the last word of ip's "\t SAD count N"
# (BASELINES 17), or -1 when ip did not answer.
count() {
	local line
	echo "xfrm state count" >&"$1"
	if read -r -t 5 line <&"$2"; then c=${line##* }; else c=-1; fi
	case $c in '' | *[!0-9-]*) c=-1 ;; esac
}

# usec: sets now to microseconds since the epoch ($EPOCHREALTIME)
usec() { now=${EPOCHREALTIME/./}; now=$((10#$now)); }

count 3 4; w0=$c
count 5 6; e0=$c
if [ "$w0" != 0 ] || [ "$e0" != 0 ]; then
	echo "ike-rate-wait: the kernels hold SAs already, or ip does not answer (west $w0, east $e0)" >&2
	exit 1
fi
: >"$trace"
usec; t0=$now
"$@" >>"$cmdlog" 2>&1 &
cmd=$!
deadline=$((t0 + secs * 1000000))
t_cmd='' t_first='' t_done=timeout w=0 e=0 lw=-1 le=-1
exec 8>>"$trace"
while :; do
	# kill -0 is a builtin; so are read, echo, printf and [
	if [ -z "$t_cmd" ] && ! kill -0 "$cmd" 2>/dev/null; then
		usec; t_cmd=$now
		wait "$cmd" || echo "ike-rate-wait: '$*' exited with status $?" >&2
	fi
	count 3 4; w=$c
	count 5 6; e=$c
	usec
	if [ "$w" != "$lw" ] || [ "$e" != "$le" ]; then
		printf '%d.%06d %s %s\n' $(((now - t0) / 1000000)) $(((now - t0) % 1000000)) \
			"$w" "$e" >&8
		lw=$w le=$e
	fi
	[ -z "$t_first" ] && [ "$w" -gt 0 ] && t_first=$now
	if [ "$w" -ge "$want" ] && [ "$e" -ge "$want" ]; then
		t_done=$now
		break
	fi
	[ "$now" -gt "$deadline" ] && break
	read -r -t 0.02 -u 7 _ || :
done
if [ -z "$t_cmd" ]; then
	wait "$cmd" || echo "ike-rate-wait: '$*' exited with status $?" >&2
	usec; t_cmd=$now
fi
# tcpdump -tt: "1796049881.477581 IP 10.1.0.1.500 > ..."; it exits after
# that one packet (wait for it: up to 3 s)
for _ in $(seq 150); do
	kill -0 "$tcpdump" 2>/dev/null || break
	read -r -t 0.02 -u 7 _ || :
done
t_ike=''
read -r stamp _ <"$dir/ike0" && [[ $stamp == [0-9]*.[0-9]* ]] &&
	t_ike=$((10#${stamp%.*} * 1000000 + 10#${stamp#*.}))
[ -n "$t_ike" ] || echo "ike-rate-wait: tcpdump saw no IKE datagram: $(cat "$dir/tcpdump.err" "$dir/ike0")" >&2
sec() {
	case $1 in
	'' | timeout) echo "${1:-none}" ;;
	*)
		local d=$(($1 - t0)) sign=''
		[ "$d" -lt 0 ] && sign=- d=$((-d))
		printf '%s%d.%06d' "$sign" $((d / 1000000)) $((d % 1000000))
		;;
	esac
}
echo "$(sec "$t_cmd") $(sec "$t_first") $(sec "$t_done") $w $e $(sec "$t_ike")"
