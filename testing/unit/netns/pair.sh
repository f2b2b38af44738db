#!/bin/sh
# shellcheck disable=SC2015 # "a && b || fail" is meant: fail exits
# Two ikebanad, west 192.0.2.1 and east 192.0.2.2, each in a network
# namespace this test creates (veth between them), with kernel-mem as the
# kernel backend and a PSK. `ikebana up` on west must give both daemons an
# established IKE SA and Child SA with mirrored SPIs and the same keys;
# `ikebana down` must remove them. Every wait polls with a deadline.
# Namespaces and daemons are removed by name and PID, also on failure.
set -u
IKEBANAD=${IKEBANAD:?set by meson} IKEBANA=${IKEBANA:?set by meson}
IKB_SRC=${IKB_SRC:?set by meson}

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces)"
command -v ip >/dev/null || skip "needs iproute2 (ip)"
command -v jq >/dev/null || skip "needs jq (to read status --json)"

tag=ikbt$$
W=$tag-w E=$tag-e
dir=$(mktemp -d "${TMPDIR:-/tmp}/ikebana-netns.XXXXXX")
pids=''
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	ip netns del "$W" 2>/dev/null
	ip netns del "$E" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() {
	echo "FAIL: $*"
	for h in west east; do
		echo "--- $h: ikebanad log"
		tail -n 40 "$dir/$h/log"
		echo "--- $h: status"
		ikb "$h" status 2>&1
	done
	exit 1
}
ns() { [ "$1" = west ] && echo "$W" || echo "$E"; }
ikb() {
	_h=$1
	shift
	ip netns exec "$(ns "$_h")" "$IKEBANA" --rundir "$dir/$_h/run" "$@"
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# wait_until SECONDS WHAT CMD...: polls CMD every 0.1 s until it succeeds.
wait_until() {
	_end=$(($(now_ms) + $1 * 1000)) _what=$2
	shift 2
	until "$@" >/dev/null 2>&1; do
		[ "$(now_ms)" -lt "$_end" ] || fail "timed out waiting for $_what"
		sleep 0.1
	done
}
# json HOST KEY: KEY of HOST's first IKE SA (state, role, spi_i, spi_r), of
# its first Child SA (spi_in, spi_out), or of every installed key (spi,
# alg), from status --json --private.
json() {
	case $2 in
	spi_in | spi_out) _f=".ike_sas[0].child_sas[0].$2" ;;
	spi | alg) _f=".private_keys[].$2" ;;
	*) _f=".ike_sas[0].$2" ;;
	esac
	ikb "$1" status --json --private | jq -r "$_f // empty"
}
# key_of HOST SPI: the KEYMAT HOST's kernel backend holds for SPI.
key_of() {
	ikb "$1" status --json --private |
		jq -r --arg s "$2" '.private_keys[] | select(.spi == $s) | .key'
}

ip netns add "$W" || skip "cannot create a network namespace"
ip netns add "$E" || fail "cannot create namespace $E"
ip link add eth0 netns "$W" type veth peer name eth0 netns "$E" ||
	fail "cannot create the veth pair"
ip -n "$W" addr add 192.0.2.1/24 dev eth0
ip -n "$E" addr add 192.0.2.2/24 dev eth0
for n in "$W" "$E"; do
	ip -n "$n" link set lo up
	ip -n "$n" link set eth0 up
done

# write_conf HOST CONN AUTO (<<- strips tabs: the body is indented with
# spaces)
write_conf() {
	cat >"$dir/$1/ikebana.conf" <<-CONF
	config setup
	    plugins="esp-proposals replay-window kernel-mem"

	conn $2
	    left=192.0.2.1
	    right=192.0.2.2
	    authby=secret
	    type=transport
	    ike=aes_gcm256-sha2_256;dh19
	    esp=aes_gcm128
	    auto=$3
	CONF
}
for h in west east; do
	mkdir -p "$dir/$h"
	write_conf "$h" west-east add
	echo '192.0.2.1 192.0.2.2 : PSK "netns-test-only"' >"$dir/$h/ikebana.secrets"
	chmod 600 "$dir/$h/ikebana.secrets"
	ip netns exec "$(ns $h)" "$IKEBANAD" --nofork --debug --debug-private \
		--config "$dir/$h/ikebana.conf" --rundir "$dir/$h/run" \
		>"$dir/$h/log" 2>&1 &
	pids="$pids $!"
