#!/bin/sh
# strongSwan and libreswan against each other, every direction, in one boot
# (the harness's own check that the peers interoperate before ikebana is
# measured against them). Topology peers-square: strongSwan on west and
# north, libreswan on east and south, one link per conn:
#   west  -> east   strongSwan -> libreswan  (and PAIRS conns on address pairs)
#   west  -> north  strongSwan -> strongSwan
#   east  -> north  libreswan  -> strongSwan
#   east  -> south  libreswan  -> libreswan
# Each conn: one SA each way on both ends, ping both ways moving exactly
# that conn's ESP counters, and only ESP on every link.
# shellcheck disable=SC2034 # PAIRS is read by the topology
PAIRS=${PAIRS:-4}
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology peers-square
capture_start west:eth0 east:eth0 west:eth1 north:eth0 east:eth1 north:eth1 east:eth2 south:eth0

# conn INIT-DAEMON INIT INIT-ADDR RESP-DAEMON RESP RESP-ADDR [NAME]: the
# responder first, so that it is listening when the initiator starts.
conn() {
	peer "$4" "$5" "$2" responder psk esp=aes_gcm128 local="$6" remote="$3" ${7:+name=$7}
	peer "$1" "$2" "$5" initiator psk esp=aes_gcm128 local="$3" remote="$6" ${7:+name=$7}
}
conn strongswan west 192.0.2.1 libreswan east 192.0.2.2
conn strongswan west 198.51.100.1 strongswan north 198.51.100.2
conn libreswan east 203.0.113.1 strongswan north 203.0.113.2
conn libreswan east 100.64.0.1 libreswan south 100.64.0.2
i=1
while [ "$i" -le "$PAIRS" ]; do
	p=$(pair_addrs west "$i")
	conn strongswan west "${p% *}" libreswan east "${p#* }" "pair$i"
	i=$((i + 1))
done

# Every conn's SAs, before any traffic: west has 2 + PAIRS conns, east
# 3 + PAIRS, north 2, south 1, and each conn one SA each way.
expect_sa west count=$((2 * (2 + PAIRS))) timeout=60 alg=aes_gcm128 mode=transport
expect_sa east count=$((2 * (3 + PAIRS))) timeout=60 alg=aes_gcm128 mode=transport
expect_sa north count=4 timeout=60 alg=aes_gcm128 mode=transport
expect_sa south count=2 timeout=60 alg=aes_gcm128 mode=transport

# The conns as "INIT I RESP R", I on INIT and R on RESP.
conns="west 192.0.2.1 east 192.0.2.2
west 198.51.100.1 north 198.51.100.2
east 203.0.113.1 north 203.0.113.2
east 100.64.0.1 south 100.64.0.2
$(i=1; while [ "$i" -le "$PAIRS" ]; do
	p=$(pair_addrs west "$i"); echo "west ${p% *} east ${p#* }"; i=$((i + 1))
done)"
# One SAD snapshot per host before and after the pings: each process costs
# ~0.1 s in UML, and a loaded one much more.
snap() { for _h in west east north south; do sa_list "$_h" >"/tmp/sad.$_h.$1"; done; }
snap before
capture_wait
echo "$conns" | while read -r a i b r; do
	ns "$a" ping -n -q -c 2 -i 0.2 -W 2 -I "$i" "$r" >/dev/null || fail "ping $a $i -> $b $r"
	ns "$b" ping -n -q -c 2 -i 0.2 -W 2 -I "$r" "$i" >/dev/null || fail "ping $b $r -> $a $i"
done || exit 1
snap after
# Per conn and host: exactly one SA each way, and each of the conn's SAs
# carried both pings and both replies of one direction (4 packets) on the
# host that sent them and the host that received them.
bad=$(echo "$conns" | awk -v d=/tmp/sad '
function load(h, t,   f, l, k, n, a, i) {
	f = d "." h "." t
	while ((getline l < f) > 0) {
		n = split(l, a, " "); k = ""
		for (i = 1; i <= n; i++) {
			if (a[i] ~ /^src=/) k = substr(a[i], 5) k
			if (a[i] ~ /^dst=/) k = k ">" substr(a[i], 5)
			if (a[i] ~ /^packets=/) p = substr(a[i], 9)
		}
		cnt[h, t, k]++; pk[h, t, k] = p
	}
	close(f)
}
function check(h, k) {
	if (cnt[h, "after", k] != 1) print h ": " cnt[h, "after", k] + 0 " SAs " k
	else if (pk[h, "after", k] - pk[h, "before", k] < 4)
		print h ": SA " k " carried " pk[h, "after", k] - pk[h, "before", k] " packets"
}
BEGIN { split("west east north south", hs, " ")
	for (j in hs) { load(hs[j], "before"); load(hs[j], "after") } }
{ check($1, $2 ">" $4); check($1, $4 ">" $2); check($3, $2 ">" $4); check($3, $4 ">" $2) }')
[ -z "$bad" ] || fail "conns not as expected:
$bad"
log "ok: each of $(echo "$conns" | wc -l) conns has one SA each way on both ends, and pings both ways moved exactly its counters"
expect_only_esp west:eth0 east:eth0 west:eth1 north:eth0 east:eth1 north:eth1 east:eth2 south:eth0
pass
