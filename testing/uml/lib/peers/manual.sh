# Hand-set ESP SAs, no IKE: what shared/uml-esp-smoke.sh does. Proves the
# kernel, the topology and the wire checks before any daemon is involved.
# shellcheck shell=sh disable=SC2015
# (p_* are set by peer() in peer.sh; "a && b || fail" is meant: fail exits)

# manual_sa A B [REPLAY]: transport-mode AES-GCM-128 SAs and policies between
# A and B (ESN, replay window REPLAY, default 2048).
manual_sa() {
	_ma=$1 _mb=$2 _mr=${3:-2048}
	_a=$(addr_of "$_ma") _b=$(addr_of "$_mb")
	_k=0x$(head -c 20 /dev/urandom | od -An -tx1 | tr -d ' \n')
	for _n in "$_ma" "$_mb"; do
		_manual_state "$_n" "$_a" "$_b" 0x1001 "$_k" "$_mr" &&
			_manual_state "$_n" "$_b" "$_a" 0x1002 "$_k" "$_mr" ||
			fail "ip xfrm state add on $_n"
	done
	ip -n "$_ma" xfrm policy add src "$_a" dst "$_b" dir out tmpl proto esp reqid 1 mode transport &&
		ip -n "$_mb" xfrm policy add src "$_b" dst "$_a" dir out tmpl proto esp reqid 1 mode transport ||
		fail "ip xfrm policy add"
	log "manual SAs between $_ma ($_a) and $_mb ($_b), replay window $_mr"
}

# A window over 32 needs the ESN replay state (`flag esn`): the legacy u8
# field would wrap (see shared/uml-esp-smoke.sh).
_manual_state() {
	ip -n "$1" xfrm state add src "$2" dst "$3" proto esp spi "$4" reqid 1 \
		mode transport aead 'rfc4106(gcm(aes))' "$5" 128 replay-window "$6" flag esn
}
