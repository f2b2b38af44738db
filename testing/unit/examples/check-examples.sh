#!/bin/sh
# Every shipped configuration must pass `ikebana checkconfig` with no error
# and no warning: an example that draws a warning teaches the wrong thing.
# usage: check-examples.sh IKEBANA SOURCE_ROOT
set -u
ikebana=$1
root=$2
status=0
# examples/*/ holds topical sets (tuning/, ...).
for f in "$root"/conf.d/ikebana.conf "$root"/conf.d/examples/*.conf \
	"$root"/conf.d/examples/*/*.conf; do
	[ -e "$f" ] || continue
	out=$("$ikebana" checkconfig "$f" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 0 ] || [ -n "$out" ]; then
		echo "FAIL: $f (exit $rc)"
		echo "$out"
		status=1
	else
		echo "ok: $f"
	fi
done
# The example secrets parse (mode 0600, as the daemon demands).
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
cp "$root/conf.d/examples/ikebana.secrets" "$tmp" && chmod 600 "$tmp"
if "$ikebana" checkconfig --secrets "$tmp" "$root/conf.d/examples/host-to-host.conf" >/dev/null; then
	echo "ok: examples/ikebana.secrets"
else
	echo "FAIL: examples/ikebana.secrets"
	status=1
fi
exit $status
