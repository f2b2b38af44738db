# shellcheck shell=sh
# unstable_apt DIR apt-get|apt-cache ARGS...: runs it on Debian unstable's
# main through a private sources list, lists and cache under DIR/apt, so
# that the system's apt configuration is never touched. For uml/kernel-7.2
# and uml/kernel-smp (sourced).
unstable_apt() {
	_ua=$1/apt _uc=$2
	shift 2
	mkdir -p "$_ua/lists/partial" "$_ua/cache/archives/partial" "$_ua/parts"
	[ -s "$_ua/sources.list" ] ||
		echo 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian unstable main' \
			>"$_ua/sources.list"
	"$_uc" -o Dir::Etc::SourceList="$_ua/sources.list" \
		-o Dir::Etc::SourceParts="$_ua/parts" -o Dir::State::Lists="$_ua/lists" \
		-o Dir::Cache="$_ua/cache" -o APT::Sandbox::User=root -qq "$@"
}
