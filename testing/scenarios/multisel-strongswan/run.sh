#!/bin/sh
# Several selectors in one Child SA against strongSwan (see description).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
. "$IKB_UML/lib/scenario/trap.sh"
PAIRS=2
topology west-east-pairs
W=198.51.100 E=203.0.113

# _pols_out HOST SRC: outbound policies of HOST from SRC
_pols_out() { ns "$1" ip xfrm policy list dir out src "$2" | grep -c '^src'; }

# multisel_case ROLE: west is ROLE against strongSwan
multisel_case() {
	_er=responder
	[ "$1" = responder ] && _er=initiator
	peer strongswan east west $_er tunnel lsubnet=$E.0/24 rsubnet=$W.1/32,$W.2/32 name=ms
	peer ikebana west east "$1" tunnel lsubnet=$W.1/32,$W.2/32 rsubnet=$E.0/24 name=ms
	expect_sa west mode=tunnel
	[ "$(sa_count west)" = 2 ] || fail "west has $(sa_count west) ESP states, expected 2 (one SA pair)"
	for _s in $W.1/32 $W.2/32; do
		[ "$(_pols_out west "$_s")" = 1 ] || fail "west has no outbound policy from $_s"
	done
	[ "$(ns west ip xfrm policy list | grep -c '^src')" -ge 6 ] ||
		fail "west lacks the in/fwd policies of both pairs"
	log "ok: west has the policies of both pairs, one SA pair"
	expect_esp_grows west _ping_from west $W.1 $E.1 3
	expect_esp_grows west _ping_from west $W.2 $E.1 3
	[ "$(sa_count west)" = 2 ] || fail "the traffic of the second subnet made another SA"
	_ts=$(t 20 ip netns exec west "$IKB_CLI" --rundir "$HOSTS/west/run" status --json |
		jq -r '.ike_sas[0].child_sas[0].ts_local')
	[ "$_ts" = "$W.1/32,$W.2/32" ] || fail "west's status ts_local is '$_ts'"
	log "ok: west's status lists $_ts"
}

multisel_case initiator
ikb_reset
multisel_case responder
pass
