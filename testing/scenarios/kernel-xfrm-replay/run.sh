#!/bin/sh
# The replay layout of kernel-xfrm without ESN (issue 6): every inbound SA
# with a window carries it in XFRMA_REPLAY_ESN_VAL with ceil(window / 32)
# bitmap words, 32 included, and the legacy u8 field at 0; window 0 has no
# replay state; outbound SAs get window 0. Each window is read back from
# `ip xfrm state`, passes a ping, and its replay counters stay at 0.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
# shellcheck source=/dev/null
. "$IKB_UML/lib/scenario/kernel-xfrm.sh"
topology west-east
a=$(addr_of west) b=$(addr_of east)
transport_policies west east
key=$(hexkey 20)

# window_case N SPI_IN SPI_OUT: SAs with window N between west and east
# (east's inbound SPI_IN), east's inbound SA read back, ping, removal.
window_case() {
	_w=$1 _si=$2 _so=$3
	sa_pair west east "$_si" "$_so" transport --aead 'rfc4106(gcm(aes))' --key "$key" --icv 128 --window "$_w"
	expect_sa east count=1 dir=in replay="$_w" esn=0
	expect_sa west count=1 dir=out replay=0 esn=0
	_st=$(ip -n east xfrm state get src "$a" dst "$b" proto esp spi "$_si")
	echo "$_st"
	echo "$_st" | grep -q 'flag.* esn' && fail "window $_w: the SA has the ESN flag"
	# The legacy field (line 3, "replay-window N") stays 0 in every case.
	echo "$_st" | grep -Eq '^[[:space:]]+replay-window 0 ' ||
		fail "window $_w: the legacy replay-window field is not 0"
	if [ "$_w" = 0 ]; then
		echo "$_st" | grep -q 'esn context' && fail "window 0 got a replay context"
	else
		_bmp=$(((_w + 31) / 32))
		echo "$_st" | grep -q "replay_window $_w, bitmap-length $_bmp\$" ||
			fail "window $_w: no 'replay_window $_w, bitmap-length $_bmp' in the SA's replay context"
	fi
	# west's outbound SA: window 0, no replay context
	ip -n west xfrm state get src "$a" dst "$b" proto esp spi "$_si" | grep -q 'esn context' &&
		fail "window $_w: west's outbound SA has a replay context"
	expect_esp_grows west ping_ok west east
	_r=$(sa_replay east "$_si")
	case " $_r " in
	*" window=$_w "*" replay=0 outside=0 failed=0 "*) ;;
	*) fail "window $_w: east's inbound SA after the ping: $_r" ;;
	esac
	log "ok: window $_w: $_r"
	for _h in west east; do
		xc "$_h" sa-del --dst "$b" --spi "$_si"
		xc "$_h" sa-del --dst "$a" --spi "$_so"
	done
	expect_no_sa west
	expect_no_sa east
}

window_case 0 0x3001 0x3002
window_case 32 0x3201 0x3202
window_case 33 0x3301 0x3302
pass
