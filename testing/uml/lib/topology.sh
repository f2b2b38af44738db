# Declarative topologies: `topology NAME` reads $IKB_UML/topologies/NAME (or a
# path) line by line. Each line is a word from the list below and its
# arguments; ${VARS} are expanded, so a scenario can set PAIRS=50 or NAT=no.
#   host NAME                       a namespace with its own state dir
#   link A:DEV B:DEV                a veth pair, both ends up
#   addr HOST DEV ADDR/LEN          first v4 and v6 are HOST's own address
#   route HOST ARGS...              ip -n HOST route add ARGS (family from the
#                                   prefix: ::/0, not -6 default: a batch line)
#   forward HOST                    HOST routes (v4 and v6)
#   masquerade HOST DEV [yes|no]    source NAT out of DEV (nftables)
#   seen HOST ADDR [yes|no]         others reach HOST at ADDR (NAT)
#   pairs A DEV PFX B DEV PFX N     N /32 address pairs PFX.1..N, routed
# shellcheck shell=sh

topology() {
	_f=$1
	case $_f in */*) ;; *) _f=$IKB_UML/topologies/$1 ;; esac
	[ -r "$_f" ] || fail "no topology $1"
	log "topology $(basename "$_f")"
	# ip commands are collected into batches (one for the root namespace,
	# one per host) and run at the end: each process costs ~0.1 s in UML.
	_TB=/tmp/topology.batch
	mkdir -p "$_TB"
	rm -f "$_TB"/*
	while read -r _w _rest; do
		case $_w in
		'' | '#'*) continue ;;
		host | link | addr | route | forward | masquerade | seen | pairs)
			eval "topo_$_w $_rest" || fail "topology $_f: $_w $_rest" ;;
		*) fail "topology $_f: unknown word '$_w'" ;;
		esac
	done <"$_f"
	ip -b "$_TB/root" || fail "topology $_f: ip -b $_TB/root"
	for _h in $(hosts); do
		ip -n "$_h" -b "$_TB/$_h" || fail "topology $_f: ip -n $_h -b $_TB/$_h"
	done
	for _h in $(hosts); do
		[ -e "$_TB/$_h.sh" ] && { ip netns exec "$_h" sh -e "$_TB/$_h.sh" || fail "topology $_f: $_h"; }
		# The addresses sa_list uses to tell inbound SAs from outbound ones.
		ip -n "$_h" -o addr show | awk '{ sub("/.*", "", $4); print $4 }' >"$HOSTS/$_h/local"
	done
}

# _tb FILE LINE...: appends to a batch.
_tb() { _bf=$1; shift; echo "$*" >>"$_TB/$_bf"; }

topo_host() {
	mkdir -p "$HOSTS/$1/etc" "$HOSTS/$1/run" "$HOSTS/$1/nss" "$HOSTS/$1/log" &&
		_tb root netns add "$1" && _tb "$1" link set lo up
}

topo_link() {
	_tb root link add "${1#*:}" netns "${1%%:*}" type veth peer name "${2#*:}" netns "${2%%:*}" &&
		_tb "${1%%:*}" link set "${1#*:}" up && _tb "${2%%:*}" link set "${2#*:}" up
}

topo_addr() {
	case $3 in
	*:*) _tb "$1" addr add "$3" dev "$2" nodad && _af=6 ;;
	*) _tb "$1" addr add "$3" dev "$2" && _af=4 ;;
	esac || return
	[ -e "$HOSTS/$1/addr$_af" ] || echo "${3%/*}" >"$HOSTS/$1/addr$_af"
}

topo_route() { _h=$1; shift; _tb "$_h" route add "$@"; }

# Commands that are not ip's run in the host's namespace, after the batches.
topo_forward() {
	_tb "$1.sh" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
}

# UML 6.1 has no nft nat chain type (no nft_chain_nat): use legacy iptables,
# and nftables where legacy iptables is gone.
topo_masquerade() {
	[ "${3:-yes}" = no ] && return 0
	modprobe -q -a iptable_nat xt_MASQUERADE nf_tables nft_chain_nat nft_masq
	printf '%s\n' 'table ip nat {' '  chain post {' \
		'    type nat hook postrouting priority srcnat;' \
		"    oifname \"$2\" masquerade" '  }' '}' >"$_TB/$1.nft"
	_tb "$1.sh" "iptables-legacy -t nat -A POSTROUTING -o $2 -j MASQUERADE 2>/dev/null ||" \
		"nft -f $_TB/$1.nft 2>/dev/null || touch $HOSTS/$1/no-nat"
}

topo_seen() {
	[ "${3:-yes}" = no ] && return 0
	case $2 in *:*) echo "$2" >"$HOSTS/$1/seen6" ;; *) echo "$2" >"$HOSTS/$1/seen4" ;; esac
}

topo_pairs() {
	_i=1
	: >"$HOSTS/$1/pairs"
	while [ "$_i" -le "$7" ]; do
		_tb "$1" addr add "$3.$_i/32" dev "$2"
		_tb "$4" addr add "$6.$_i/32" dev "$5"
		echo "$3.$_i $6.$_i" >>"$HOSTS/$1/pairs"
		echo "$6.$_i $3.$_i" >>"$HOSTS/$4/pairs"
		_i=$((_i + 1))
	done
	_tb "$1" route add "$6.0/24" dev "$2" src "$3.1"
	_tb "$4" route add "$3.0/24" dev "$5" src "$6.1"
}

# addr_of HOST [4|6]: HOST's own address.
addr_of() { cat "$HOSTS/$1/addr${2:-4}"; }

# seen_addr HOST [4|6]: where the other hosts reach HOST (differs behind NAT).
seen_addr() { cat "$HOSTS/$1/seen${2:-4}" 2>/dev/null || addr_of "$1" "${2:-4}"; }

# pair_addrs HOST I: "local remote" of HOST's I-th address pair.
pair_addrs() { sed -n "${2}p" "$HOSTS/$1/pairs"; }
