# shellcheck shell=sh
# ikb_unpack_deb PKG CACHE DEST PROBE: Debian's PKG unpacked into DEST (not
# installed), at apt's candidate version, for a tool the tests need but
# the system should not get: libreswan (it conflicts with strongSwan,
# BASELINES pitfall 1), promtool (its package is a Prometheus server that
# systemd would start on port 9090). PROBE, a file under DEST, must be
# executable afterwards. Does nothing when DEST already holds that
# version, or apt offers none; then and on success returns 0. A new one
# stays in DEST.new for the caller to check before ikb_unpack_deb_commit.
ikb_unpack_deb() {
	_up=$1 _uc=$2 _ud=$3 _upr=$4
	_uw=$(apt-cache policy "$_up" 2>/dev/null | awk '/Candidate:/{print $2}')
	_uh=$(cat "$_ud/.version" 2>/dev/null || true)
	if [ -x "$_ud/$_upr" ] && { [ -z "$_uw" ] || [ "$_uw" = "$_uh" ]; }; then
		return 0
	fi
	mkdir -p "$_uc/debs"
	# apt drops privileges to _apt for downloads; let it write here.
	chown _apt "$_uc/debs" 2>/dev/null || true
	echo "unpack: apt-get download $_up ($_uw)" >&2
	(cd "$_uc/debs" && rm -f "${_up}"_*.deb && apt-get download -qq "$_up" >/dev/null) ||
		return 1
	rm -rf "$_ud.new"
	dpkg-deb -x "$_uc"/debs/"${_up}"_*.deb "$_ud.new" || return 1
	printf '%s\n' "$_uw" >"$_ud.new/.version"
	[ -x "$_ud.new/$_upr" ] || { echo "unpack: $_up has no $_upr" >&2; return 1; }
	ikb_unpack_pending=$_ud
}

# ikb_unpack_deb_commit: DEST.new becomes DEST (after the caller's checks).
ikb_unpack_deb_commit() {
	[ -n "${ikb_unpack_pending:-}" ] || return 0
	rm -rf "$ikb_unpack_pending"
	mv "$ikb_unpack_pending.new" "$ikb_unpack_pending"
	ikb_unpack_pending=
}
