# On-demand conns and shunts (auto=ondemand, type=passthrough|drop): the
# trap's policies before any SA, the ACQUIRE, and what the wire carries.
# shellcheck shell=sh

# _ping_from HOST SRC DST [COUNT]: COUNT (1) pings from SRC, all answered.
_ping_from() {
	ns "$1" ping -n -q -c "${4:-1}" -i 0.2 -W 1 -I "$2" "$3" >/dev/null 2>&1
}

# _trap_out HOST SRCNET DSTNET: HOST's outbound policy for SRCNET -> DSTNET
# has an ESP template (a trap, or a Child SA's policy).
_trap_out() {
	ns "$1" ip xfrm policy list dir out src "$2" dst "$3" | grep -q 'proto esp'
}

# trap_expect_trap HOST SRCNET DSTNET: the trap is in, and no SA.
trap_expect_trap() {
	wait_for 10 "$1's trap $2 -> $3" _trap_out "$1" "$2" "$3"
	log "ok: $1 has the trap $2 -> $3 with its ESP template"
}

# trap_expect_shunt HOST SRC DST allow|block: HOST's policies for SRC <-> DST
# (host addresses) have no template and do ACTION, both ways.
trap_expect_shunt() {
	for _d in "out src $2/32 dst $3/32" "in src $3/32 dst $2/32"; do
		# shellcheck disable=SC2086 # _d is a list of words
		_p=$(ns "$1" ip xfrm policy list dir $_d)
		[ -n "$_p" ] || fail "$1: no policy dir $_d"
		case $_p in *tmpl*) fail "$1: the shunt dir $_d has a template: $_p" ;; esac
		[ "$4" = allow ] || case $_p in *"action block"*) ;; *) fail "$1: the shunt dir $_d does not block: $_p" ;; esac
	done
	log "ok: $1 has the $4 shunt $2 <-> $3, no template"
}

# trap_expect_routes HOST N: `ikebana status --json` lists N routes.
trap_expect_routes() {
	_n=$(t 20 ip netns exec "$1" "$IKB_CLI" --rundir "$HOSTS/$1/run" status --json |
		jq '.routes | length')
	[ "$_n" = "$2" ] || fail "$1: status lists $_n routes, expected $2"
	log "ok: $1's status lists $2 routes"
}

# trap_no_clear PCAP FILTER WHAT: no packet of FILTER in HOST:DEV's capture.
trap_no_clear() {
	_pc=$HOSTS/${1%%:*}/log/${1#*:}.pcap
	_bad=$(t 30 tcpdump -n -r "$_pc" "$2" 2>/dev/null | head -n 5)
	[ -z "$_bad" ] || fail "$1 sent $3 in clear: $_bad"
	log "ok: $1 sent no $3 in clear"
}

# trap_has_clear PCAP FILTER WHAT: at least one packet of FILTER.
trap_has_clear() {
	_pc=$HOSTS/${1%%:*}/log/${1#*:}.pcap
	t 30 tcpdump -n -r "$_pc" -c 1 "$2" 2>/dev/null | grep -q . ||
		fail "$1 sent no $3 in clear"
	log "ok: $1 sent $3 in clear"
}

# _esp_out HOST: the packets of HOST's outbound ESP SAs.
_esp_out() { esp_inout "$1" | cut -d' ' -f2; }

# _no_sas HOST: no ESP SA but larval ones (SPI 0, an ACQUIRE's, which the
# kernel keeps for its timeout)
_no_sas() { [ "$(sa_list "$1" | grep -vc 'spi=0x0*0 ')" = 0 ]; }

# trap_expect_one_out HOST SRCNET DSTNET: exactly one outbound policy for
# the selectors (the Child SA uses the trap's, it adds none of its own).
trap_expect_one_out() {
	_n=$(ns "$1" ip xfrm policy list dir out src "$2" dst "$3" | grep -c '^src')
	[ "$_n" = 1 ] || fail "$1 has $_n outbound policies for $2 -> $3, expected 1"
	log "ok: $1 has one outbound policy for $2 -> $3"
}
