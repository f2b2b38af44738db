# Certificate scenarios: one conn per address pair of topology
# west-east-pairs, a daemon on each host, and the checks every such
# scenario makes (sourced after all.sh).
#   certs_conn I NAME INITIATOR WEST-WORDS -- EAST-WORDS
#                         conn NAME on pair I, $CERTS_WEST on west and
#                         $CERTS_EAST on east, the responder loaded first
#   certs_found LOG PATTERN...   every PATTERN is in LOG
#   certs_expect_sas GOOD [OTHER] GOOD: the pairs that must be up ("1 2 3");
#                         per pair and host exactly one SA each way for
#                         those, none for the others but OTHER (checked by
#                         the scenario); then pings both ways through each
#                         good pair must move its own SAs' counters on both
#                         hosts
#   certs_v6 PEER         conn v6: RSA certificates between the hosts'
#                         IPv6 addresses, west initiating, and conn v6r
#                         between a second pair, east initiating (after the
#                         pairs' conns; expect_sa counts their 4 SAs)
#   certs_expect_v6       one SA each way per conn on both hosts, ping6
#                         through each
#   certs_small_path      before the first conn: both hosts drop IP
#                         fragments, ikebana (west) fragments IKE at 576
#                         octets (RFC 7383): what a small path carries
#   certs_expect_fragments ikebana sent and received IKE fragments, and
#                         neither host dropped an IP fragment
# shellcheck shell=sh disable=SC2154
# (l and r are set by certs_pair; CERTS_* by the scenario)

CERTS_V6R_WEST=2001:db8:1::11
CERTS_V6R_EAST=2001:db8:1::12

