# shellcheck shell=bash
# Host side helpers shared by the UML benches (sourced by
# testing/bench/NAME; bash). A bench sets BENCH (its name, for messages)
# and top (the repo) before sourcing this file.
#   bench_need_build FILE...   each FILE under $build must be executable
#   bench_boot RESULTS TIMEOUT SCRIPT [NAME=VALUE...]
#                              one UML boot of a guest script; a TERM or
#                              INT (testing/check's timeout) takes UML down
#   bench_failed RESULTS RC TIMEOUT   explains a failed boot on stderr
#   bench_machine RESULTS      "Machine: ..." lines for a report
#   median                     the median of numbers on stdin, one a line
: "${BENCH:?}" "${top:?}"
# shellcheck source=testing/lib/exit-status.sh
. "$top/testing/lib/exit-status.sh"
build=${BUILD:-$top/build}

bench_need_build() {
	local f
	for f; do
		if [ ! -x "$build/$f" ]; then
			echo "$BENCH: $build/$f not found; build with: ninja -C $build" >&2
			exit 1
		fi
	done
	[ "$(id -u)" = 0 ] || { echo "$BENCH: run as root (UML, namespaces)" >&2; exit 1; }
}

# The boot runs in its own process group (setsid), so that our TERM can
# take all of UML down. Records the host load before and after in
# RESULTS/load for bench_machine.
bench_boot() {
	local results=$1 timeout=$2 script=$3 boot rc
	shift 3
	cut -d' ' -f1-3 /proc/loadavg >"$results/load"
	setsid "$top/testing/uml/boot" -r "$results" -t "$timeout" "$script" \
		IKB_BUILD="$build" "$@" >"$results/boot.out" 2>&1 &
	boot=$!
	# shellcheck disable=SC2064 # $boot now, not when the trap fires
	trap "kill -TERM -- -$boot 2>/dev/null; exit 1" TERM INT
	wait "$boot"
	rc=$?
	trap - TERM INT
	cut -d' ' -f1-3 /proc/loadavg >>"$results/load"
	return "$rc"
}

bench_failed() {
	echo "$BENCH: the bench failed (boot exit $2); results in $1" >&2
	local why
	why=$(uml_exit_why "$2" "$3" "$1") && echo "$BENCH: $why" >&2
	grep -E 'FAIL|ok:|===' "$1/run.log" 2>/dev/null | tail -n 20 >&2
}

# The guest writes RESULTS/machine (bench_guest_machine in guest.sh).
bench_machine() {
	local r=$1
	kv() { sed -n "s/^$1=//p" "$r/machine"; }
	echo "Machine: UML $(kv kernel), $(kv cpus) CPU, $(($(kv mem) / 1024)) MiB, no AES-NI inside UML,"
	echo "on a host with $(nproc) CPUs ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo));"
	echo "host load average $(sed -n 1p "$r/load") before, $(sed -n 2p "$r/load") after."
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
