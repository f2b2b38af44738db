# shellcheck shell=sh
# Installing Debian packages: one way for testing/lib/deps.sh (bash, for
# check, demo, the package and the fresh root) and testing/uml/install-deps
# (sh, for the harness).

# ikb_apt_missing PKG...: prints those of PKG... that are not installed
# (one dpkg-query call).
ikb_apt_missing() {
	dpkg-query -W -f '${Package} ${Status}\n' "$@" 2>/dev/null |
		awk -v want="$*" '$NF == "installed" { ok[$1] = 1 }
		     END { n = split(want, w, " ")
			   for (i = 1; i <= n; i++) if (!(w[i] in ok)) printf "%s ", w[i] }'
}

# ikb_apt_install PKG...: installs whatever of PKG... is missing, quietly,
# and does nothing (but one dpkg-query) when all are there. The lists are
# updated first: a new machine's may be missing or stale (debootstrap's know
# the point release, not its security updates), and an install from stale
# lists gets old versions, or fails on files the mirror no longer has. Says
# what it installs on stderr, so that callers keep their stdout.
ikb_apt_install() {
	_ikb_need=$(ikb_apt_missing "$@")
	[ -n "$_ikb_need" ] || return 0
	echo "installing: $_ikb_need" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null &&
		# shellcheck disable=SC2086 # a list of package names
		apt-get install -y -qq --no-install-recommends $_ikb_need >/dev/null
}
