#!/bin/sh
# clones=2 where per-CPU SAs (RFC 9611) cannot be had: Debian 12's UML
# kernel (6.1) has no XFRMA_SA_PCPU, and strongSwan 5.9.8 no
# SA_RESOURCE_INFO. ikebana on west initiates the same clones=2 conn to
# strongSwan (east) and to ikebana (north). For each:
#   - `ikebana up` succeeds with one Child SA: 2 ESP states for the pair
#     on both hosts, no clone;
#   - each ikebana logs exactly one line for the IKE SA, with the reason
#     (here the kernel's: it is checked before the peer is asked), and
#     no SA_RESOURCE_INFO leaves west (the log shows none offered);
#   - no policy carries the per-CPU acquire flag (xfrmctl dump);
#   - ping over the pair moves the ESP counters.
# The peer's reason ("peer did not offer SA_RESOURCE_INFO") needs a kernel
# with per-CPU SAs: per-cpu-sas covers it on 7.2, test_ike_pcpu in the
# unit tests on kernel-mem.
# shellcheck disable=SC2015 # "a && b || fail" is meant: fail exits
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology "$SCENARIO_DIR/topology"
XFRMCTL=$IKB_BUILD/testing/tools/xfrmctl
[ -x "$XFRMCTL" ] || fail "no $XFRMCTL: build it"
case $(uname -r) in 6.1[3-9]* | 6.[2-9]* | [7-9].*)
	skip "kernel $(uname -r) has per-CPU SAs: this scenario needs one without (6.1)" ;;
esac
rel=$(uname -r | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
WHY="clones=2: kernel $rel has no per-CPU SAs (needs 6.13), one Child SA"
# lines HOST CONN TEXT: how many lines of HOST's ikebanad log about CONN hold TEXT
lines() { grep -F -- "conn $2 " "$HOSTS/$1/log/ikebanad.log" | grep -cF -- "$3"; }

peer strongswan east
peer ikebana north
peer ikebana west

# one Child SA: the pair's two states, on west and on the responder
_pair() { [ "$(sa_count west src="$2" dst="$3")" = 1 ] && [ "$(sa_count west src="$3" dst="$2")" = 1 ] &&
	[ "$(sa_count "$1" src="$2" dst="$3")" = 1 ] && [ "$(sa_count "$1" src="$3" dst="$2")" = 1 ]; }
# both at once: UML's one CPU spends most of the time in key exchanges
_ikb west up pcpu-east &
up_east=$!
_ikb west up pcpu-north || fail "ikebana up pcpu-north failed: $(tail -n 5 "$HOSTS/west/log/ikebana.log")"
wait "$up_east" || fail "ikebana up pcpu-east failed: $(tail -n 5 "$HOSTS/west/log/ikebana.log")"
for r in 'east pcpu-east 192.0.2.1 192.0.2.2' 'north pcpu-north 198.51.100.1 198.51.100.2'; do
	# shellcheck disable=SC2086 # the fields of one line, split on purpose
	set -- $r
	wait_for 15 "one ESP pair of $2 on west and $1" _pair "$1" "$3" "$4"
	o0=$(esp_packets west src="$3" dst="$4")
	ns west ping -n -q -c 3 -i 0.2 -W 2 -I "$3" "$4" >/dev/null || fail "ping $3 -> $4 failed"
	o1=$(esp_packets west src="$3" dst="$4")
	[ "$o1" -gt "$o0" ] || fail "$2: west's outbound SA did not count the pings ($o0 -> $o1)"
	[ "$(lines west "$2" "$WHY")" = 1 ] ||
		fail "west logged the reason $(lines west "$2" "$WHY") times for $2: $(grep -F clones= "$HOSTS/west/log/ikebanad.log")"
	[ "$(lines west "$2" 'clones=')" = 1 ] ||
		fail "west logged $(lines west "$2" 'clones=') clones= lines for $2, expected 1"
	log "ok: $2: one Child SA, ping over ESP ($o0 -> $o1 packets), west: $(grep -F -- "conn $2 " "$HOSTS/west/log/ikebanad.log" | grep -F "$WHY")"
done
[ "$(grep -cF 'per-CPU SA for CPU' "$HOSTS/west/log/ikebanad.log")" = 0 ] || fail "west made a per-CPU SA on a 6.1 kernel"
grep -qF 'RFC 9611: the peer takes' "$HOSTS/west/log/ikebanad.log" && fail "west thinks a peer took per-CPU SAs"
# north answered as responder: its own single line, for its one IKE SA
[ "$(grep -cF -- "$WHY" "$HOSTS/north/log/ikebanad.log")" = 1 ] ||
	fail "north logged the reason $(grep -cF -- "$WHY" "$HOSTS/north/log/ikebanad.log") times: $(grep -F clones= "$HOSTS/north/log/ikebanad.log")"
log "ok: north: $(grep -F -- "$WHY" "$HOSTS/north/log/ikebanad.log")"
for h in west north; do
	ns "$h" "$XFRMCTL" dump >"$HOSTS/$h/log/xfrmctl.dump" 2>&1 || fail "xfrmctl dump on $h: $(cat "$HOSTS/$h/log/xfrmctl.dump")"
	grep -q 'cpu' "$HOSTS/$h/log/xfrmctl.dump" && fail "$h: a per-CPU SA or policy flag on 6.1: $(cat "$HOSTS/$h/log/xfrmctl.dump")"
done
log "ok: no per-CPU SA or acquire flag in west's or north's kernel"
pass
