#!/bin/sh
# A hostile responder with the keys, beside a real tunnel (issue 39 item
# 4), see description.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
# The daemon runs under valgrind's memcheck: ASan cannot run in UML (its
# shadow must sit at 0x7fff8000 and span 16 TiB, more than a UML process's
# address space; ikebanad aborts at once). memcheck finds the same class,
# a read of memory that is not there or not set, and the leaks at exit.
# ikebana's UBSan and ASan runs of this class are the unit test
# test_hostile and the fuzz-initiator replay, in build-asan.
command -v valgrind >/dev/null || fail "no valgrind: testing/uml/install-deps installs it"
IKB_DAEMON_WRAP="valgrind -q --error-exitcode=99 --leak-check=full
	--errors-for-leak-kinds=definite --track-fds=no
	--log-file=$HOSTS/west/log/memcheck.%p"
IKB_START_WAIT=120
HOSTILE=$IKB_BUILD/testing/tools/hostile-peer
[ -x "$HOSTILE" ] || fail "$HOSTILE not built"
SECS=${SECS:-150}
topology west-east-evil
# shellcheck disable=SC2034 # read by the helpers
IKB_KERNEL=kernel-xfrm
_ikb_conf west
PEER_CONN_EXTRA='\tpfs=no'
peer strongswan east west responder psk ike=$IKB_IKE esp=$IKB_ESP
peer ikebana west east initiator psk ike=$IKB_IKE esp=$IKB_ESP
PEER_CONN_EXTRA=
wait_for 30 "ikebana on west: the strongSwan tunnel up" _ikb_established west
_ikb_snap west
_real_spi=$(_ikb_json west spi_r)
_pid=$(cat "$HOSTS/west/ikebanad.pid")

# evil: hostile-peer's responder conn; west's conn to it
mkdir -p "$HOSTS/evil/etc"
printf '%s\n' 'config setup' \
	'	plugins="esp-proposals replay-window multi-sa kernel-mem"' \
	'conn evil' '	left=198.51.100.2' '	right=198.51.100.1' \
	'	leftid=@evil' '	rightid=@west' '	authby=secret' '	auto=add' \
	>"$HOSTS/evil/etc/evil.conf"
echo '@west @evil : PSK "hostile-responder-psk"' >"$HOSTS/evil/etc/evil.secrets"
chmod 600 "$HOSTS/evil/etc/evil.secrets"
cat "$HOSTS/evil/etc/evil.secrets" >>"$HOSTS/west/etc/ikebana.secrets"
printf '%s\n' 'conn evil' '	left=198.51.100.1' '	right=198.51.100.2' \
	'	leftid=@west' '	rightid=@evil' '	authby=secret' '	auto=start' \
	'	keyingtries=%forever' '	ikelifetime=20s' '	ipsec-lifetime=8s' \
	'	rekeymargin=4s' '	dpddelay=2s' '	dpdtimeout=10s' \
	'	retransmit-timeout=6s' >"$HOSTS/west/etc/ikebana.d/evil.conf"
timeout -k 2 $((SECS + 30)) ip netns exec evil "$HOSTILE" -c "$HOSTS/evil/etc/evil.conf" -s "$HOSTS/evil/etc/evil.secrets" \
	-a 198.51.100.2 -p 40 -S "${SEED:-39}" -d "$SECS" \
	>"$HOSTS/evil/log/hostile.out" 2>"$HOSTS/evil/log/hostile.log" &
_evil=$!
_ikb west reload || fail "ikebana on west: reload with the evil conn"
_esp0=$(esp_packets west dir=out)
timeout -k 2 $((SECS + 30)) ip netns exec west ping -q -c $((SECS * 5)) -i 0.2 -W 1 192.0.2.2 >"$HOSTS/west/log/ping.out" 2>&1 &
_ping=$!
log "west: pinging east through strongSwan for ${SECS}s while evil lies"
# IKE_AUTH, where the crash was, again and again: down and up every 10 s,
# beside the rekeys and liveness checks the short lifetimes make
(
	while kill -0 "$_evil" 2>/dev/null; do
		_ikb west down evil
		_ikb west up evil
		sleep 10
	done
) &
_again=$!
wait "$_evil" || fail "hostile-peer: $(cat "$HOSTS/evil/log/hostile.out" "$HOSTS/evil/log/hostile.log" | tail -5)"
wait "$_ping"
wait "$_again"
log "evil: $(cat "$HOSTS/evil/log/hostile.out")"
log "west: $(tail -2 "$HOSTS/west/log/ping.out" | head -1)"

kill -0 "$_pid" 2>/dev/null || fail "ikebanad on west died under the hostile responder"
_edited=$(sed -n 's/.*edited=\([0-9]*\).*/\1/p' "$HOSTS/evil/log/hostile.out")
[ "${_edited:-0}" -ge 20 ] || fail "evil edited only ${_edited:-0} messages"
_log=$HOSTS/west/log/ikebanad.log
_inits=$(grep -c 'conn evil #[0-9]*: initiating IKE_SA_INIT' "$_log")
_ups=$(grep -c 'conn evil #[0-9]*: IKE SA established with @evil' "$_log")
_rekeys=$(grep -c 'conn evil #[0-9]*: Child SA rekeyed' "$_log")
[ "$_inits" -ge 8 ] && [ "$_ups" -ge 2 ] && [ "$_rekeys" -ge 5 ] ||
	fail "west's conn to evil: $_inits initiations, $_ups IKE SAs up, $_rekeys Child SA rekeys: not deep enough"
# the edits reached the handlers: refusals and payloads left out
_handled=$(grep -cE 'conn evil #[0-9]*: .*(peer answered|refused by the peer|lacks the)' "$_log")
[ "$_handled" -ge 3 ] ||
	fail "only $_handled refused or malformed responses reached west's handlers"
_loss=$(sed -n 's/.* \([0-9.]*\)% packet loss.*/\1/p' "$HOSTS/west/log/ping.out")
awk -v l="${_loss:-100}" 'BEGIN { exit !(l <= 2) }' ||
	fail "ping west -> east through strongSwan lost ${_loss:-?}%"
[ "$(esp_packets west dir=out)" -gt "$_esp0" ] || fail "no ESP to strongSwan during the run"
_ikb_snap west
jq -e --arg s "$_real_spi" '[.ike_sas[] | select(.spi_r == $s and .state == "established")] | length == 1' \
	"$HOSTS/west/log/status.json" >/dev/null || fail "west's IKE SA with strongSwan changed"
log "ok: evil edited $_edited messages; west: $_inits initiations to evil, $_ups IKE SAs up, $_rekeys Child SA rekeys, $_handled refusals or payloads missing handled, ping loss ${_loss}%"

# SIGTERM: exit 0, which under memcheck means no bad access and no leak
kill -TERM "$_pid"
_gone() { ! kill -0 "$_pid" 2>/dev/null; }
wait_for 60 "ikebanad on west exits" _gone
# its status, where it is this shell's child (ikebana_start ran it here)
wait "$_pid" 2>/dev/null
_rc=$?
[ "$_rc" = 127 ] && _rc=0 # not our child: the report alone tells
rm -f "$HOSTS/west/ikebanad.pid"
_report=$(cat "$HOSTS/west/log/"memcheck.* 2>/dev/null)
[ -z "$_report" ] || fail "memcheck on west: $(echo "$_report" | head -60)"
[ "$_rc" = 0 ] || fail "ikebanad on west exited $_rc on SIGTERM"
log "ok: ikebanad exited 0, memcheck silent (no bad access, no definite leak)"
pass
