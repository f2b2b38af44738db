# Sourced by boot: picks the UML kernel. Sets UML_BIN and, for a kernel whose
# modules are not in /usr/lib/uml/modules, UML_MODDIR.
# UML_KERNEL unset or 6.1: Debian 12's user-mode-linux. 7.2: unstable's,
# unpacked by kernel-7.2 under the cache.
uml_kernel() {
	case ${UML_KERNEL:-} in
	'' | 6.1)
		UML_BIN=$(command -v linux.uml) || {
			echo "boot: linux.uml missing: run testing/uml/install-deps" >&2
			return 1
		}
		UML_MODDIR=
		;;
	7.2)
		_k=${IKB_CACHE:-/var/cache/ikebana-testing}/uml-7.2
		UML_BIN=$_k/linux
		UML_MODDIR=
		for _m in "$_k"/root/usr/lib/uml/modules/*; do
			[ -d "$_m" ] && UML_MODDIR=$_m
		done
		if [ ! -x "$UML_BIN" ] || [ -z "$UML_MODDIR" ]; then
			echo "boot: UML_KERNEL=7.2 not prepared: run UML_KERNEL=7.2 testing/uml/install-deps" >&2
			return 1
		fi
		;;
	*)
		echo "boot: UML_KERNEL=$UML_KERNEL: only 6.1 (default) and 7.2 are known" >&2
		return 1
		;;
	esac
}
