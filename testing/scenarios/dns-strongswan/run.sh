#!/bin/sh
# Host names in right= against strongSwan, on west-east-dns (dnsmasq on ns
# serves ikebana.test). One boot, four cases:
#   1  to-east (right=east.ikebana.test, auto=start) comes up at 192.0.2.2:
#      ESP both ways while west pings; status names the host and address
#   2  `ikebana up nxd` (right=nowhere.ikebana.test) fails naming the host
#      and NXDOMAIN; to-east stays up
#   3  dnsmasq stopped (SIGSTOP): `ikebana status` still answers within a
#      second, and `ikebana up slow` fails with a timeout
#   4  east moves to 192.0.2.3 (the record with it, 192.0.2.2 removed):
#      DPD declares the peer dead, ikebana resolves again and comes back at
#      192.0.2.3 with ESP flowing
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/dns.sh"
topology west-east-dns
dns_start
dns_record east 192.0.2.2
peer strongswan east
peer ikebana west

W=$HOSTS/west
_st() { t 10 "$IKB_CLI" --rundir "$W/run" status >"$W/log/status.txt" 2>&1; }
# _st_has TEXT: west's `ikebana status` shows TEXT
_st_has() { _st && grep -qF -- "$1" "$W/log/status.txt"; }
# _up_at ADDR: west's to-east has an established IKE SA with east at ADDR
_up_at() {
	t 10 "$IKB_CLI" --rundir "$W/run" status --json >"$W/log/status.json" 2>&1 &&
		jq -e --arg a "$1" '[.ike_sas[] | select(.conn == "to-east" and
			.state == "established" and .remote == $a)] | length == 1' \
			"$W/log/status.json" >/dev/null
}

# 1: up by name
wait_for 30 "to-east established at 192.0.2.2" _up_at 192.0.2.2
expect_esp_grows west ping_ok west 192.0.2.2
_st_has "right=east.ikebana.test: 192.0.2.2 at " ||
	fail "status does not show what right=east.ikebana.test resolved to"
_st_has "dns    remote east.ikebana.test (resolved " ||
	fail "status does not show the IKE SA's name"
log "case 1 ok: up by name, ESP flows, status shows name and address"

# 2: NXDOMAIN, for that conn alone
_upo=$(t 30 "$IKB_CLI" --rundir "$W/run" up nxd 2>&1) &&
	fail "ikebana up nxd succeeded: $_upo"
echo "$_upo" >"$W/log/up-nxd.txt"
case $_upo in *nowhere.ikebana.test*NXDOMAIN*) ;;
*) fail "ikebana up nxd does not name the host and NXDOMAIN: $_upo" ;; esac
grep -q "conn nxd: right=nowhere.ikebana.test: NXDOMAIN" "$W/log/ikebanad.log" ||
	fail "the log does not name nowhere.ikebana.test and NXDOMAIN"
_st_has "right=nowhere.ikebana.test: NXDOMAIN" ||
	fail "status does not show NXDOMAIN for nxd"
expect_esp_grows west ping_ok west 192.0.2.2
log "case 2 ok: $_upo"

# 3: a DNS server that does not answer holds nothing up
dns_stop_answering
t 40 "$IKB_CLI" --rundir "$W/run" up slow >"$W/log/up-slow.txt" 2>&1 &
_up=$!
poll_for 5 _st_has "slow #" || fail "ikebana up slow did not start resolving"
_t0=$(now_cs)
t 5 "$IKB_CLI" --rundir "$W/run" status >/dev/null 2>&1 ||
	fail "ikebana status did not answer while a lookup hangs"
_t1=$(now_cs)
[ $((_t1 - _t0)) -lt 100 ] ||
	fail "ikebana status took $((_t1 - _t0))0 ms while a lookup hangs"
log "ok: status answered in $((_t1 - _t0))0 ms while slow.ikebana.test hangs"
_st_has "resolving" || fail "status does not show slow resolving"
wait "$_up" && fail "ikebana up slow succeeded: $(cat "$W/log/up-slow.txt")"
grep -q "slow.ikebana.test.*timeout" "$W/log/up-slow.txt" ||
	fail "ikebana up slow does not report a timeout: $(cat "$W/log/up-slow.txt")"
dns_answer_again
log "case 3 ok: $(cat "$W/log/up-slow.txt")"

# 4: the peer moves; its record follows; DPD finds it lost
# the new address must outlive the old one, its primary
ip netns exec east sysctl -qw net.ipv4.conf.eth0.promote_secondaries=1
ip -n east addr add 192.0.2.3/24 dev eth0
dns_record east 192.0.2.3
ip -n east addr del 192.0.2.2/24 dev eth0
log "east moved to 192.0.2.3"
wait_for 60 "to-east established again at 192.0.2.3" _up_at 192.0.2.3
grep -q "peer is dead" "$W/log/ikebanad.log" ||
	fail "the old IKE SA did not end by DPD"
grep -q "right=east.ikebana.test is 192.0.2.3" "$W/log/ikebanad.log" ||
	fail "the log does not show the name resolved to 192.0.2.3"
expect_esp_grows west ping_ok west 192.0.2.3
log "case 4 ok: re-resolved after DPD, back at 192.0.2.3"
pass
