#!/bin/sh
# systemd-analyze verify ikebana.service, with ExecStart and ExecReload
# pointing at the built ikebanad and ikebana (verify checks that the
# binaries exist). Exit 77 = skipped.
set -eu
unit=$1
daemon=$2
cli=$3
if ! command -v systemd-analyze >/dev/null 2>&1; then
	echo "SKIP: systemd-analyze is not installed"
	exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sed -e "s|/usr/sbin/ikebanad|$daemon|" -e "s|/usr/sbin/ikebana |$cli |" "$unit" >"$dir/ikebana.service"
# verify loads the unit in a private manager; its complaints go to stderr.
out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no \
	"$dir/ikebana.service" 2>&1) || {
	echo "$out"
	exit 1
}
# Some problems are only warnings with a zero exit: treat the unit's own
# as failures too.
if printf '%s\n' "$out" | grep -F "ikebana.service" >/dev/null; then
	echo "$out"
	exit 1
fi
echo "ikebana.service verified"
