# SA packet limits (ipsec-max-packets=) against a peer, for the
# ikebana-* scenarios (sourced after lib/all.sh and scenario/ikebana.sh).
# shellcheck shell=sh disable=SC2154,SC2015,SC2034
# (p_* and the helpers come from lib/all.sh, IKB_KERNEL is read by
# ikebana.sh's _ikb_conf; "a && b || fail" is meant)

LIM_PACKETS=400

# _lim_spis HOST: the SPIs of HOST's SAD, sorted, on one line.
_lim_spis() {
	ip -n "$1" xfrm state | sed -n 's/.* spi \(0x[0-9a-f]*\) .*/\1/p' | sort | tr '\n' ' '
}

# _lim_new HOST OLD: two SAs in HOST's kernel, none of them in OLD.
_lim_new() {
	_now=$(_lim_spis "$1")
	[ "$(sa_count "$1")" = 2 ] || return 1
	for _s in $_now; do
		case " $2 " in *" $_s "*) return 1 ;; esac
	done
}

# _lim_rekeyed WHO: west pings east past the soft limit; new SAs replace the
# old ones in both kernels (WHO rekeyed), and ESP flows through them.
_lim_rekeyed() {
	_w0=$(_lim_spis west) _e0=$(_lim_spis east)
	_dst=$(_dst east 4)
	ns west ping -n -q -c 150 -i 0.01 -W 2 "$_dst" >/dev/null 2>&1
	wait_for 20 "west: the SAs at the packet limit replaced ($1 rekeyed)" _lim_new west "$_w0"
	wait_for 20 "east: the SAs at the packet limit replaced" _lim_new east "$_e0"
	ping_ok west east
	log "ok: $1 rekeyed at the packet limit: west $_w0-> $(_lim_spis west)"
}

# ikb_limits_case PEER: on kernel-xfrm, ikebana initiates with
# ipsec-max-packets=400: west's SAs carry that hard limit and a soft one
# of about a quarter, and ikebana rekeys at its soft EXPIRE while west
# pings east. Then PEER initiates with the limit (strongSwan:
# life_packets, rekey_packets) and ikebana, without one, answers its
# rekey. Each time new SAs replace the old in both kernels. pfs=no: the
# peer's generated conf has no key exchange in its ESP proposals.
ikb_limits_case() {
	_peer=$1 IKB_KERNEL=kernel-xfrm
	log "=== case: packet limits, ikebana (west) <-> $_peer (east)"
	_ikb_conf west
	peer "$_peer" east west responder psk ike="$IKB_IKE" esp="$IKB_ESP"
	PEER_CONN_EXTRA='\tpfs=no'
	peer ikebana west east initiator psk ike="$IKB_IKE" esp="$IKB_ESP" packets="$LIM_PACKETS"
	wait_for 20 "ikebana on west: IKE SA and Child SA established" _ikb_established west
	wait_for 20 "$_peer on east: established" _peer_established "$_peer" east east-west
	_n=$(ip -n west -s xfrm state | grep -cE "hard \(?$LIM_PACKETS\)?\(packets\)")
	[ "$_n" = 2 ] || fail "west's SAs: $_n of 2 with the hard limit of $LIM_PACKETS packets"
	_lim_rekeyed ikebana
	grep -q 'soft EXPIRE' "$HOSTS/west/log/ikebanad.log" ||
		fail "ikebana on west logged no soft EXPIRE: the rekey was not the limit's"
	ikb_reset
	_ikb_conf west
	peer ikebana west east responder psk ike="$IKB_IKE" esp="$IKB_ESP"
	PEER_CONN_EXTRA=
	peer "$_peer" east west initiator psk ike="$IKB_IKE" esp="$IKB_ESP" packets="$LIM_PACKETS"
	wait_for 20 "ikebana on west: IKE SA and Child SA established" _ikb_established west
	wait_for 20 "$_peer on east: established" _peer_established "$_peer" east east-west
	_lim_rekeyed "$_peer"
}
