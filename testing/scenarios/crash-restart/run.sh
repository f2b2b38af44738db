#!/bin/sh
# Crashes and restarts (issue 19 item 5), see description. Two conns from
# ikebana on west to strongSwan on east, tunnel mode, one address pair each
# (topology west-east-pairs): "st" (auto=start) between $W.1 and $E.1,
# "od" (auto=ondemand) between $W.2 and $E.2 (IKE between those too, so
# that strongSwan tells the two conns apart by address), both with
# dpddelay=1s and dpdtimeout=5s on ikebana's side.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_UML/lib/scenario/trap.sh"
PAIRS=2
topology west-east-pairs
W=198.51.100 E=203.0.113
WA=$(addr_of west 4) EA=$(addr_of east 4)
IKB_KERNEL=kernel-xfrm
# cores allowed: a crash of ikebanad must still write none (nodump.c)
ulimit -c unlimited

# Foreign state: an SA and a policy that an administrator (or another
# daemon) put on west. ikebana's restart must leave them alone.
ip -n west xfrm state add src "$WA" dst 192.0.2.99 proto esp spi 0x4242 \
	reqid 4242 mode tunnel aead 'rfc4106(gcm(aes))' \
	0x0102030405060708090a0b0c0d0e0f1011121314 128 ||
	fail "cannot add the foreign SA"
ip -n west xfrm policy add src 10.99.0.0/24 dst 10.98.0.0/24 dir out \
	tmpl src "$WA" dst 192.0.2.99 proto esp reqid 4242 mode tunnel ||
	fail "cannot add the foreign policy"
_foreign() {
	ip -n west xfrm state get src "$WA" dst 192.0.2.99 proto esp spi 0x4242 >/dev/null 2>&1 &&
		ip -n west xfrm policy get src 10.99.0.0/24 dst 10.98.0.0/24 dir out >/dev/null 2>&1
}

_ikb_conf west
peer strongswan east west responder tunnel lsubnet=$E.1/32 rsubnet=$W.1/32 name=st
peer strongswan east west responder tunnel local=$E.2 remote=$W.2 lsubnet=$E.2/32 rsubnet=$W.2/32 name=od
PEER_CONN_EXTRA='\tdpddelay=1s\n\tdpdtimeout=5s'
p_auto=start
peer ikebana west east add tunnel lsubnet=$W.1/32 rsubnet=$E.1/32 name=st
p_auto=ondemand
peer ikebana west east add tunnel local=$W.2 remote=$E.2 lsubnet=$W.2/32 rsubnet=$E.2/32 name=od
p_auto=
PEER_CONN_EXTRA=

