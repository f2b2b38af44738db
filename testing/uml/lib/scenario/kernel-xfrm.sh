# Helpers for the kernel-xfrm-* scenarios (sourced after lib/all.sh). They
# drive the built kernel-xfrm plugin through testing/tools/xfrmctl: the real
# backend, without IKE.
# shellcheck shell=sh

XFRMCTL=${XFRMCTL:-$IKB_BUILD/testing/tools/xfrmctl}
[ -x "$XFRMCTL" ] ||
	skip "no $XFRMCTL: build it (ninja -C ${IKB_BUILD##*/} testing/tools/xfrmctl)"

# xc HOST ARGS...: xfrmctl in HOST's namespace, its output (with stderr's
# notices) on stdout; a failure fails the scenario.
xc() {
	_xh=$1
	shift
	_xo=$(ns "$_xh" "$XFRMCTL" "$@" 2>&1) || fail "xfrmctl on $_xh: $* ->
$_xo"
	[ -z "$_xo" ] || echo "$_xo"
}

# xc_refused HOST ARGS...: xfrmctl must fail; prints its message.
xc_refused() {
	_xh=$1
	shift
	if _xo=$(ns "$_xh" "$XFRMCTL" "$@" 2>&1); then
		fail "xfrmctl on $_xh accepted what it should refuse: $*"
	fi
	echo "$_xo"
}

hexkey() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }

# sa_pair A B SPI_AB SPI_BA MODE ALGARGS...: the two SAs of one A<->B
# connection on both hosts, each with its direction (in where it is the
# destination). ALGARGS is the algorithm and replay part of sa-add.
sa_pair() {
	_pa=$1 _pb=$2 _s1=$3 _s2=$4 _pm=$5
	shift 5
	_aa=$(addr_of "$_pa") _ab=$(addr_of "$_pb")
	xc "$_pa" sa-add --src "$_aa" --dst "$_ab" --spi "$_s1" --dir out --mode "$_pm" --reqid 1 "$@" >/dev/null
	xc "$_pa" sa-add --src "$_ab" --dst "$_aa" --spi "$_s2" --dir in --mode "$_pm" --reqid 1 "$@" >/dev/null
	xc "$_pb" sa-add --src "$_aa" --dst "$_ab" --spi "$_s1" --dir in --mode "$_pm" --reqid 1 "$@" >/dev/null
	xc "$_pb" sa-add --src "$_ab" --dst "$_aa" --spi "$_s2" --dir out --mode "$_pm" --reqid 1 "$@" >/dev/null
	log "SAs $_s1/$_s2 ($_pm) between $_pa and $_pb: $*"
}

# transport_policies A B: out and in policies for A<->B host to host.
transport_policies() {
	_aa=$(addr_of "$1") _ab=$(addr_of "$2")
	xc "$1" policy-add --src "$_aa" --dst "$_ab" --dir out --reqid 1
	xc "$1" policy-add --src "$_ab" --dst "$_aa" --dir in --reqid 1
	xc "$2" policy-add --src "$_ab" --dst "$_aa" --dir out --reqid 1
	xc "$2" policy-add --src "$_aa" --dst "$_ab" --dir in --reqid 1
	log "transport policies between $1 and $2"
}

# field OUTPUT KEY: the value of KEY=... in xfrmctl sa-query output.
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