# certs_pair I: sets l and r, west's and east's address of pair I.
certs_pair() { _cp=$(pair_addrs west "$1"); l=${_cp% *} r=${_cp#* }; }

certs_conn() {
	certs_pair "$1"
	_n=$2 _init=$3
	shift 3
	_w='' _e=''
	while [ $# -gt 0 ] && [ "$1" != -- ]; do _w="$_w $1"; shift; done
	shift
	_e=$*
	_wr=responder _er=initiator
	[ "$_init" = west ] && _wr=initiator _er=responder
	# shellcheck disable=SC2086 # _w and _e are lists of words
	if [ "$_init" = west ]; then
		peer "$CERTS_EAST" east west $_er name="$_n" local="$r" remote="$l" $_e
		peer "$CERTS_WEST" west east $_wr name="$_n" local="$l" remote="$r" $_w
	else
		peer "$CERTS_WEST" west east $_wr name="$_n" local="$l" remote="$r" $_w
		peer "$CERTS_EAST" east west $_er name="$_n" local="$r" remote="$l" $_e
	fi
}

certs_found() {
	_fl=$1
	shift
	for _fp; do grep -q -- "$_fp" "$_fl" || return; done
}

# One SAD snapshot per host (each process costs ~0.1 s in UML).
_certs_snap() { for _h in west east; do sa_list "$_h" >"/tmp/sad.$_h.$1"; done; }

# _certs_check GOOD NPAIRS TRAFFIC: what is wrong, one line each.
_certs_check() {
	_i=1
	while [ "$_i" -le "$2" ]; do
		certs_pair "$_i"
		echo "$_i $l $r"
		_i=$((_i + 1))
	done | awk -v d=/tmp/sad -v good=" $1 " -v other=" $4 " -v traffic="$3" '
	function load(h, t,   f, l, k, n, a, i, p) {
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
	function sa(i, h, k,   want) {
		want = index(good, " " i " ") > 0
		if (index(other, " " i " ")) return
		if (cnt[h, "after", k] + 0 != want)
			print "pair " i ": " h " has " cnt[h, "after", k] + 0 " SAs " k ", not " want
		else if (want && traffic && pk[h, "after", k] - pk[h, "before", k] < 4)
			print "pair " i ": " h ": SA " k " carried " pk[h, "after", k] - pk[h, "before", k] " packets"
	}
	BEGIN { for (j = 0; j < 2; j++) { h = j ? "east" : "west"
		load(h, "before"); load(h, "after") } }
	{ sa($1, "west", $2 ">" $3); sa($1, "west", $3 ">" $2)
	  sa($1, "east", $2 ">" $3); sa($1, "east", $3 ">" $2) }'
}

certs_expect_sas() {
	_good=$1
	_certs_snap before
	cp /tmp/sad.west.before /tmp/sad.west.after
	cp /tmp/sad.east.before /tmp/sad.east.after
	_bad=$(_certs_check "$_good" "$PAIRS" '' "${2:-}")
	[ -z "$_bad" ] || fail "SAs not as expected:
$_bad"
	log "ok: one SA each way for pairs $_good on both hosts, none for the others"
	for _i in $_good; do
		certs_pair "$_i"
		ns west ping -n -q -c 2 -i 0.2 -W 2 -I "$l" "$r" >/dev/null || fail "ping west $l -> east $r (pair $_i)"
		ns east ping -n -q -c 2 -i 0.2 -W 2 -I "$r" "$l" >/dev/null || fail "ping east $r -> west $l (pair $_i)"
	done
	_certs_snap after
	_bad=$(_certs_check "$_good" "$PAIRS" traffic "${2:-}")
	[ -z "$_bad" ] || fail "traffic not through the cert conns' SAs:
$_bad"
	log "ok: pings both ways moved each good conn's SA counters on both hosts"
}

certs_small_path() {
	drop_ip_fragments west east
	mkdir -p "$HOSTS/west/etc/ikebana.d"
	printf 'config setup\n\tnssdir=%s\n\tike-fragment-size=576\n\ninclude %s/*.conf\n' \
		"$HOSTS/west/nss" "$HOSTS/west/etc/ikebana.d" >"$HOSTS/west/etc/ikebana.conf"
}

# _certs_frag_sum KEY: the sum of KEY over west's `ikebana status --json`.
_certs_frag_sum() {
	grep -o "\"$1\": *[0-9]*" "$HOSTS/west/log/ikebana.log" |
		awk -F: '{ n += $2 } END { print n + 0 }'
}

certs_expect_fragments() {
	_ikb west status --json || fail "ikebana status --json"
	_cr=$(_certs_frag_sum fragments_received)
	_cs=$(_certs_frag_sum fragments_sent)
	if [ "$_cr" -eq 0 ] || [ "$_cs" -eq 0 ]; then
		fail "ikebana's IKE SAs sent $_cs and received $_cr IKE fragments: expected both"
	fi
	for _h in west east; do
		_cd=$(ip_fragments_dropped "$_h")
		[ "$_cd" = 0 ] || fail "$_h dropped $_cd IP fragments: an IKE message went IP-fragmented"
	done
	log "ok: ikebana sent $_cs and received $_cr IKE fragments; no IP fragment on either host"
}

certs_v6() {
	ns west ip -6 addr add "$CERTS_V6R_WEST/64" dev eth0 nodad &&
		ns east ip -6 addr add "$CERTS_V6R_EAST/64" dev eth0 nodad ||
		fail "cannot add conn v6r's IPv6 addresses"
	peer "$1" east west responder name=v6 af=6 cert=rsa
	peer ikebana west east initiator name=v6 af=6 cert=rsa
	peer ikebana west east responder name=v6r af=6 cert=rsa \
		local="$CERTS_V6R_WEST" remote="$CERTS_V6R_EAST"
	peer "$1" east west initiator name=v6r af=6 cert=rsa \
		local="$CERTS_V6R_EAST" remote="$CERTS_V6R_WEST"
}

# _certs_v6_pair NAME WEST EAST: one SA each way between the two addresses
# on both hosts, and pings from west's through them.
_certs_v6_pair() {
	for _h in west east; do
		_n=$(sa_list "$_h" | grep -c "src=\($2\|$3\) dst=\($2\|$3\)")
		[ "$_n" = 2 ] || fail "$_h has $_n IPv6 SAs of conn $1, not 2: $(sa_list "$_h")"
	done
	_b=$(esp_packets west src="$2")
	ns west ping -6 -n -q -c 3 -i 0.2 -W 2 -I "$2" "$3" >/dev/null ||
		fail "ping6 west $2 -> east $3"
	_a=$(esp_packets west src="$2")
	[ "$_a" -ge $((_b + 3)) ] || fail "conn $1's outbound SA carried $((_a - _b)) packets of 3 pings"
	log "ok: conn $1 over IPv6 ($2 <-> $3): one SA each way on both hosts, pings through ESP"
}

certs_expect_v6() {
	_certs_v6_pair v6 "$(addr_of west 6)" "$(addr_of east 6)"
	_certs_v6_pair v6r "$CERTS_V6R_WEST" "$CERTS_V6R_EAST"
}