# _conn_up HOST CONN: ikebana's status lists CONN's IKE SA established
# with a Child SA.
_conn_up() {
	_ikb_snap "$1" &&
		jq -e --arg c "$2" '[.ike_sas[] | select(.conn == $c and .state == "established"
			and (.child_sas | length) > 0)] | length == 1' \
			"$HOSTS/$1/log/status.json" >/dev/null
}
_conn_down() {
	_ikb_snap "$1" &&
		jq -e --arg c "$2" '[.ike_sas[] | select(.conn == $c)] | length == 0' \
			"$HOSTS/$1/log/status.json" >/dev/null
}
# _ss_one CONN: strongSwan on east holds one IKE SA of CONN, ESTABLISHED
_ss_one() {
	strongswan_status east >"$HOSTS/east/log/list-sas.out" 2>&1
	[ "$(grep -c "^$1: #[0-9]*, ESTABLISHED" "$HOSTS/east/log/list-sas.out")" = 1 ] &&
		[ "$(grep -c "^$1: #" "$HOSTS/east/log/list-sas.out")" = 1 ]
}

wait_for 20 "conn st (auto=start) up" _conn_up west st
trap_expect_trap west $W.2/32 $E.2/32
wait_for 30 "a ping $W.2 -> $E.2 through the on-demand conn" _ping_from west $W.2 $E.2
wait_for 20 "conn od up on its ACQUIRE" _conn_up west od
expect_esp_grows west _ping_from west $W.1 $E.1 3
_foreign || fail "the foreign SA or policy is missing before the crash"

# --- ikebanad is not dumpable (PR_SET_DUMPABLE 0): without CAP_SYS_PTRACE
# even root reads nothing of its /proc/PID (its memory holds the keys),
# and a crash writes no core, however large the core limit
_pid=$(cat "$HOSTS/west/ikebanad.pid")
_peek() {
	capsh --drop=cap_sys_ptrace -- -c "cat /proc/$1/environ" >/dev/null 2>"$HOSTS/west/log/peek.err"
}
# the control: a dumpable process with no more capabilities than the reader
# (the kernel also wants the reader to hold all of the target's)
capsh --drop=cap_sys_ptrace -- -c 'exec sleep 60' &
_ctl=$!
_ctl_up() { grep -q '^Name:.*sleep' "/proc/$_ctl/status"; }
wait_for 5 "the control process" _ctl_up
_peek "$_ctl" || fail "capsh without cap_sys_ptrace cannot read a dumpable sleep's environ: $(cat "$HOSTS/west/log/peek.err")"
kill "$_ctl"
_peek "$_pid" && fail "ikebanad's /proc/$_pid/environ is readable without CAP_SYS_PTRACE"
log "ok: ikebanad's /proc/PID/environ is closed without CAP_SYS_PTRACE"

# --- ikebanad is killed under traffic and started again
ns west ping -n -q -i 0.1 -W 1 -I $W.1 $E.1 >"$HOSTS/west/log/ping-st.out" 2>&1 &
_ping=$!
kill -9 "$_pid"
wait_for 10 "ikebanad (pid $_pid) to die" _ikb_exited "$_pid"
_sas_left=$(sa_count west)
log "ikebanad killed (-9); $_sas_left SAs left in west's kernel"
rm -f "$HOSTS/west/ikebanad.pid"
_t0=$(now_cs)
ikebana_start west
wait_for 10 "conn st back after the restart" _conn_up west st
_t1=$(now_cs)
_dt=$(((_t1 - _t0) / 100)).$(((_t1 - _t0) % 100 / 10))
log "ok: conn st back ${_dt} s after ikebanad started again"
grep -q 'left by an earlier run' "$HOSTS/west/log/ikebanad.log" ||
	fail "ikebanad did not say it removed what its predecessor left"
_foreign || fail "ikebana's restart removed the foreign SA or policy"
# strongSwan took st's INITIAL_CONTACT: only st's new IKE SA is left (od's
# old one, of another ID, stays until od comes up again)
wait_for 15 "strongSwan to drop st's IKE SA of the killed daemon" _ss_one st
# ours: one pair for st; the foreign SA; od's trap (no SA yet)
_n=$(sa_list west | grep -vc 'spi=0x0*0 ')
[ "$_n" = 3 ] || fail "west's kernel holds $_n SAs, expected 3 (st's pair and the foreign one): $(sa_list west)"
trap_expect_trap west $W.2/32 $E.2/32
expect_esp_grows west _ping_from west $W.1 $E.1 3
kill "$_ping" 2>/dev/null
log "ok: after the crash, one SA pair of st, od's trap, the foreign SA and policy untouched"

# --- the peer disappears (SIGKILL, its SAs flushed, as a reboot)
wait_for 30 "a ping $W.2 -> $E.2 through the on-demand conn again" _ping_from west $W.2 $E.2
wait_for 20 "conn od up again" _conn_up west od
wait_for 15 "strongSwan to drop od's IKE SA of the killed daemon" _ss_one od
_ikb_stop_host east 9
ip -n east xfrm state flush
ip -n east xfrm policy flush
_t0=$(now_cs)
log "strongSwan on east killed (-9), its SAs and policies flushed"
wait_for 12 "ikebana to declare east dead (DPD)" _conn_down west od
_t1=$(now_cs)
log "ok: DPD: conn od gone $(((_t1 - _t0) / 100)) s after the peer went (dpddelay=1s + dpdtimeout=5s)"
grep -q 'peer is dead' "$HOSTS/west/log/ikebanad.log" || fail "ikebana logged no dead peer"
trap_expect_trap west $W.2/32 $E.2/32
log "ok: conn od has its trap back"

# --- the peer returns: st comes back by itself, od on traffic
rm -f "$HOSTS/east/daemons" "$HOSTS/east/run/charon.vici" "$HOSTS/east/run/charon.pid"
peer strongswan east west responder tunnel lsubnet=$E.1/32 rsubnet=$W.1/32 name=st
peer strongswan east west responder tunnel local=$E.2 remote=$W.2 lsubnet=$E.2/32 rsubnet=$W.2/32 name=od
wait_for 60 "conn st (auto=start) back once east returned" _conn_up west st
expect_esp_grows west _ping_from west $W.1 $E.1 3
wait_for 30 "a ping $W.2 -> $E.2 brings od up again" _ping_from west $W.2 $E.2
wait_for 20 "conn od up again on its trap" _conn_up west od
_foreign || fail "the foreign SA or policy went"

# --- a crash (SIGSEGV) with cores allowed writes no core: not dumpable
echo "$HOSTS/west/core.%e.%p" >/proc/sys/kernel/core_pattern
_pid=$(cat "$HOSTS/west/ikebanad.pid")
kill -SEGV "$_pid"
wait_for 10 "ikebanad (pid $_pid) to die of SIGSEGV" _ikb_exited "$_pid"
ls "$HOSTS/west"/core.* >/dev/null 2>&1 && fail "ikebanad's crash wrote a core: $(ls "$HOSTS/west"/core.*)"
log "ok: no core file of the crashed ikebanad (ulimit -c unlimited)"
pass
