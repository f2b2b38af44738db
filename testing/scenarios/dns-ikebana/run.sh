#!/bin/sh
# ikebana on both ends of west-east-dns, peers by name:
#   1  west: left=%defaultroute (a default route via east on eth0) and
#      right=east.ikebana.test; east, responder: right=west.ikebana.test,
#      resolved at load. `ikebana up` on west: both established, ESP
#      flows; both statuses show what each name resolved to
#   2  west.ikebana.test now points elsewhere and east reloads (and so
#      resolves again): east refuses west, whose `ikebana up` fails
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/dns.sh"
topology west-east-dns
ip -n west route add default via 192.0.2.2 dev eth0
dns_start
dns_record east 192.0.2.2
dns_record west 192.0.2.1
peer ikebana east
peer ikebana west

# _st HOST: HOST's `ikebana status` in its log/status.txt; _has HOST TEXT
_st() {
	t 10 "$IKB_CLI" --rundir "$HOSTS/$1/run" status \
		>"$HOSTS/$1/log/status.txt" 2>&1
}
_has() { _st "$1" && grep -qF -- "$2" "$HOSTS/$1/log/status.txt"; }

wait_for 20 "east resolved west.ikebana.test at load" \
	_has east "right=west.ikebana.test: 192.0.2.1 at "
wait_for 20 "west resolved %defaultroute" \
	_has west "left=%defaultroute: 192.0.2.1 at "
_upo=$(t 30 "$IKB_CLI" --rundir "$HOSTS/west/run" up to-east 2>&1) ||
	fail "ikebana up to-east: $_upo"
expect_sa west count=2
expect_sa east count=2
expect_esp_grows west ping_ok west 192.0.2.2
_has west "right=east.ikebana.test: 192.0.2.2 at " ||
	fail "west's status does not show east.ikebana.test's address"
_has west "dns    local %defaultroute remote east.ikebana.test" ||
	fail "west's IKE SA does not show its names"
log "case 1 ok: both ends by name, ESP flows"

t 30 "$IKB_CLI" --rundir "$HOSTS/west/run" down to-east >/dev/null 2>&1 ||
	fail "ikebana down to-east"
_no_sa() { [ "$(sa_count "$1")" = 0 ]; }
wait_for 10 "west's SAs gone" _no_sa west
dns_record west 192.0.2.77
t 30 "$IKB_CLI" --rundir "$HOSTS/east/run" reload >/dev/null 2>&1 ||
	fail "ikebana reload on east"
wait_for 20 "east resolved west.ikebana.test again" \
	_has east "right=west.ikebana.test: 192.0.2.77 at "
_upo=$(t 40 "$IKB_CLI" --rundir "$HOSTS/west/run" up to-east 2>&1) &&
	fail "east accepted west at an address its name does not have: $_upo"
log "case 2 ok: east refused west: $_upo"
pass
