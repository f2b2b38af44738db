#!/bin/sh
# On-demand tunnel and shunts against strongSwan (see description).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_UML/lib/scenario/trap.sh"
PAIRS=3
topology west-east-pairs
W=198.51.100 E=203.0.113
peer strongswan east west responder tunnel lsubnet=$E.0/24 rsubnet=$W.0/24 name=od
# the shunts, libreswan 5's way: a /32 pair inside the tunnel's /24s
mkdir -p "$HOSTS/west/etc/ikebana.d"
# (clear with libreswan's priority=: the kernel's, as given)
printf '%s\n' "conn clear" "	left=$W.2" "	right=$E.2" "	type=passthrough" \
	"	authby=never" "	auto=route" "	priority=100" "conn blocked" "	left=$W.3" "	right=$E.3" \
	"	type=drop" "	authby=never" "	auto=route" >"$HOSTS/west/etc/ikebana.d/shunts.conf"
p_auto=ondemand
peer ikebana west east add tunnel lsubnet=$W.0/24 rsubnet=$E.0/24 name=od
p_auto=
capture_start west:eth0
trap_expect_trap west $W.0/24 $E.0/24
expect_no_sa west
trap_expect_shunt west $W.2 $E.2 allow
trap_expect_shunt west $W.3 $E.3 block
trap_expect_routes west 3
ns west ip xfrm policy list dir out src $W.2/32 dst $E.2/32 | grep -q 'priority 100 ' ||
	fail "west: the clear shunt's policy has no priority 100 (priority=100)"
log "ok: priority=100 on the clear shunt's policy"
capture_wait

# the first packet is held; the ACQUIRE brings the tunnel up
wait_for 30 "a ping $W.1 -> $E.1 through the on-demand tunnel" _ping_from west $W.1 $E.1
expect_sa west mode=tunnel
grep -q 'ACQUIRE for' "$HOSTS/west/log/ikebanad.log" || fail "west logged no ACQUIRE"
expect_esp_grows west _ping_from west $W.1 $E.1 3

# the exempted host goes in clear; the dropped one sends nothing
_ping_from west $W.2 $E.2 3 || log "note: $E.2 does not answer in clear (east has no shunt): only the wire counts"
_o0=$(_esp_out west)
_ping_from west $W.3 $E.3 3 && fail "a ping from $W.3 got through the drop shunt"
[ "$(_esp_out west)" = "$_o0" ] || fail "the dropped host's ping went out as ESP"
log "ok: the dropped host's ping sent no ESP"

# down: the SAs go, the trap stays and answers the next packet
_ikb west down od || fail "ikebana down od failed"
wait_for 20 "west's SAs to go" _no_sas west
trap_expect_trap west $W.0/24 $E.0/24
wait_for 30 "the trap to bring the tunnel up again" _ping_from west $W.1 $E.1
expect_sa west mode=tunnel

capture_stop
trap_no_clear west:eth0 "icmp and src net $W.0/24 and not src host $W.2" \
	"ICMP of the tunnel's or the drop shunt's hosts"
trap_has_clear west:eth0 "icmp and src host $W.2 and dst host $E.2" "the exempted host's ICMP"
pass
