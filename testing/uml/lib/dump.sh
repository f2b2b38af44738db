# What a reader needs when a scenario fails: every host's daemon logs, its
# daemons' own view, and the kernel's xfrm state and policy.
# shellcheck shell=sh

dump_host() {
	_H=$HOSTS/$1
	for _l in "$_H"/log/*.log; do
		[ -e "$_l" ] || continue
		echo "----- $1: $(basename "$_l") (last 200 lines)"
		tail -n 200 "$_l"
	done
	[ -e "$_H/daemons" ] && while read -r _d; do
		echo "----- $1: $_d status"
		"${_d}_status" "$1" 2>&1 | head -n 100
	done <"$_H/daemons"
	echo "----- $1: ip -s xfrm state"
	ip -n "$1" -s xfrm state 2>&1 | grep -v '^	 [0-9a-f]\{8\} '
	echo "----- $1: ip xfrm policy"
	ip -n "$1" xfrm policy 2>&1
	echo "----- $1: ip addr / route"
	ip -n "$1" -br addr 2>&1
	ip -n "$1" route 2>&1
}

# dump_all: every host, to stdout (the run log). Runs once.
dump_all() {
	[ -n "${_dumped:-}" ] && return
	_dumped=1
	capture_stop
	echo "========== dump of every host (full logs: hosts/*/log in the results dir)"
	for _h in $(hosts); do dump_host "$_h"; done
	echo "========== end of dump"
}
