#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Part of testing/bench/mesh, inside UML: the SAs of a full mesh of nodes
# n1..nN (node i's address 10.9.i.1), read from their kernels.
#
#   mesh-wait.bash pairs N
#       prints "missing dups other": over every ordered pair of nodes
#       (i, j), how many of the 2N(N-1) SA directions (i's outbound SA to
#       j, i's inbound SA from j) have no ESP SA, how many ESP SAs there
#       are beyond one per direction, and how many ESP SAs belong to no
#       pair at all
#   mesh-wait.bash wait N SECONDS TRACE LOG CMDFILE
#       runs every line of CMDFILE as a command, all at once (each node's
#       "load the conns and go"; their output appended to LOG), then polls
#       until every direction of every pair has an SA, or SECONDS pass.
#       Prints "t_cmd t_count t_done peak": when the last command
#       returned, when every node's SAD first held 2(N-1) SAs, when the
#       pair check first passed (or "timeout"), in seconds after the
#       commands started, and the largest SAD total seen.
#       TRACE gets one "seconds total" line per poll that saw a change.
#
# Why one long-lived `ip -b -` per node for the counts: a process costs
# 14-28 ms in UML (BASELINES 10), and N of them per poll would take the
# daemons' CPU. Only once the counts are there does a poll read the SAs
# themselves (N `ip` and one awk), to tell a pair that is up from a
# duplicate elsewhere.
set -u

# pairs N: the summary line from every node's `ip xfrm state`.
pairs() {
	local n=$1 i
	for ((i = 1; i <= n; i++)); do
		echo "== $i"
		ip -n "n$i" xfrm state
	done | awk -v n="$n" '
	/^== / { node = $2; next }
	/^src / { src = $2; dst = $4; next }
	/^\tproto esp spi / {
		if ($4 == "0x00000000") next # a larval (ACQUIRE) state
		s = src; d = dst
		if (s !~ /^10\.9\.[0-9]+\.1$/ || d !~ /^10\.9\.[0-9]+\.1$/) { other++; next }
		split(s, a, "."); split(d, b, ".")
		if (a[3] != node && b[3] != node) { other++; next }
		cnt[node, a[3], b[3]]++
	}
	END {
		for (i = 1; i <= n; i++)
			for (j = 1; j <= n; j++) {
				if (i == j) continue
				o = cnt[i, i, j] + 0; in_ = cnt[i, j, i] + 0
				missing += (o == 0) + (in_ == 0)
				dups += (o > 1 ? o - 1 : 0) + (in_ > 1 ? in_ - 1 : 0)
			}
		print missing + 0, dups + 0, other + 0
	}'
}

if [ "${1:-}" = pairs ]; then
	pairs "$2"
	exit
fi
[ "${1:-}" = wait ] && [ $# = 6 ] || { echo "usage: $0 pairs N | wait N SECONDS TRACE LOG CMDFILE" >&2; exit 2; }
n=$2 secs=$3 trace=$4 cmdlog=$5 cmdfile=$6
dir=$(mktemp -d /tmp/mesh-wait.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$dir"
}
trap cleanup EXIT

# fds 10 + 2i (to ip) and 11 + 2i (from ip) for node i
for ((i = 1; i <= n; i++)); do
	mkfifo "$dir/$i.in" "$dir/$i.out" || exit 1
	stdbuf -oL ip -n "n$i" -b - <"$dir/$i.in" >"$dir/$i.out" 2>&1 &
	pids+=($!)
	eval "exec $((10 + 2 * i))>\"$dir/$i.in\" $((11 + 2 * i))<\"$dir/$i.out\""
done
mkfifo "$dir/sleep" || exit 1
# a fifo nobody writes: `read -t` on it is a sleep without a process
exec 7<>"$dir/sleep"

# count I: sets c to node I's "\t SAD count N" (BASELINES 17), -1 when ip
# did not answer. Nothing in the loop forks but the pair check.
count() {
	local line
	echo "xfrm state count" >&$((10 + 2 * $1))
	if read -r -t 5 line <&$((11 + 2 * $1)); then c=${line##* }; else c=-1; fi
	case $c in '' | *[!0-9-]*) c=-1 ;; esac
}
usec() { now=${EPOCHREALTIME/./}; now=$((10#$now)); }

for ((i = 1; i <= n; i++)); do
	count "$i"
	[ "$c" = 0 ] || { echo "mesh-wait: n$i holds SAs already, or ip does not answer ($c)" >&2; exit 1; }
done
mapfile -t cmds <"$cmdfile"
: >"$trace"
exec 8>>"$trace"
usec; t0=$now
cpids=()
for cmd in "${cmds[@]}"; do
	eval "$cmd" >>"$cmdlog" 2>&1 &
	cpids+=($!)
done
deadline=$((t0 + secs * 1000000))
t_cmd='' t_count='' t_done=timeout peak=0 last=-1 next_check=0
while :; do
	if [ -z "$t_cmd" ]; then
		running=0
		for p in "${cpids[@]}"; do kill -0 "$p" 2>/dev/null && running=1 && break; done
		[ "$running" = 0 ] && { usec; t_cmd=$now; }
	fi
	total=0 all=1
	for ((i = 1; i <= n; i++)); do
		count "$i"
		total=$((total + c))
		[ "$c" -ge $((2 * (n - 1))) ] || all=0
	done
	usec
	[ "$total" -gt "$peak" ] && peak=$total
	if [ "$total" != "$last" ]; then
		printf '%d.%06d %s\n' $(((now - t0) / 1000000)) $(((now - t0) % 1000000)) "$total" >&8
		last=$total
	fi
	if [ "$all" = 1 ]; then
		[ -z "$t_count" ] && t_count=$now
		# the check forks N + 1 processes: at most every 0.5 s
		if [ "$now" -ge "$next_check" ]; then
			# (no < <(...): UML has no /dev/fd)
			missing=$(pairs "$n")
			missing=${missing%% *}
			usec
			if [ "$missing" = 0 ]; then
				t_done=$now
				break
			fi
			next_check=$((now + 500000))
		fi
	fi
	[ "$now" -gt "$deadline" ] && break
	read -r -t 0.05 -u 7 _ || :
done
for p in "${cpids[@]}"; do
	wait "$p" || echo "mesh-wait: a node's command exited with status $?" >&2
done
[ -n "$t_cmd" ] || { usec; t_cmd=$now; }
sec() {
	case $1 in
	'' | timeout) echo "${1:-none}" ;;
	*) printf '%d.%06d' $((($1 - t0) / 1000000)) $((($1 - t0) % 1000000)) ;;
	esac
}
echo "$(sec "$t_cmd") $(sec "$t_count") $(sec "$t_done") $peak"
