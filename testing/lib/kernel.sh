# shellcheck shell=sh
# Sourced by testing/uml/boot (and install-deps, run-scenarios, the benches
# and systemd/run, which ask the same): picks the UML kernel. Sets UML_BIN
# and, for a kernel whose modules are not in /usr/lib/uml/modules, UML_MODDIR.
# UML_KERNEL unset or 6.1: Debian 12's user-mode-linux. 7.2: unstable's,
# unpacked by uml/kernel-7.2 under the cache. smp: 7.2 with SMP, built by
# uml/kernel-smp (sets UML_NCPUS, 2 unless given). Unset on a host where 6.1
# cannot run a process (uml61_runs): 7.2.

# uml61_runs: whether Debian 12's UML 6.1 runs processes here. On hosts
# whose CPUs have AMX its XSAVE buffer is too small and every process, init
# first, dies of SIGSEGV (7.2 sizes it from the host). Probed once per host
# boot: init=/bin/true must end with exit code 0, which the panic names.
uml61_runs() {
	_c=/run/ikebana-uml61.$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
	[ -e "$_c.ok" ] && return 0
	[ -e "$_c.no" ] && return 1
	_b=$(command -v linux.uml) || return 0 # uml_kernel says it is missing
	if timeout -k 5 60 "$_b" mem=64M root=/dev/root rootfstype=hostfs \
		rootflags=/ ro init=/bin/true con=null con0=null,fd:1 </dev/null 2>&1 |
		grep -q 'exitcode=0x00000000'; then
		touch "$_c.ok" 2>/dev/null
		return 0
	fi
	touch "$_c.no" 2>/dev/null
	return 1
}

uml_kernel() {
	_want=${UML_KERNEL:-}
	if [ -z "$_want" ] && ! uml61_runs; then
		echo "boot: UML 6.1 cannot run a process on this host (its init dies of SIGSEGV: the CPUs' XSAVE state, with AMX, is larger than it handles): booting 7.2" >&2
		_want=7.2
	fi
	case $_want in
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
	smp)
		# kernel-smp's build: 2 vCPUs, one host thread each, as the
		# machines have 2 cores (issue 21)
		_k=${IKB_CACHE:-/var/cache/ikebana-testing}/uml-smp
		UML_BIN=$_k/linux
		UML_MODDIR=$_k/modules
		UML_NCPUS=${UML_NCPUS:-2}
		if [ ! -x "$UML_BIN" ] || [ ! -d "$UML_MODDIR" ]; then
			echo "boot: UML_KERNEL=smp not built: run testing/uml/kernel-smp once (30 to 60 minutes on 2 cores)" >&2
			return 1
		fi
		;;
	*)
		echo "boot: UML_KERNEL=$_want: only 6.1 (default), 7.2 and smp are known" >&2
		return 1
		;;
	esac
}
