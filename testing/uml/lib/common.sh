# Paths, logging and small wrappers shared by every helper (inside UML).
# shellcheck shell=sh
: "${IKB_UML:?}" "${RESULTS:=/srv/results}" "${HOSTS:=/srv/hosts}"
IKB_REPO=$(cd "$IKB_UML/../.." && pwd)
IKB_BUILD=${IKB_BUILD:-$IKB_REPO/build}
IKB_CACHE=${IKB_CACHE:-/var/cache/ikebana-testing}
SCENARIO_DIR=$(cd "$(dirname "${IKB_SCRIPT:-.}")" && pwd)
export IKB_UML IKB_REPO IKB_BUILD IKB_CACHE RESULTS HOSTS SCENARIO_DIR

# Seconds since boot, 10 ms resolution (HZ=100).
now() { read -r _u _ </proc/uptime && echo "$_u"; }

# Centiseconds since boot, without a process (each one costs ~0.1 s in UML).
now_cs() {
	read -r _u _ </proc/uptime
	_f=${_u#*.}
	echo $(( ${_u%.*} * 100 + ${_f#0} ))
}

log() { printf '[%7s] %s\n' "$(now)" "$*"; }

# t SECONDS CMD...: every step gets a timeout (a hung step must not hold the
# boot until the outer timeout).
t() { timeout -k 2 "$@"; }

# ns HOST CMD...: run in HOST's namespace, with a 30 s default timeout.
# (No variable of its own: sh has no locals, and a global here overwrote
# the _h that expect_esp_grows keeps across the command it runs.)
ns() { timeout -k 2 30 ip netns exec "$@"; }

# ipt HOST ARGS...: iptables on HOST, legacy where the kernel has its tables
# (UML 6.1 has no nft nat chain type), else the nft back end (UML 7.2 has
# no ip_tables). The modules are loaded once, for every namespace.
ipt() {
	if [ -z "${_IPT:-}" ]; then
		modprobe -q -a ip_tables iptable_filter iptable_nat 2>/dev/null
		_IPT=iptables-legacy
		iptables-legacy -t nat -L -n >/dev/null 2>&1 || {
			modprobe -q -a nf_tables nft_compat nft_masq nf_nat \
				xt_MASQUERADE 2>/dev/null
			_IPT=iptables-nft
		}
	fi
	_h=$1
	shift
	ns "$_h" "$_IPT" "$@"
}

hdir() { echo "$HOSTS/$1"; }

hosts() { for _d in "$HOSTS"/*/; do [ -d "$_d" ] && basename "$_d"; done; }

# fail MSG: print it, dump every host, end the scenario with status 1.
fail() {
	log "FAIL: $*"
	dump_all
	exit 1
}

pass() {
	log "PASS"
	exit 0
}

# need_nat HOST: skip the scenario when HOST's kernel can do no NAT
# (Debian's UML 7.2 has neither iptables-legacy's nat table nor nftables'
# nat chain type); topology's masquerade, or ipt on HOST, finds out.
need_nat() {
	[ -e "$HOSTS/$1/no-nat" ] ||
		{ ipt "$1" -t nat -A POSTROUTING -o lo -j RETURN &&
			ipt "$1" -t nat -D POSTROUTING -o lo -j RETURN; } >/dev/null 2>&1 ||
		touch "$HOSTS/$1/no-nat"
	[ -e "$HOSTS/$1/no-nat" ] || return 0
	skip "UML $(uname -r) can do no NAT on $1 (no iptable_nat, no nft_chain_nat)"
}

# skip REASON: the runner prints "ok N - NAME # SKIP REASON".
skip() {
	log "SKIP: $*"
	printf '%s\n' "$*" >"$RESULTS/skip"
	exit 0
}
