#!/bin/sh
# pcrypt= and nic-offload= end to end: conn keys, child.tune, sa_add and
# what `ikebana status` reports, ikebana (west, kernel-xfrm) against
# ikebana (east, kernel-xfrm, no tuning keys), one conn per address pair
# (the confs are in west/ and east/):
#   pair 1 pcrypt:  pcrypt=yes, replay-window=64, rekeyed every 15 s.
#     UML has no pcrypt (no SMP): up succeeds, ESP flows, west logs the
#     fallback warning once (through rekeys and a reload) and the window
#     warning at load; status says pcrypt fallback.
#   pair 2 offyes:  nic-offload=yes. veth cannot offload: up succeeds in
#     software, one notice, status says offload software on eth0.
#   pair 3 offcry:  nic-offload=crypto, pair 4 offpkt: nic-offload=packet.
#     `ikebana up` fails with the reason (the kernel's words, or ours
#     where Linux would quietly fall back); neither kernel keeps an SA
#     (larval included) or a policy of those pairs.
# Then pairs 1 and 2 still carry ESP.
# shellcheck disable=SC2015,SC2034
# ("a && b || fail" is meant: fail exits; PAIRS is read by the topology)
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
PAIRS=4
topology west-east-pairs
command -v jq >/dev/null || fail "jq is missing (it reads ikebana status --json)"

FALLBACK='pcrypt=yes: the kernel cannot run rfc4106(gcm(aes)) through pcrypt'
WINDOW='pcrypt=yes reorders packets, and a window of 64 drops'
NOTICE='nic-offload=yes: SA 0x'

# --- helpers ----------------------------------------------------------------
# west_addr I, east_addr I: pair I's addresses.
west_addr() { p=$(pair_addrs west "$1"); echo "${p% *}"; }
east_addr() { p=$(pair_addrs west "$1"); echo "${p#* }"; }

# up CONN: `ikebana up CONN` on west; sets up_rc and up_text.
up() {
	up_text=$(t 40 "$IKB_CLI" --rundir "$HOSTS/west/run" up "$1" 2>&1)
	up_rc=$?
	printf '# ikebana up %s (exit %s)\n%s\n' "$1" "$up_rc" "$up_text" >>"$HOSTS/west/log/ikebana.log"
	log "ikebana up $1: exit $up_rc: $up_text"
}

# snap: west's status, JSON and text (each CLI call costs the UML CPU).
snap() {
	t 20 "$IKB_CLI" --rundir "$HOSTS/west/run" status --json >"$HOSTS/west/log/status.json" 2>&1 ||
		fail "ikebana status --json on west: $(cat "$HOSTS/west/log/status.json")"
	t 20 "$IKB_CLI" --rundir "$HOSTS/west/run" status >"$HOSTS/west/log/status.txt" 2>&1 ||
		fail "ikebana status on west: $(cat "$HOSTS/west/log/status.txt")"
}
# child CONN FIELD: FIELD of CONN's newest Child SA in the last snap.
child() {
	jq -r --arg c "$1" "[.ike_sas[] | select(.conn == \$c) | .child_sas[]][0].$2 // \"-\"" \
		"$HOSTS/west/log/status.json"
}
children() {
	jq -r --arg c "$1" '[.ike_sas[] | select(.conn == $c) | .child_sas[]] | length' \
		"$HOSTS/west/log/status.json"
}

# logged_n TEXT: how many lines of west's ikebanad log hold TEXT.
logged_n() { grep -cF -- "$1" "$HOSTS/west/log/ikebanad.log"; }

# esp_flows I: pings over pair I, and west's SAs of the pair count them.
# A rekey in between replaces the SAs and their counters: try again.
_esp_once() {
	_a=$(west_addr "$1") _b=$(east_addr "$1")
	_o0=$(esp_packets west src="$_a" dir=out) _i0=$(esp_packets west dst="$_a" dir=in)
	ns west ping -n -q -c 3 -i 0.2 -W 2 -I "$_a" "$_b" >/dev/null || fail "ping over pair $1 ($_a -> $_b) failed"
	_o1=$(esp_packets west src="$_a" dir=out) _i1=$(esp_packets west dst="$_a" dir=in)
	[ "$_o1" -gt "$_o0" ] && [ "$_i1" -gt "$_i0" ]
}
esp_flows() {
	for _try in 1 2 3; do
		if _esp_once "$1"; then
			log "ok: ESP over pair $1 ($_a -> $_b): out $_o0 -> $_o1, in $_i0 -> $_i1 packets"
			return
		fi
		log "pair $1: out $_o0 -> $_o1, in $_i0 -> $_i1 packets (a rekey?): again"
		sleep 1
	done
	fail "pair $1: west's ESP SAs did not count the pings: out $_o0 -> $_o1, in $_i0 -> $_i1"
}

# pair_clean I: west's kernel has no SA (larval included) and no policy
# with an address of pair I; east's neither, once west's Delete arrived.
_no_trace() {
	! ip -n "$1" xfrm state | grep -qwF "$2" && ! ip -n "$1" xfrm policy | grep -qwF "$2"
}
pair_clean() {
	_a=$(west_addr "$1")
	_no_trace west "$_a" || fail "west's kernel keeps state of pair $1: $(ip -n west xfrm state; ip -n west xfrm policy)"
	wait_for 10 "east to remove its SAs of pair $1" _no_trace east "$_a"
	log "ok: neither kernel has an SA or policy of pair $1"
}

