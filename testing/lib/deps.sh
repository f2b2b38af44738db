# shellcheck shell=bash
# The Debian packages that building ikebana and running its unit tests need
# (listed in testing/lib/build-packages). Sourced by testing/check. UML, the
# peers and the harness tools are installed by testing/uml/install-deps.
mapfile -t IKB_BUILD_PACKAGES < <(grep -v '^#' "$(dirname "${BASH_SOURCE[0]}")/build-packages")

# Install whatever of "$@" is missing, quietly; do nothing if all are there.
ikb_apt_install()
{
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null &&
		apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Configure (once) and build one build directory.
ikb_build()
{
	local dir=$1
	shift
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || {
			cat "$dir.setup.log"
			return 1
		}
	fi
	ninja -C "$dir" >"$dir.build.log" 2>&1 || {
		tail -n 60 "$dir.build.log"
		return 1
	}
}
