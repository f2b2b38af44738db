#!/bin/sh
# Guest side of testing/bench/flood, inside UML (started by
# testing/uml/boot with COUNT and IKB_BUILD). For each responder daemon in
# turn on west, ikebana, strongSwan and libreswan, each with its own
# defaults (ikebana: COOKIEs past 100 half-open SAs; strongSwan:
# charon.cookie_threshold 30; libreswan: ddos-mode=auto, ddos-ike-threshold
# 25000), east floods it with COUNT IKE_SA_INIT requests at full speed
# from 10.200.0.0/18 (testing/tools/initflood; the answers come back and
# are counted by kind) while strongSwan on east connects to it as a real
# peer. Writes $RESULTS/rows.tsv: daemon, sent, answers, key exchanges
# (full answers), COOKIEs, seconds, the real peer's connect time (s), the
# daemon's RSS before and after the flood (KiB).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_REPO/testing/bench/lib/guest.sh"
: "${COUNT:=20000}"
FLOOD=$IKB_BUILD/testing/tools/initflood
topology west-east
W=$(addr_of west 4) E=$(addr_of east 4)
tsv=$RESULTS/rows.tsv
: >"$tsv"
bench_guest_machine
ip -n east route add local 10.200.0.0/18 dev lo || fail "east: local route"
ip -n west route add 10.200.0.0/18 via "$E" || fail "west: route back"

# _rss_of HOST COMM: the RSS (KiB) of HOST's process named COMM
_rss_of() {
	for _p in $(ip netns pids "$1"); do
		[ "$(cat "/proc/$_p/comm" 2>/dev/null)" = "$2" ] &&
			sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$_p/status" && return
	done
	echo 0
}
_get() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

for d in ikebana strongswan libreswan; do
	log "=== $d answers the flood"
	case $d in
	ikebana) IKB_KERNEL=kernel-xfrm; _ikb_conf west; comm=ikebanad ;;
	strongswan) comm=charon ;;
	libreswan) comm=pluto ;;
	esac
	# right=%any (nat=yes): the flood's addresses find the conn, as at a
	# gateway for road warriors or opportunistic peers
	peer "$d" west east responder psk nat=yes ike=$IKB_IKE esp=$IKB_ESP
	peer strongswan east west add psk ike=$IKB_IKE esp=$IKB_ESP
	r0=$(_rss_of west $comm)
	ns east "$FLOOD" "$W" 500 10.200.0.0/18 "$COUNT" >"$HOSTS/east/log/flood-$d.out" 2>&1 &
	fl=$!
	# the real peer, a second into the flood
	sleep 1
	t0=$(now_cs)
	if strongswan_initiate east east-west >"$HOSTS/east/log/initiate-$d.out" 2>&1; then
		t1=$(now_cs)
		conn=$(((t1 - t0) / 100)).$(((t1 - t0) % 100 / 10))
	else
		conn=failed
	fi
	wait "$fl"
	r1=$(_rss_of west $comm)
	out=$(cat "$HOSTS/east/log/flood-$d.out")
	log "$d: $out; real peer: $conn s; RSS $r0 -> $r1 KiB"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$d" "$(_get "$out" sent)" \
		"$(_get "$out" answers)" "$(_get "$out" full)" "$(_get "$out" cookie)" \
		"$(_get "$out" seconds)" "$conn" "$r0" "$r1" >>"$tsv"
	ikb_reset
done
pass
