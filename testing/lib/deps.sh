# shellcheck shell=bash
# The Debian packages that building ikebana and running its unit tests need
# (listed in testing/lib/build-packages). Sourced by testing/check. UML, the
# peers and the harness tools are installed by testing/uml/install-deps.
mapfile -t IKB_BUILD_PACKAGES < <(grep -v '^#' "$(dirname "${BASH_SOURCE[0]}")/build-packages")

# shellcheck source=testing/lib/apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/apt.sh"

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
