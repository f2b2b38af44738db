#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Part of testing/bench/ike-rate --control, inside UML:
#
#   time-cmd.bash OUT CMD...
#
# Runs CMD with its output (stdout and stderr) in OUT and prints
# "SECONDS LINES STATUS": its wall time from $EPOCHREALTIME (no process
# for the clock: a fork costs 14-28 ms in UML, BASELINES 10), the lines
# it printed and its exit status.
set -u
out=$1
shift
t0=${EPOCHREALTIME/./}
"$@" >"$out" 2>&1
rc=$?
t1=${EPOCHREALTIME/./}
d=$((10#$t1 - 10#$t0))
lines=0
while IFS= read -r _; do lines=$((lines + 1)); done <"$out"
printf '%d.%06d %d %d\n' $((d / 1000000)) $((d % 1000000)) "$lines" "$rc"
