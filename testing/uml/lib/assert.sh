# Assertions: each one passes quietly with a log line, or calls fail (which
# dumps every host's logs and xfrm state, then exits 1).
# shellcheck shell=sh

# poll_for SECONDS CMD...: polls CMD until it succeeds (status 0) or the
# time is up (status 1). Polls are sparse (0.2 s): every poll costs the one
# CPU the daemons run on.
poll_for() {
	_pend=$(($(now_cs) + $1 * 100))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$(now_cs)" -gt "$_pend" ] && return 1
		sleep 0.2
	done
}

# wait_for SECONDS DESCRIPTION CMD...: poll_for, or fail naming what never
# happened. Use it instead of sleeping.
wait_for() {
	_secs=$1 _what=$2
	shift 2
	poll_for "$_secs" "$@" || fail "timed out after ${_secs}s waiting for $_what"
}

# _has_sas HOST N KEY=VALUE...: at least N matching SAs.
_has_sas() {
	_h=$1 _n=$2
	shift 2
	[ "$(sa_count "$_h" "$@")" -ge "$_n" ]
}

# expect_sa HOST [count=N] [timeout=S] KEY=VALUE...: waits until HOST has at
# least N (default 2: one each way) ESP SAs whose sa_list fields match, e.g.
#   expect_sa west alg=aes_gcm128 dir=in replay=2048
expect_sa() {
	_h=$1 _n=2 _to=15
	shift
	_keys=
	for _a; do
		case $_a in
		count=*) _n=${_a#count=} ;;
		timeout=*) _to=${_a#timeout=} ;;
		*) _keys="$_keys $_a" ;;
		esac
	done
	# shellcheck disable=SC2086 # _keys is a list of words
	wait_for "$_to" "$_n ESP SA(s) on $_h with${_keys:- any properties}" _has_sas "$_h" "$_n" $_keys
	log "ok: $_h has $(sa_count "$_h") ESP SA(s), $_n matching${_keys}"
}

# expect_no_sa HOST: HOST has no ESP SA at all.
expect_no_sa() {
	[ "$(sa_count "$1")" = 0 ] || fail "$1 has ESP SAs, expected none"
	log "ok: $1 has no ESP SA"
}

# expect_esp_grows HOST CMD...: ESP packet counters of HOST grow while CMD
# runs (CMD is usually ping_ok or iperf_ok). A ping that passed in
# cleartext proves nothing (BASELINES 13); this does.
expect_esp_grows() {
	_h=$1
	shift
	capture_wait
	read -r _in0 _out0 <<-EOF
	$(esp_inout "$_h")
	EOF
	"$@"
	read -r _in1 _out1 <<-EOF
	$(esp_inout "$_h")
	EOF
	if [ "$_in1" -le "$_in0" ] || [ "$_out1" -le "$_out0" ]; then
		fail "ESP counters on $_h did not grow during '$*': in $_in0 -> $_in1, out $_out0 -> $_out1"
	fi
	log "ok: ESP on $_h grew: in $_in0 -> $_in1, out $_out0 -> $_out1 packets"
}
