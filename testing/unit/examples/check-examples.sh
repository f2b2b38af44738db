#!/bin/sh
# Every shipped configuration must pass `ikebana checkconfig` with no error
# and no warning: an example that draws a warning teaches the wrong thing.
# usage: check-examples.sh IKEBANA SOURCE_ROOT
set -u
ikebana=$1
root=$2
status=0
pki=$(mktemp -d) || exit 1
trap 'rm -rf "$pki" "${tmp:-}"' EXIT

# certs_db EXAMPLE: runs the example's own "make a test PKI" commands (the
# indented lines of its comment from "Make a test PKI" to the listcerts
# line: west's part) in $pki, with this build's
# ikebana and an NSS database of its own, so that checkconfig finds the
# certificate it names and the documented commands are known to work.
# Fails without openssl: the caller skips then.
certs_db() {
	command -v openssl >/dev/null || return 2
	sed -n '/Make a test PKI/,/ikebana listcerts/s/^#     //p' "$1" |
		sed "s|^ikebana |\"$ikebana\" --nssdir \"$pki/nss\" |; s|^ikebana|&|" |
		awk '{ sub(/ +# .*/, ""); print }' >"$pki/make.sh"
	# --nssdir is the subcommand's option: after the command word
	sed -i "s|\"$ikebana\" --nssdir \"$pki/nss\" \([a-z]*\)|\"$ikebana\" \1 --nssdir \"$pki/nss\"|" "$pki/make.sh"
	(cd "$pki" && sh -e ./make.sh >"$pki/make.log" 2>&1) ||
		{ echo "the example's PKI commands failed:"; cat "$pki/make.sh" "$pki/make.log"; return 1; }
}

# examples/*/ holds topical sets (tuning/, ...).
for f in "$root"/conf.d/ikebana.conf "$root"/conf.d/examples/*.conf \
	"$root"/conf.d/examples/*/*.conf; do
	[ -e "$f" ] || continue
	opts=''
	if grep -q '^[[:space:]]*leftcert=' "$f"; then
		certs_db "$f"
		case $? in
		0) opts="--nssdir $pki/nss" ;;
		2) echo "skip: $f (no openssl to make its test PKI)"; continue ;;
		*) echo "FAIL: $f"; status=1; continue ;;
		esac
	fi
	# An updown script named in /etc/ikebana/ is checked where it is
	# shipped, beside the example: it must be there and executable.
	g=$f
	if grep -q '^[[:space:]]*leftupdown=/etc/ikebana/' "$f"; then
		g=$pki/${f##*/}
		sed "s|^\([[:space:]]*leftupdown=\)/etc/ikebana/|\1$root/conf.d/examples/|" \
			"$f" >"$g"
	fi
	# shellcheck disable=SC2086 # opts is a list of words
	# notes (which end's key is here) are neither errors nor warnings
	out=$("$ikebana" checkconfig $opts "$g" 2>&1 >/dev/null)
	rc=$?
	out=$(printf '%s\n' "$out" | grep -v ': note: ')
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
cp "$root/conf.d/examples/ikebana.secrets" "$tmp" && chmod 600 "$tmp"
if "$ikebana" checkconfig --secrets "$tmp" "$root/conf.d/examples/host-to-host.conf" >/dev/null; then
	echo "ok: examples/ikebana.secrets"
else
	echo "FAIL: examples/ikebana.secrets"
	status=1
fi
exit $status
