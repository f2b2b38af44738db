#!/bin/sh
# Per-CPU Child SAs (RFC 9611) on a kernel that has them (UML 7.2; the
# `kernel` file asks run-scenarios for it). ikebana on west and east, the
# same conn with clones=2; UML has one possible CPU, so each host gets:
#   - the fallback Child SA (IKE_AUTH, no CPU id) and one clone for CPU 0
#     (CREATE_CHILD_SA with SA_RESOURCE_INFO), 4 ESP states;
#   - XFRMA_SA_PCPU 0 on the clone's outbound SA only (iproute2 6.1 cannot
#     show it: xfrmctl dump reads it through kernel-xfrm), one reqid, ESN
#     on all (a per-CPU outbound SA has a direction and no replay state);
#   - one pair of policies, the outbound one with XFRM_POLICY_CPU_ACQUIRE;
#   - one log line about the clamp, none about a fallback to one SA;
#   - ping moves the clone's outbound counter (this CPU's SA), not the
#     fallback's;
#   - ikebana status --json: CPU 0 and null (the fallback);
#   - west rekeys both (ipsec-lifetime=80s): the new clone keeps CPU 0
#     and the reqid, the old SAs go, and pings ride the new clone;
#   - ikebana down removes every SA and policy on both hosts.
# Meanwhile the same clones=2 towards strongSwan 5.9.8 (north), which has
# no RFC 9611, on this kernel that has per-CPU SAs: one Child SA, ping
# over it, and exactly one line: the peer did not offer SA_RESOURCE_INFO.
# shellcheck disable=SC2015 # "a && b || fail" is meant: fail exits
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology "$SCENARIO_DIR/topology"
command -v jq >/dev/null || fail "jq is missing (it reads ikebana status --json)"
XFRMCTL=$IKB_BUILD/testing/tools/xfrmctl
[ -x "$XFRMCTL" ] || fail "no $XFRMCTL: build it"
case $(uname -r) in 6.1[3-9]* | 6.[2-9]* | [7-9].*) ;;
*) skip "kernel $(uname -r) has no per-CPU SAs: run with UML_KERNEL=7.2" ;; esac
log "kernel $(uname -r), possible CPUs $(cat /sys/devices/system/cpu/possible)"

CLAMP='clones=2: the kernel takes CPU ids 0..0 only: 1 per-CPU Child SA and the fallback'
ONE='one Child SA'
logged_n() { grep -cF -- "$2" "$HOSTS/$1/log/ikebanad.log"; }
dump() { ns "$1" "$XFRMCTL" dump >"$HOSTS/$1/log/xfrmctl.dump" 2>&1 || fail "xfrmctl dump on $1: $(cat "$HOSTS/$1/log/xfrmctl.dump")"; }

peer ikebana east
peer strongswan north
peer ikebana west
_ikb west up pcpu || fail "ikebana up pcpu failed: $(tail -n 5 "$HOSTS/west/log/ikebana.log")"
_four() { [ "$(ip -n "$1" xfrm state | grep -c '^src 192.0.2')" = 4 ]; }
wait_for 20 "west's kernel to hold 4 ESP states" _four west
wait_for 20 "east's kernel to hold 4 ESP states" _four east