# --- the daemons -------------------------------------------------------------
peer ikebana east
peer ikebana west
[ "$(logged_n "$WINDOW")" = 1 ] || fail "west logged the window warning $(logged_n "$WINDOW") times at start, expected 1"
log "ok: west warned at load: $(grep -F -- "$WINDOW" "$HOSTS/west/log/ikebanad.log")"

# --- a. pcrypt=yes without pcrypt in the kernel -----------------------------
log "=== a. pcrypt=yes, replay-window=64: the kernel has no pcrypt"
up pcrypt
[ "$up_rc" = 0 ] || fail "ikebana up pcrypt failed: $up_text"
esp_flows 1
[ "$(logged_n "$FALLBACK")" = 1 ] || fail "west logged the pcrypt fallback $(logged_n "$FALLBACK") times, expected 1"
log "ok: $(grep -F -- "$FALLBACK" "$HOSTS/west/log/ikebanad.log")"
snap
[ "$(child pcrypt pcrypt)" = fallback ] || fail "status: pcrypt conn's pcrypt is $(child pcrypt pcrypt), expected fallback"
[ "$(child pcrypt replay_window)" = 64 ] || fail "status: pcrypt conn's replay window is $(child pcrypt replay_window)"
[ "$(child pcrypt cpu)" = - ] || fail "status: pcrypt conn's CPU is $(child pcrypt cpu), expected none (null)"
[ "$(child pcrypt offload)" = none ] || fail "status: pcrypt conn's offload is $(child pcrypt offload)"
grep -q 'replay window 64, ESN off' "$HOSTS/west/log/status.txt" &&
	grep -q 'CPU none, pcrypt fallback, offload none$' "$HOSTS/west/log/status.txt" ||
	fail "ikebana status text lacks the pcrypt conn's tuning: $(cat "$HOSTS/west/log/status.txt")"
log "ok: status: $(grep -m 1 'pcrypt fallback' "$HOSTS/west/log/status.txt")"

# --- b. nic-offload=yes on veth -----------------------------------------------
log "=== b. nic-offload=yes: veth cannot offload"
up offyes
[ "$up_rc" = 0 ] || fail "ikebana up offyes failed: $up_text"
esp_flows 2
[ "$(logged_n "$NOTICE")" = 1 ] || fail "west logged the nic-offload=yes notice $(logged_n "$NOTICE") times, expected 1"
log "ok: $(grep -F -- "$NOTICE" "$HOSTS/west/log/ikebanad.log")"
ip -n west xfrm state | grep -q 'offload' && fail "an SA of west carries offload: $(ip -n west xfrm state)"
snap
[ "$(child offyes offload)" = software ] && [ "$(child offyes offload_dev)" = eth0 ] ||
	fail "status: offyes offload is $(child offyes offload) on $(child offyes offload_dev), expected software on eth0"
[ "$(child offyes pcrypt)" = off ] || fail "status: offyes pcrypt is $(child offyes pcrypt)"
grep -q 'CPU none, pcrypt off, offload software on eth0$' "$HOSTS/west/log/status.txt" ||
	fail "ikebana status text lacks the offyes conn's offload: $(cat "$HOSTS/west/log/status.txt")"
log "ok: status: offyes offload software on eth0"

# --- c. nic-offload=crypto and =packet: refused -------------------------------
log "=== c. nic-offload=crypto and =packet: the device cannot"
up offcry
[ "$up_rc" != 0 ] || fail "ikebana up offcry succeeded: $up_text"
echo "$up_text" | grep -qE 'kernel: |cannot offload ESP: the kernel put SA .* nic-offload=crypto refuses' ||
	fail "ikebana up offcry does not say why: $up_text"
pair_clean 3
up offpkt
[ "$up_rc" != 0 ] || fail "ikebana up offpkt succeeded: $up_text"
echo "$up_text" | grep -q 'kernel: ' || fail "ikebana up offpkt does not give the kernel's message: $up_text"
pair_clean 4
snap
for c in offcry offpkt; do
	[ "$(children "$c")" = 0 ] || fail "status lists $(children "$c") Child SA(s) of $c"
done
log "ok: status lists no Child SA of offcry or offpkt"

# --- the others are unaffected; still one warning, one notice ----------------
log "=== pcrypt and offyes after the refusals, a rekey and a reload"
_ikb west reload || fail "ikebana reload on west failed"
r0=$(logged_n 'Child SA rekeyed')
_rekeyed() { [ "$(logged_n 'Child SA rekeyed')" -gt "$r0" ]; }
wait_for 25 "the pcrypt conn to rekey after the reload" _rekeyed
esp_flows 1
esp_flows 2
[ "$(logged_n "$FALLBACK")" = 1 ] || fail "west logged the pcrypt fallback $(logged_n "$FALLBACK") times after rekeys and a reload, expected 1"
[ "$(logged_n "$NOTICE")" = 1 ] || fail "west logged the nic-offload=yes notice $(logged_n "$NOTICE") times, expected 1"
snap
[ "$(child pcrypt pcrypt)" = fallback ] || fail "status: the rekeyed pcrypt Child SA's pcrypt is $(child pcrypt pcrypt)"
log "ok: $(logged_n 'Child SA rekeyed') rekeys, one fallback warning, one offload notice; the rekeyed Child SA shows pcrypt fallback"
pass
