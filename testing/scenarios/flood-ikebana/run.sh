#!/bin/sh
# IKE_SA_INIT floods (issue 19 item 3), see description. The flood comes
# from east (testing/tools/initflood), whose host routes the spoofed
# networks to itself (AnyIP), and west routes them back to east.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
topology west-east
W=$(addr_of west 4) E=$(addr_of east 4)
FLOOD=$IKB_BUILD/testing/tools/initflood
[ -x "$FLOOD" ] || fail "$FLOOD not built"
for _n in 10.200.0.0/18 10.201.0.0/29; do
	ip -n east route add local "$_n" dev lo || fail "east: cannot route $_n locally"
	ip -n west route add "$_n" via "$E" || fail "west: cannot route $_n to east"
done

IKB_KERNEL=kernel-xfrm
_ikb_conf west
peer ikebana west east responder psk nat=yes ike=$IKB_IKE esp=$IKB_ESP
peer strongswan east west add psk ike=$IKB_IKE esp=$IKB_ESP

_pid=$(cat "$HOSTS/west/ikebanad.pid")
_rss() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$_pid/status"; }
_lines() { wc -l <"$HOSTS/west/log/ikebanad.log"; }
# _halfopen: west's half-open IKE SAs, as its status lists them
_halfopen() {
	t 20 ip netns exec west "$IKB_CLI" --rundir "$HOSTS/west/run" status --json |
		jq '[.ike_sas[] | select(.state != "established")] | length'
}
_no_halfopen() { [ "$(_halfopen)" = 0 ]; }
# _udp FIELD: west's UDP counter FIELD (/proc/net/snmp, its namespace)
_udp() {
	ns west awk -v f="$1" '/^Udp:/ { if (!h) { for (i = 2; i <= NF; i++) c[$i] = i; h = 1 } else print $c[f] }' /proc/net/snmp
}
# _cookies: the COOKIEs west says it sent (its metrics)
_cookies() {
	t 20 ip netns exec west "$IKB_CLI" --rundir "$HOSTS/west/run" metrics |
		awk '$1 == "ikebana_ike_cookies_sent_total" { print $2 }'
}
_rss0=$(_rss) _l0=$(_lines)
_in0=$(_udp InDatagrams) _drop0=$(_udp RcvbufErrors) _ck0=$(_cookies)

# --- the spoofed flood, and strongSwan connecting in its middle
ns east "$FLOOD" "$W" 500 10.200.0.0/18 20000 >"$HOSTS/east/log/flood1.out" 2>&1 &
_fl=$!
_flooding() { [ "$(_halfopen)" -ge 50 ] || ! kill -0 "$_fl" 2>/dev/null; }
wait_for 10 "the flood to reach west" _flooding
_t0=$(now_cs)
strongswan_initiate east east-west >"$HOSTS/east/log/initiate.out" 2>&1 ||
	fail "strongSwan could not connect during the flood: $(tail -n 3 "$HOSTS/east/log/initiate.out")"
