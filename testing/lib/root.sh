# shellcheck shell=bash
# A clean Debian 12 root, as a new machine has it: debootstrap's minbase,
# built once and kept as a tarball in the cache (IKB_CACHE), unpacked afresh
# for each use. Sourced by testing/fresh and testing/systemd/run; needs
# testing/lib/deps.sh (ikb_apt_install).
IKB_CACHE=${IKB_CACHE:-/var/cache/ikebana-testing}
IKB_ROOT_SUITE=bookworm

# ikb_root_mirror: the Debian archive this machine's apt uses for the suite
# (deb822 sources first, then one-line ones), so that the root is built
# from the same registry the machine reaches.
ikb_root_mirror()
{
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk -v s="$IKB_ROOT_SUITE" '
			/^[ \t]*$/ { if (u && ok) { print u; exit } u = ""; ok = 0 }
			tolower($1) == "uris:" { u = $2 }
			tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == s) ok = 1 }
			END { if (u && ok) print u }' "$f"
	done | head -n 1 | grep . && return 0
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk -v s="$IKB_ROOT_SUITE" '$1 == "deb" {
			for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i ~ /:\/\//) { u = $i; break }
			if (u && $(i + 1) == s) { print u; exit } }' | grep .
}

# ikb_root_tarball: prints the cached tarball of the bare root, building it
# first when it is missing (a few minutes: debootstrap downloads ~40 MB).
ikb_root_tarball()
{
	local arch tb dir mirror
	arch=$(dpkg --print-architecture)
	tb=$IKB_CACHE/fresh/debian-$IKB_ROOT_SUITE-$arch-minbase.tar.gz
	[ -s "$tb" ] && { echo "$tb"; return 0; }
	ikb_apt_install debootstrap >&2 || return 1
	mirror=$(ikb_root_mirror) || {
		echo "root: no apt source for $IKB_ROOT_SUITE on this machine" >&2
		return 1
	}
	mkdir -p "${tb%/*}"
	dir=$(mktemp -d /var/tmp/ikebana-debootstrap.XXXXXX)
	echo "root: debootstrap --variant=minbase $IKB_ROOT_SUITE (once; cached as $tb)" >&2
	if ! debootstrap --variant=minbase "$IKB_ROOT_SUITE" "$dir" "$mirror" \
		>"$dir.log" 2>&1; then
		tail -n 20 "$dir.log" >&2
		rm -rf "$dir"
		return 1
	fi
	tar --numeric-owner -C "$dir" -czf "$tb.tmp" . && mv "$tb.tmp" "$tb"
	rm -rf "$dir" "$dir.log"
	[ -s "$tb" ] && echo "$tb"
}

# ikb_root_unpack DIR: a new root in DIR from the cached tarball, with this
# machine's apt sources and its own apt settings (the files in apt.conf.d
# that no package owns) and resolver, so that apt-get reaches the same
# registry. Nothing else of the host comes along.
ikb_root_unpack()
{
	local dir=$1 tb f
	tb=$(ikb_root_tarball) || return 1
	mkdir -p "$dir"
	tar --numeric-owner -C "$dir" -xzf "$tb" || return 1
	# mktemp's 0700 (kept in the tarball as ".") would shut every user
	# but root out of the whole tree, _apt included.
	chmod 755 "$dir"
	# debootstrap's own one-line source would name the archive twice.
	rm -f "$dir/etc/apt/sources.list"
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] && cp "$f" "$dir$f"
	done
	for f in /etc/apt/apt.conf.d/*; do
		[ -f "$f" ] && ! dpkg -S "$f" >/dev/null 2>&1 && cp "$f" "$dir$f"
	done
	cp -L /etc/resolv.conf "$dir/etc/resolv.conf"
}

# ikb_root_mount DIR: what UML, namespaces and apt need inside the root.
# DIR is first bound onto itself: on a machine / is a mount point, and
# `ip netns exec` fails ("mount --make-rslave /") where it is not.
ikb_root_mount()
{
	local dir=$1
	mount --bind "$dir" "$dir" &&
		mount -t proc proc "$dir/proc" &&
		mount --rbind /sys "$dir/sys" && mount --make-rslave "$dir/sys" &&
		mount --rbind /dev "$dir/dev" && mount --make-rslave "$dir/dev" &&
		mount -t tmpfs run "$dir/run" &&
		mount -t tmpfs -o mode=1777 tmp "$dir/tmp"
}

# ikb_root_umount DIR: every mount ikb_root_mount made (and any below them).
ikb_root_umount()
{
	mountpoint -q "$1" && umount -R -l "$1"
	return 0
}

# ikb_root_pids DIR: the processes whose root is DIR (ours: we started
# everything in there).
ikb_root_pids()
{
	local p r dir
	dir=$(readlink -f "$1")
	for p in /proc/[0-9]*; do
		r=$(readlink "$p/root" 2>/dev/null) || continue
		[ "$r" = "$dir" ] && echo "${p#/proc/}"
	done
}

# ikb_root_release DIR: stops what still runs in the root, unmounts it and
# removes it.
ikb_root_release()
{
	local dir=$1 pids
	[ -d "$dir" ] || return 0
	pids=$(ikb_root_pids "$dir")
	# shellcheck disable=SC2086 # a list of pids
	[ -z "$pids" ] || kill -KILL $pids 2>/dev/null
	ikb_root_umount "$dir"
	rm -rf --one-file-system "$dir"
}

# ikb_root_run DIR CMD...: CMD as root inside the root, with the clean
# environment a root login has.
ikb_root_run()
{
	local dir=$1
	shift
	chroot "$dir" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		${CI:+CI="$CI"} "$@"
}
