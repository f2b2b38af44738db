#!/bin/sh
# Submariner's whack calls on both ends (description).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/lswpaths.sh"
. "$IKB_UML/lib/scenario/trap.sh"
PAIRS=1
topology west-east-pairs
W=198.51.100 E=203.0.113 PSK=submariner-psk-0123456789
NAME=submariner-cable-east-192-0-2-2-v4-0-0
# pkg/cable/libreswan/libreswan.go: TrafficStatusRE, in POSIX form
SUB_RE=' "([^"]+-v[46]-[0-1]-[0-1])"[^,]*, .*inBytes=([0-9]+), outBytes=([0-9]+)'

# sub_define HOST WHACK...: Submariner's bidirectionalConnectToEndpoint
# for HOST's end (local LOCAL LSUB, remote REMOTE RSUB), through WHACK.
sub_define() {
	_h=$1 _l=$2 _ls=$3 _r=$4 _rs=$5
	shift 5
	"$@" --listen || fail "whack --listen on $_h"
	"$@" --psk --encrypt --encaps=auto --name "$NAME" --ipv4 \
		--id "$_l" --host "$_l" --client "$_ls" --ikeport 4500 \
		--to --id "$_r" --host "$_r" --client "$_rs" --ikeport 4500 \
		--dpdaction=hold --dpddelay 30 || fail "whack: the conn on $_h"
	"$@" --route --name "$NAME" || fail "whack --route on $_h"
	"$@" --initiate --asynchronous --name "$NAME" || fail "whack --initiate on $_h"
}

# east: libreswan 4.10, its own whack; secrets as Submariner writes them
libreswan_start east
printf '%%any %%any : PSK "%s"\n' "$PSK" >"$HOSTS/east/etc/ipsec.secrets"
_ls_whack east --rereadsecrets || fail "whack --rereadsecrets on east"
# west: ikebana with libreswan's paths, Submariner's 0644 secrets file
mkdir -p "$(lsw_prefix west)/etc/ipsec.d"
printf '%%any %%any : PSK "%s"\n' "$PSK" >"$(lsw_prefix west)/etc/ipsec.d/submariner.secrets"
chmod 644 "$(lsw_prefix west)/etc/ipsec.d/submariner.secrets"
lsw_ikebana west
grep -q 'submariner.secrets: mode 0644 is group- or world-accessible; loaded all the same' \
	"$HOSTS/west/log/ikebanad.log" || fail "no warning for the 0644 secrets file on west"
log "ok: west loaded Submariner's 0644 secrets file, with a warning"

capture_start west:eth0
sub_define east 192.0.2.2 $E.0/24 192.0.2.1 $W.0/24 _ls_whack east
sub_define west 192.0.2.1 $W.0/24 192.0.2.2 $E.0/24 lsw_ipsec west whack
expect_sa west mode=tunnel
expect_sa east mode=tunnel
# both initiated at once: one IKE SA and one Child SA pair settle
_one() {
	[ "$(lsw_ipsec west status | grep -c "^000 #[0-9]*: \"$NAME\":[0-9]* STATE_V2_ESTABLISHED_IKE_SA")" = 1 ] &&
		[ "$(sa_count west)" = 2 ] && [ "$(sa_count east)" = 2 ]
}
wait_for 30 "one IKE SA and one Child SA pair on west" _one
log "ok: one IKE SA and one Child SA pair after both initiated"
expect_esp_grows west _ping_from west $W.1 $E.1 3
expect_only_esp west:eth0
_port=$(lsw_ipsec west status | sed -n "s/^000 #[0-9]*: \"$NAME\":\([0-9]*\) STATE_V2_ESTABLISHED_IKE_SA.*/\1/p")
[ "$_port" = 4500 ] || fail "west's IKE SA runs to port '$_port', not 4500"
t 30 tcpdump -n -r "$HOSTS/west/log/eth0.pcap" -c 1 'udp port 500' 2>/dev/null | grep -q . &&
	fail "IKE went over UDP 500; Submariner's conns start on 4500"
log "ok: IKE on UDP 4500 from the first message"
# Submariner reads the counters with its regular expression, on both ends
for h in west east; do
	case $h in
	west) _ts=$(lsw_ipsec west whack --trafficstatus) ;;
	east) _ts=$(t 20 "$LS_EXEC/whack" --ctlsocket "$(_ls_ctl east)" --trafficstatus) ;;
	esac
	echo "$_ts" >"$HOSTS/$h/log/trafficstatus.txt"
	_in=$(echo "$_ts" | grep -E "$SUB_RE" | sed -E "s/.*inBytes=([0-9]+).*/\1/" | head -n 1)
	[ -n "$_in" ] && [ "$_in" -gt 0 ] ||
		fail "$h's trafficstatus has no line Submariner reads with bytes in: $_ts"
	log "ok: $h's trafficstatus reads as Submariner's: inBytes=$_in"
done
# DisconnectFromEndpoint
lsw_ipsec west whack --delete --name "$NAME" || fail "whack --delete on west"
_no_sa() { [ "$(sa_count "$1")" = 0 ]; }
wait_for 30 "west's SAs gone after whack --delete" _no_sa west
lsw_ipsec west status | grep -q "\"$NAME\"" && fail "the conn is still listed on west"
log "ok: whack --delete took the conn and its SAs away"
pass