_t1=$(now_cs)
_dt=$((_t1 - _t0))
# Each of its two IKE_SA_INITs (the plain one, then the one with west's
# COOKIE) may be lost once. The sender shares UML's one CPU with west,
# which reads only part of a full-speed flood (see below) and then works
# through the backlog in its socket buffer for a few seconds; a request
# of strongSwan's that finds the buffer full is lost, and its retransmit
# comes 4 s later (retransmit_timeout). Measured on an otherwise idle
# host: 0.8 to 4.8 s, once 8.8 s (both lost once). More than 10 s would
# need a request lost twice.
[ "$_dt" -le 1000 ] || fail "strongSwan took $((_dt / 100)).$((_dt % 100)) s to connect during the flood (more than 10 s: a request lost twice)"
log "ok: strongSwan connected in $((_dt / 100)).$((_dt % 100 / 10)) s during the flood"
_fl_done() { ! kill -0 "$_fl" 2>/dev/null; }
wait_for 120 "the flood to end" _fl_done
_out=$(cat "$HOSTS/east/log/flood1.out")
log "flood 1: $_out"
_get() { echo "$_out" | sed -n "s/.* $1=\([0-9]*\).*/\1/p; s/^$1=\([0-9]*\).*/\1/p" | head -n 1; }
[ "$(_get sent)" = 20000 ] || fail "the flood sent $(_get sent) of 20000"
_full=$(_get full) _cookie=$(_get cookie)
# the COOKIE threshold (ddos-ike-threshold=100): at most that many full
# answers, each a key exchange; the rest COOKIEs
[ "$_full" -le 100 ] || fail "west answered $_full flood requests with a key exchange, more than the 100 of the COOKIE threshold"
# COOKIEs answer the rest: every request that reached west's socket,
# counted by its kernel, less the key exchanges and a few datagrams of the
# real peer. How many reach it depends on how much of the host UML gets:
# a full-speed flood overruns the socket buffer of a daemon that shares
# UML's one CPU with the sender (the kernel's RcvbufErrors), and the
# sender's own socket drops answers while it sends.
_in=$(($(_udp InDatagrams) - _in0)) _drop=$(($(_udp RcvbufErrors) - _drop0))
_ck=$(($(_cookies) - _ck0))
log "flood 1 at west: $_in datagrams read, $_drop dropped for a full socket buffer, $_ck COOKIEs sent; the sender saw $_cookie"
[ "$_in" -ge 1000 ] || fail "only $_in datagrams reached west's sockets during the flood"
[ "$_ck" -ge $((_in - _full - 50)) ] ||
	fail "west answered $_ck of the $_in datagrams it read with a COOKIE ($_full with a key exchange): it left some unanswered"
[ "$_cookie" -ge 1 ] || fail "the sender saw none of west's COOKIEs"
_ho=$(_halfopen)
[ "$_ho" -le 101 ] || fail "west holds $_ho half-open IKE SAs after the flood"
_rss1=$(_rss)
_grow=$((_rss1 - _rss0))
[ "$_grow" -le 20480 ] || fail "ikebanad's RSS grew by $_grow KiB during the flood"
_nl=$(($(_lines) - _l0))
[ "$_nl" -le 600 ] || fail "the flood made $_nl log lines on west: not rate-limited"
log "ok: flood 1: $_full key exchanges, $_ck COOKIEs for $_in datagrams read, $_ho half-open SAs, RSS $_rss0 -> $_rss1 KiB (+$_grow), $_nl log lines"
expect_esp_grows west ping_ok west east

# --- every half-open SA expires (HALFOPEN_MS, 30 s)
wait_for 45 "the flood's half-open IKE SAs to expire" _no_halfopen
log "ok: no half-open IKE SA left"

# --- a sender that answers COOKIEs, then IKE_AUTH garbage, 6 addresses
_l0=$(_lines)
ns east "$FLOOD" "$W" 500 10.201.0.0/29 600 0 cookies auth >"$HOSTS/east/log/flood2.out" 2>&1 ||
	fail "flood 2: $(cat "$HOSTS/east/log/flood2.out")"
_out=$(cat "$HOSTS/east/log/flood2.out")
log "flood 2: $_out"
_ho=$(_halfopen)
[ "$_ho" -le 150 ] || fail "west holds $_ho half-open IKE SAs from 6 addresses (at most 25 each)"
[ "$(_get auth)" -gt 0 ] || fail "flood 2 sent no IKE_AUTH garbage (no full answer came)"
grep -q 'too many half-open IKE SAs from this address' "$HOSTS/west/log/ikebanad.log" ||
	fail "west did not log the per-address limit"
grep -q 'integrity check failed' "$HOSTS/west/log/ikebanad.log" ||
	fail "west did not log the IKE_AUTH garbage's failed integrity check"
_nl=$(($(_lines) - _l0))
[ "$_nl" -le 400 ] || fail "flood 2 made $_nl log lines on west: not rate-limited"
_peer_established strongswan east east-west || fail "strongSwan's IKE SA went during the floods"
expect_esp_grows west ping_ok west east
log "ok: flood 2: $_ho half-open SAs from 6 addresses, garbage dropped, $_nl log lines; strongSwan's SAs stay"
pass