done
for h in west east; do
	wait_until 10 "ikebanad on $h to answer" ikb "$h" status
done

t0=$(now_ms)
out=$(ikb west up west-east 2>&1) || fail "ikebana up: $out"
established() {
	[ "$(json "$1" state)" = established ] && [ -n "$(json "$1" spi_in)" ]
}
wait_until 10 "the IKE SA and Child SA on west" established west
wait_until 10 "the IKE SA and Child SA on east" established east
echo "ok: established on both in $(($(now_ms) - t0)) ms"

[ "$(json west role)" = initiator ] || fail "west is not the initiator"
[ "$(json east role)" = responder ] || fail "east is not the responder"
for k in spi_i spi_r; do
	[ "$(json west $k)" = "$(json east $k)" ] || fail "IKE $k differs"
done
[ "$(json west spi_in)" = "$(json east spi_out)" ] &&
	[ "$(json west spi_out)" = "$(json east spi_in)" ] ||
	fail "Child SA SPIs are not mirrored: west in $(json west spi_in) out $(json west spi_out), east in $(json east spi_in) out $(json east spi_out)"
# The key each side installed for one SPI must be the same on both.
for spi in $(json west spi); do
	kw=$(key_of west "$spi")
	ke=$(key_of east "$spi")
	[ -n "$kw" ] && [ "$kw" = "$ke" ] || fail "KEYMAT for SPI $spi differs: west $kw east $ke"
done
echo "ok: mirrored SPIs, equal KEYMAT ($(json west alg | head -n 1))"

out=$(ikb west up west-east 2>&1) && fail "a second up succeeded: $out"
echo "$out" | grep -q "already has an IKE SA" || fail "second up: $out"
out=$(ikb west up no-such-conn 2>&1) && fail "up of an unknown conn succeeded"
echo "$out" | grep -q "no conn named 'no-such-conn'" || fail "unknown conn: $out"
echo "ok: up refuses an established and an unknown conn"

# ike.h documents ike_engine_down() as "locally only" until the engine
# sends Delete in an INFORMATIONAL exchange; from then on east must follow.
has_delete() { ! grep -qs 'locally only' "$IKB_SRC/daemon/ike/ike.h"; }
gone() { [ -z "$(json "$1" state)" ] && [ -z "$(json "$1" spi)" ]; }

# A reload that changes nothing keeps the SAs, in the kernel backend too
# (the running plugin instances stay).
out=$(ikb west reload 2>&1) || fail "reload: $out"
[ "$(json west state)" = established ] && [ "$(json west spi | wc -l)" = 2 ] ||
	fail "after a reload: state '$(json west state)', kernel SAs: $(json west spi | tr '\n' ' ')"
echo "ok: a reload keeps the IKE SA and the kernel backend's Child SAs"

# A reload that drops the conn takes its SAs down.
write_conf west west-east-renamed add
out=$(ikb west reload 2>&1) || fail "reload: $out"
wait_until 10 "the reload to take down the removed conn on west" gone west
echo "ok: a reload that removes a conn takes its IKE SA down"

# A reload that adds an auto=start conn brings it up. Without Delete, east
# still holds the first Child SA, so it refuses a second one with the same
# selectors: only the IKE SA is required then.
write_conf west west-east start
out=$(ikb west reload 2>&1) || fail "reload: $out"
ike_up() { [ "$(json west state)" = established ]; }
wait_until 10 "auto=start after the reload to establish an IKE SA" ike_up
if has_delete; then
	wait_until 10 "the Child SA after the reload" established west
fi
echo "ok: a reload that adds an auto=start conn initiates it"

out=$(ikb west down west-east 2>&1) || fail "ikebana down: $out"
wait_until 10 "the SAs to leave west" gone west
if has_delete; then
	wait_until 10 "the SAs to leave east (Delete)" gone east
	echo "ok: down removed the SAs on both"
else
	echo "ok: down removed the SAs on west (the engine sends no Delete yet: east keeps its SAs)"
fi
# SIGTERM with SAs still up (east's, without Delete) must exit 0: the engine
# removes its Child SAs and frees everything (the sanitizers check that).
for p in $pids; do
	kill -TERM "$p"
	wait "$p" || fail "ikebanad (pid $p) exited $? after SIGTERM"
done
pids=''
echo "ok: both daemons exit 0 on SIGTERM"
echo "PASS"
