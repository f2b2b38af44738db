# `ikebana explain` in scenarios (issue 20): sourced by lib/all.sh.
# shellcheck shell=sh

# expect_explain HOST CONN TEXT...: waits (20 s) until `ikebana explain
# CONN` on HOST prints every TEXT (fixed strings), then logs its cause and
# fix lines; fails with the last output otherwise. Each call's output is
# also in HOST's log/ikebana.log.
expect_explain() {
	_eh=$1 _ec=$2
	shift 2
	poll_for 20 _explain_has "$_eh" "$_ec" "$@" ||
		fail "ikebana explain $_ec on $_eh: no '$_ex_missing' in: $(cat "$HOSTS/$_eh/log/explain.out")"
	log "ok: ikebana explain $_ec on $_eh: $(grep -E '^(cause|fix):' "$HOSTS/$_eh/log/explain.out" | tr '\n' ' ')"
}

_explain_has() {
	_xh=$1 _xc=$2
	shift 2
	t 20 ip netns exec "$_xh" "$IKB_CLI" --rundir "$HOSTS/$_xh/run" \
		explain "$_xc" >"$HOSTS/$_xh/log/explain.out" 2>&1
	{
		echo "# ikebana explain $_xc"
		cat "$HOSTS/$_xh/log/explain.out"
	} >>"$HOSTS/$_xh/log/ikebana.log"
	for _xt; do
		_ex_missing=$_xt
		grep -qF -- "$_xt" "$HOSTS/$_xh/log/explain.out" || return 1
	done
}