for h in west east; do
	dump "$h"
	f=$HOSTS/$h/log/xfrmctl.dump
	[ "$(grep -c '^sa src=192.0.2' "$f")" = 4 ] || fail "$h: xfrmctl sees $(grep -c '^sa ' "$f") SAs: $(cat "$f")"
	[ "$(grep -c '^sa .* cpu=0$' "$f")" = 1 ] || fail "$h: not exactly one SA with CPU 0: $(cat "$f")"
	[ "$(grep -c '^sa src=192.0.2.* esn=1 ' "$f")" = 4 ] || fail "$h: not every SA of pcpu has ESN: $(cat "$f")"
	grep '^sa .* cpu=0$' "$f" | grep -q "src=$(addr_of "$h") " ||
		fail "$h: the SA with CPU 0 is not outbound: $(cat "$f")"
	[ "$(grep '^sa src=192.0.2' "$f" | sed 's/.* reqid=\([0-9]*\).*/\1/' | sort -u | wc -l)" = 1 ] ||
		fail "$h: the clone and the fallback have different reqids: $(cat "$f")"
	[ "$(grep -c '^policy 192.0.2' "$f")" = 2 ] || fail "$h: $(grep -c '^policy ' "$f") policies, expected 2: $(cat "$f")"
	grep -q '^policy .* dir=out .* cpu-acquire$' "$f" || fail "$h: the outbound policy lacks cpu-acquire: $(cat "$f")"
	grep -q '^policy .* dir=in .* cpu-acquire$' "$f" && fail "$h: the inbound policy has cpu-acquire: $(cat "$f")"
	[ "$(logged_n "$h" "$CLAMP")" = 1 ] || fail "$h logged the clamp $(logged_n "$h" "$CLAMP") times: $(grep -F clones= "$HOSTS/$h/log/ikebanad.log")"
	[ "$(logged_n "$h" "$ONE")" = 0 ] || fail "$h fell back to one SA: $(grep -F "$ONE" "$HOSTS/$h/log/ikebanad.log")"
	log "ok: $h: fallback and clone (CPU 0, outbound), one reqid, out policy cpu-acquire: $(grep -c '^sa src=192.0.2' "$f") SAs; $(grep -F "$CLAMP" "$HOSTS/$h/log/ikebanad.log" | head -n 1)"
done
ip -n west xfrm policy | grep -q 'flag.*\(cpu\|0x4\|4\)' && log "ok: ip shows the policy flag: $(ip -n west xfrm policy | grep flag | head -n 1)"
grep -q 'SA_RESOURCE_INFO\|RFC 9611: the peer takes per-CPU Child SAs' "$HOSTS/west/log/ikebanad.log" ||
	fail "west did not log the peer's per-CPU agreement"

# The clone's outbound SA is this (only) CPU's: pings go out on it.
clone_spi=$(sed -n 's/^sa .* spi=\(0x[0-9a-f]*\) .* cpu=0$/\1/p' "$HOSTS/west/log/xfrmctl.dump")
fb_spi=$(sed -n "s/^sa src=$(addr_of west) .* spi=\(0x[0-9a-f]*\) .*[^0-9]\$/\1/p" "$HOSTS/west/log/xfrmctl.dump" | grep -v "$clone_spi" | head -n 1)
p0=$(esp_packets west spi="$clone_spi") f0=$(esp_packets west spi="$fb_spi")
ns west ping -n -q -c 3 -i 0.2 -W 2 192.0.2.2 >/dev/null || fail "ping west -> east failed"
p1=$(esp_packets west spi="$clone_spi") f1=$(esp_packets west spi="$fb_spi")
log "outbound packets: clone $clone_spi $p0 -> $p1, fallback $fb_spi $f0 -> $f1"
[ "${p1:-0}" -gt "${p0:-0}" ] || fail "the clone's outbound SA $clone_spi did not carry the pings: $(ip -n west -s xfrm state)"
[ "$f1" = "$f0" ] || fail "the fallback's outbound SA $fb_spi carried packets though CPU 0 has its own"
log "ok: ping over the per-CPU SA $clone_spi, none over the fallback"

t 20 "$IKB_CLI" --rundir "$HOSTS/west/run" status --json >"$HOSTS/west/log/status.json" 2>&1 ||
	fail "ikebana status --json: $(cat "$HOSTS/west/log/status.json")"
cpus=$(jq -r '[.ike_sas[] | select(.conn == "pcpu") | .child_sas[].cpu | tostring] | sort | join(",")' "$HOSTS/west/log/status.json")
[ "$cpus" = "0,null" ] || fail "status --json: CPU ids $cpus, expected 0,null"
log "ok: status --json: CPU ids $cpus"

