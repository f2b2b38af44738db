#!/bin/bash
# Runs inside User-Mode Linux under systemd as PID 1 (ikb-test.service, the
# boot's only goal), on a root with the ikebana .deb installed. Checks the
# installed unit as systemd runs it and prints TAP to $OUT/tap; the host
# side (testing/systemd/run) reads it after the boot. Everything here is
# UML-internal: the root namespace is "west", a namespace "east" runs a
# second ikebanad by hand, one veth between them.
set -u
OUT=/root/ikb-test/out
mkdir -p "$OUT"
exec >"$OUT/log" 2>&1
: >"$OUT/tap"
n=0
fails=0

now() { cut -d' ' -f1 /proc/uptime; }
log() { echo "[$(now)] $*"; }
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$OUT/tap"; log "ok: $*"; }
not_ok() {
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n - $1" >>"$OUT/tap"
	shift
	log "FAIL: $*"
	for l in "$@"; do echo "# $l" >>"$OUT/tap"; done
}
# check NAME CMD...: one TAP line; on failure the command's output follows.
check() {
	local what=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$what"; else not_ok "$what" "$out"; fi
}

# poll_for SECONDS CMD...: CMD until it succeeds, or fail after SECONDS.
poll_for() {
	local end=$(($(date +%s) + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.2
	done
}

prop() { systemctl show -p "$1" --value ikebana.service; }
finish() {
	echo "1..$n" >>"$OUT/tap"
	journalctl -b --no-pager -o short-monotonic >"$OUT/journal" 2>&1
	echo "$fails" >"$OUT/status"
	sync
	systemctl poweroff --force --force
}

# --- the test network and the peer
modprobe -a veth xfrm_user esp4 esp6 crypto-gcm crypto-ghash crypto-ctr \
	crypto-seqiv crypto-echainiv crypto-rfc4106 2>/dev/null
ip link set lo up
ip netns add east
ip link add eth0 type veth peer name eth0 netns east
ip addr add 192.0.2.1/24 dev eth0
ip link set eth0 up
ip -n east addr add 192.0.2.2/24 dev eth0
ip -n east link set eth0 up
ip -n east link set lo up

E=/root/ikb-test/east
mkdir -p "$E/run"
cat >"$E/ikebana.conf" <<'CONF'
conn west-east
	left=192.0.2.2
	right=192.0.2.1
	authby=secret
	type=transport
	auto=add
CONF
echo '192.0.2.2 192.0.2.1 : PSK "ikebana systemd test secret"' >"$E/ikebana.secrets"
chmod 600 "$E/ikebana.secrets"
ip netns exec east /usr/sbin/ikebanad --nofork --config "$E/ikebana.conf" \
	--secrets "$E/ikebana.secrets" --rundir "$E/run" >"$OUT/east.log" 2>&1 &
poll_for 20 ikebana --rundir "$E/run" status ||
	not_ok "the peer ikebanad in namespace east answers" "$(tail -n 20 "$OUT/east.log")"

# --- west: the packaged configuration plus one conn in conf.d
W=/etc/ikebana
cat >"$W/conf.d/west-east.conf" <<'CONF'
conn west-east
	left=192.0.2.1
	right=192.0.2.2
	authby=secret
	type=transport
	auto=add
CONF
echo '192.0.2.1 192.0.2.2 : PSK "ikebana systemd test secret"' >"$W/ikebana.secrets"
chmod 600 "$W/ikebana.secrets"

# 1. A configuration with an error: the start fails and the unit never
# becomes active (Type=notify: no READY=1, no "started").
echo 'conn broken
	left=192.0.2.1
	right=192.0.2.9
	esp=no-such-cipher' >"$W/conf.d/broken.conf"
if systemctl start ikebana 2>"$OUT/start-broken.err"; then
	not_ok "a configuration with an error fails the start" "systemctl start succeeded"
else
	st="$(prop ActiveState) $(prop ExecMainStatus) $(prop NRestarts)"
	[ "$st" = "failed 78 0" ] &&
		ok "a configuration with an error fails the start: failed, status 78, not restarted" ||
		not_ok "a configuration with an error fails the start, status 78, no restart" "ActiveState ExecMainStatus NRestarts: $st"
fi
journalctl -u ikebana -b --no-pager | grep -q 'broken.conf:4' &&
	ok "the journal names the bad file:line (broken.conf:4)" ||
	not_ok "the journal names the bad file:line" "$(journalctl -u ikebana -b --no-pager | tail -n 15)"
rm "$W/conf.d/broken.conf"
systemctl reset-failed ikebana

# 2. Readiness: systemctl start returns once the daemon said READY=1, and
# at that point the control socket already answers (no retry).
if systemctl start ikebana; then
	if out=$(ikebana status 2>&1); then
		ok "systemctl start returns with the daemon ready: ikebana status answers at once"
	else
		not_ok "ikebana status answers right after systemctl start" "$out"
	fi
else
	not_ok "systemctl start ikebana" "$(systemctl status ikebana --no-pager 2>&1 | tail -n 20)"
fi
check "Type=notify, active (running)" test "$(prop Type)/$(prop ActiveState)/$(prop SubState)" = notify/active/running
# The unit became active after, not before, the daemon's READY=1: the
# daemon logs "ready" just before it notifies, systemd "Started" after.
j=$(journalctl -b --no-pager -o short-monotonic)
# short-monotonic lines start "[    7.901774] host ident[pid]: ...".
stamp() { echo "$j" | awk -v re="$1" '$0 ~ re { sub(/^\[ */, ""); sub(/\].*/, ""); print; exit }'; }
t_ready=$(stamp 'ikebanad .* started \\(pid')
t_started=$(stamp 'Started ikebana.service')
if [ -n "$t_ready" ] && [ -n "$t_started" ] &&
	awk -v r="$t_ready" -v s="$t_started" 'BEGIN { exit !(r <= s) }'; then
	ok "systemd logged 'Started' ($t_started) after the daemon's ready line ($t_ready)"
else
	not_ok "'Started' after the daemon's ready line" "ready=$t_ready started=$t_started" \
		"$(echo "$j" | grep -E 'ikebana' | tail -n 10)"
fi

# 3. Capabilities: what the unit allows (CAP_NET_ADMIN 12, CAP_NET_BIND_SERVICE
# 10 = 0x1400) and no more; nothing inheritable or ambient; no new privs.
pid=$(prop MainPID)
caps() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$pid/status"; }
log "ikebanad $pid: $(grep -E '^(Cap|NoNewPrivs|Uid|Gid|Groups)' "/proc/$pid/status" | tr '\t\n' ' ')"
bnd=$((16#$(caps CapBnd))) eff=$((16#$(caps CapEff))) prm=$((16#$(caps CapPrm)))
inh=$((16#$(caps CapInh))) amb=$((16#$(caps CapAmb)))
allowed=$(((1 << 12) | (1 << 10)))
[ "$bnd" = "$allowed" ] && ok "bounding set is CAP_NET_ADMIN CAP_NET_BIND_SERVICE" ||
	not_ok "bounding set is CAP_NET_ADMIN CAP_NET_BIND_SERVICE" "CapBnd=$(caps CapBnd)"
[ $((eff & ~allowed)) = 0 ] && [ $((prm & ~allowed)) = 0 ] && [ $((eff & (1 << 12))) != 0 ] &&
	ok "effective and permitted sets hold CAP_NET_ADMIN and nothing outside the unit's set" ||
	not_ok "effective/permitted within the unit's set" "CapEff=$(caps CapEff) CapPrm=$(caps CapPrm)"
[ "$inh" = 0 ] && [ "$amb" = 0 ] && [ "$(caps NoNewPrivs)" = 1 ] &&
	ok "no inheritable or ambient capabilities, NoNewPrivs" ||
	not_ok "no inheritable/ambient capabilities, NoNewPrivs" "CapInh=$(caps CapInh) CapAmb=$(caps CapAmb) NoNewPrivs=$(caps NoNewPrivs)"

# 4. The exposure score, as systemd rates the running unit.
systemd-analyze security --no-pager ikebana.service >"$OUT/security" 2>&1
score=$(awk '/Overall exposure level for ikebana.service:/ { print $(NF - 2) }' "$OUT/security")
log "systemd-analyze security: $(grep 'Overall exposure' "$OUT/security")"
[ -n "$score" ] && awk -v s="$score" 'BEGIN { exit !(s <= 2.5) }' &&
	ok "systemd-analyze security: exposure $score (at most 2.5)" ||
	not_ok "systemd-analyze security exposure at most 2.5" "$(tail -n 5 "$OUT/security")"

# 5. The control socket: group ikebana may use it, others may not.
useradd -M -G ikebana alice
useradd -M bob
check "a member of group ikebana runs ikebana status" runuser -u alice -- ikebana status
# Refused by the socket's permissions, not by anything before it.
if out=$(runuser -u bob -- ikebana status 2>&1); then
	not_ok "a user outside group ikebana is refused" "$out"
elif echo "$out" | grep -q 'ikebana.ctl: Permission denied — the control socket is for root and members of group ikebana'; then
	ok "a user outside group ikebana is refused: $(echo "$out" | head -n 1)"
else
	not_ok "a user outside group ikebana is refused by the socket" "$out"
fi

# 6. A tunnel to the peer through the service, with ESP on the wire.
esp_out() { ip -s xfrm state | awk '/^src 192.0.2.1 dst 192.0.2.2/ { f = 1 } f && /packets/ { print; exit }'; }
if out=$(ikebana up west-east 2>&1); then
	ok "ikebana up west-east: $(echo "$out" | tail -n 1)"
else
	not_ok "ikebana up west-east" "$out" "$(tail -n 20 "$OUT/east.log")"
fi
# The outbound SA's packet counter ("lifetime current: ... 3(packets)").
out_packets() {
	ip -s xfrm state | awk '/^src / { f = ($2 == "192.0.2.1" && $4 == "192.0.2.2") }
		f && /^[ \t]*[0-9]+\(bytes\), [0-9]+\(packets\)/ {
			sub(/.*\(bytes\), */, ""); sub(/\(packets\).*/, ""); print; exit }'
}
sas=$(ip xfrm state | grep -c 'proto esp')
p0=$(out_packets)
if ping -c 3 -i 0.2 -W 2 192.0.2.2 >/dev/null && [ "$sas" -ge 2 ] &&
	[ "$(out_packets)" -ge $((${p0:-0} + 3)) ]; then
	ok "ping through the Child SA: $sas ESP SAs, outbound packets $p0 -> $(out_packets)"
else
	not_ok "ping through the Child SA" "SAs: $sas, outbound packets $p0 -> $(out_packets)" "$(ip -s xfrm state)"
fi
check "ikebana status (as alice) shows the Child SA" sh -c 'runuser -u alice -- ikebana status | grep -qi "west-east.*\(installed\|established\|child\)"'
# the group may look, not change: alice's down is refused and logged
if out=$(runuser -u alice -- ikebana down west-east 2>&1); then
	not_ok "a member of group ikebana may not take a tunnel down" "$out"
elif echo "$out" | grep -q 'only root may' &&
	journalctl -u ikebana --no-pager | grep -q "control: down west-east by uid $(id -u alice) pid .*refused"; then
	ok "a member of group ikebana may not take a tunnel down: refused, and logged with its uid"
else
	not_ok "a member of group ikebana may not take a tunnel down" "$out" "$(journalctl -u ikebana --no-pager | tail -n 5)"
fi

# journald fields: `journalctl IKB_CONN=west-east` is that conn's story,
# each line with its IKE SA's serial and the peer's address, nothing else.
journal_fields() {
	j=$(journalctl -b --no-pager -u ikebana IKB_CONN=west-east -o cat)
	f=$(journalctl -b --no-pager -u ikebana IKB_CONN=west-east \
		-o export | grep -E '^IKB_(SERIAL|PEER)=' | sort -u)
	echo "$j" | grep -q 'Child SA established' || return 1
	[ -z "$(echo "$j" | grep -v '^conn west-east #')" ] || return 1
	echo "$f" | grep -qx 'IKB_PEER=192.0.2.2' &&
		echo "$f" | grep -q '^IKB_SERIAL=[1-9]'
}
if journal_fields; then
	ok "journalctl IKB_CONN=west-east: $(echo "$j" | wc -l) lines, all of that conn, with IKB_SERIAL and IKB_PEER"
else
	not_ok "journalctl IKB_CONN=west-east shows the conn's lines with IKB_SERIAL and IKB_PEER" \
		"lines: $j" "fields: $f"
fi

# 7. Reload: a new conn appears; a configuration with an error keeps the
# old one (and the daemon, and its SAs).
cat >"$W/conf.d/second.conf" <<'CONF'
conn second
	left=192.0.2.1
	right=192.0.2.3
	authby=secret
	auto=add
CONF
pid0=$(prop MainPID)
systemctl reload ikebana
check "systemctl reload picks up a new conn" sh -c 'ikebana status | grep -q second'
echo 'conn third
	left=192.0.2.1
	rightt=192.0.2.4' >"$W/conf.d/third.conf"
systemctl reload ikebana >"$OUT/reload-bad" 2>&1
rc=$?
log "systemctl reload with an error: exit $rc: $(cat "$OUT/reload-bad")"
if ikebana status >"$OUT/status-after" 2>&1 && grep -q second "$OUT/status-after" &&
	! grep -q third "$OUT/status-after" && [ "$(prop MainPID)" = "$pid0" ] &&
	[ "$(prop ActiveState)" = active ]; then
	ok "a reload with an error keeps the old configuration, the daemon and its SAs"
else
	not_ok "a reload with an error keeps the old configuration" "$(cat "$OUT/status-after")" "MainPID $pid0 -> $(prop MainPID), $(prop ActiveState)"
fi
[ "$rc" != 0 ] && ok "systemctl reload fails on a configuration with an error (exit $rc)" ||
	not_ok "systemctl reload fails on a configuration with an error" "exit 0"
journalctl -u ikebana -b --no-pager | grep -q 'third.conf:3' &&
	ok "the reload's error names third.conf:3" ||
	not_ok "the reload's error names third.conf:3" "$(journalctl -u ikebana -b --no-pager | tail -n 10)"
rm -f "$W/conf.d/third.conf"

# 8. The watchdog: a daemon that stops answering is killed and restarted.
# A drop-in shortens WatchdogSec so the test waits seconds, not 30.
mkdir -p /run/systemd/system/ikebana.service.d
printf '[Service]\nWatchdogSec=4s\n' >/run/systemd/system/ikebana.service.d/watchdog.conf
systemctl daemon-reload
systemctl restart ikebana
pid1=$(prop MainPID)
r1=$(prop NRestarts)
kill -STOP "$pid1"
restarted() {
	p=$(prop MainPID)
	[ "$p" != 0 ] && [ "$p" != "$pid1" ] && [ "$(prop ActiveState)" = active ]
}
if poll_for 40 restarted; then
	ok "the watchdog restarted a stopped daemon (pid $pid1 -> $(prop MainPID), NRestarts $r1 -> $(prop NRestarts))"
else
	not_ok "the watchdog restarts a stopped daemon" "MainPID $(prop MainPID) $(prop ActiveState)/$(prop SubState)" "$(journalctl -u ikebana -b --no-pager | tail -n 10)"
fi
journalctl -u ikebana -b --no-pager | grep -qi 'watchdog timeout' &&
	ok "systemd logged the watchdog timeout" ||
	not_ok "systemd logged the watchdog timeout" "$(journalctl -u ikebana -b --no-pager | tail -n 10)"
check "the restarted daemon answers" ikebana status

systemctl stop ikebana
check "systemctl stop: inactive" test "$(prop ActiveState)" = inactive

# 9. ikebana-libreswan-compat: ipsec.service with libreswan's paths,
# driven by the ipsec command as the orchestrators drive libreswan.
lsw_status() { ipsec status | grep -q 'Total IPsec connections: loaded 0, active 0'; }
check "the package made /var/lib/ipsec/nss" test -e /var/lib/ipsec/nss/cert9.db
rm -f /var/lib/ipsec/nss/* # the unit makes it again, as libreswan's
check "ipsec start: systemctl starts ipsec.service" ipsec start
if poll_for 20 lsw_status; then
	ok "ipsec status answers from /run/pluto/pluto.ctl"
else
	not_ok "ipsec status answers" "$(ipsec status 2>&1)" "$(journalctl -u ipsec -b --no-pager | tail -n 10)"
fi
check "ipsec.service runs ikebanad --libreswan-paths" \
	test "$(systemctl show -p ActiveState --value ipsec.service)" = active
# as libreswan's unit, it made the NSS database the tools import into
check "ipsec.service made /var/lib/ipsec/nss" test -e /var/lib/ipsec/nss/cert9.db
check "ipsec stop: inactive" sh -c 'ipsec stop && test "$(systemctl show -p ActiveState --value ipsec.service)" = inactive'
finish