# --- strongSwan 5.9.8 (while west's rekey is due): one Child SA, one line --
PEERLINE='clones=2: peer did not offer SA_RESOURCE_INFO (RFC 9611), one Child SA'
_ikb west up pcpu-ss || fail "ikebana up pcpu-ss failed: $(tail -n 5 "$HOSTS/west/log/ikebana.log")"
_pair() { [ "$(sa_count west src=198.51.100.1 dst=198.51.100.2)" = 1 ] && [ "$(sa_count west src=198.51.100.2 dst=198.51.100.1)" = 1 ] &&
	[ "$(sa_count north src=198.51.100.1 dst=198.51.100.2)" = 1 ] && [ "$(sa_count north src=198.51.100.2 dst=198.51.100.1)" = 1 ]; }
wait_for 15 "one ESP pair of pcpu-ss on west and north" _pair
o0=$(esp_packets west src=198.51.100.1 dst=198.51.100.2)
ns west ping -n -q -c 3 -i 0.2 -W 2 -I 198.51.100.1 198.51.100.2 >/dev/null || fail "ping west -> north failed"
o1=$(esp_packets west src=198.51.100.1 dst=198.51.100.2)
[ "$o1" -gt "$o0" ] || fail "pcpu-ss: west's outbound SA did not count the pings ($o0 -> $o1)"
n=$(grep -F 'conn pcpu-ss ' "$HOSTS/west/log/ikebanad.log" | grep -cF 'clones=')
[ "$n" = 1 ] && grep -F 'conn pcpu-ss ' "$HOSTS/west/log/ikebanad.log" | grep -qF -- "$PEERLINE" ||
	fail "west logged $n clones= lines for pcpu-ss: $(grep -F clones= "$HOSTS/west/log/ikebanad.log")"
sa_list west | grep 198.51.100 | grep -q . && ns west "$XFRMCTL" dump | grep '198.51.100' | grep -q cpu &&
	fail "a per-CPU SA or flag towards strongSwan: $(ns west "$XFRMCTL" dump)"
log "ok: strongSwan 5.9.8: one Child SA, ping over ESP ($o0 -> $o1 packets): $(grep -F -- "$PEERLINE" "$HOSTS/west/log/ikebanad.log")"

# --- the rekey: the clone's successor is CPU 0's SA ---------------------------
_rekeyed() { [ "$(logged_n west 'Child SA rekeyed')" -ge 2 ] && [ "$(logged_n west 'Child SA deleted')" -ge 2 ] && _four west && _four east; }
wait_for 45 "west to rekey both Child SAs and delete the old ones" _rekeyed
dump west
f=$HOSTS/west/log/xfrmctl.dump
new_spi=$(sed -n 's/^sa .* spi=\(0x[0-9a-f]*\) .* cpu=0$/\1/p' "$f")
[ -n "$new_spi" ] && [ "$new_spi" != "$clone_spi" ] || fail "after the rekey: CPU 0's SA is '$new_spi' (before: $clone_spi): $(cat "$f")"
[ "$(grep '^sa src=192.0.2' "$f" | sed 's/.* reqid=\([0-9]*\).*/\1/' | sort -u | wc -l)" = 1 ] ||
	fail "after the rekey: more than one reqid: $(cat "$f")"
grep -q "Child SA rekeyed: .*, per-CPU SA for CPU 0" "$HOSTS/west/log/ikebanad.log" || fail "west did not log the clone's rekey"
p0=$(esp_packets west spi="$new_spi")
ns west ping -n -q -c 3 -i 0.2 -W 2 192.0.2.2 >/dev/null || fail "ping west -> east after the rekey failed"
p1=$(esp_packets west spi="$new_spi")
[ "$p1" -gt "$p0" ] || fail "the rekeyed clone $new_spi did not carry the pings ($p0 -> $p1)"
log "ok: rekeyed: CPU 0's SA $clone_spi -> $new_spi, one reqid, pings over it ($p0 -> $p1)"

_ikb west down pcpu || fail "ikebana down pcpu failed"
_none() { ! ip -n "$1" xfrm state | grep -q '192\.0\.2\.' && ! ip -n "$1" xfrm policy | grep -q '192\.0\.2\.'; }
wait_for 15 "west to remove every SA and policy" _none west
wait_for 15 "east to remove every SA and policy" _none east
log "ok: ikebana down: neither kernel keeps an SA or policy"
pass
