# XFRM interfaces (ipsec-interface=) for the xfrmi-* scenarios, sourced
# after lib/all.sh. Debian's UML 6.1 is built without xfrm_interface:
# run-scenarios builds it on the host (uml/xfrmi-module) for a scenario
# whose `modules` file names it, and passes its path in IKB_XFRMI_KO.
# shellcheck shell=sh disable=SC2015
# ("a && b || fail" is meant: fail exits)

# xfrmi_module: loads xfrm_interface.ko after the modules it uses (the
# module records no dependencies); skips the scenario when there is none.
xfrmi_module() {
	[ -d /sys/module/xfrm_interface ] && return 0
	[ -n "${IKB_XFRMI_KO:-}" ] ||
		skip "no xfrm_interface module (IKB_XFRMI_KO unset: boot this scenario through testing/run-scenarios, which builds it)"
	t 30 modprobe -a ipv6 tunnel4 tunnel6 || fail "modprobe ipv6 tunnel4 tunnel6 failed"
	t 30 insmod "$IKB_XFRMI_KO" || fail "insmod $IKB_XFRMI_KO failed (see console.log)"
	log "xfrm_interface loaded from $IKB_XFRMI_KO"
}

# _xfrmi_is HOST DEV IFID: DEV on HOST is an XFRM interface of if_id IFID
# (hex, as ip prints it: 0x1) and up.
_xfrmi_is() {
	_l=$(ns "$1" ip -d link show dev "$2" 2>/dev/null) || return 1
	printf '%s\n' "$_l" | grep -q "xfrm if_id $3" &&
		printf '%s\n' "$_l" | grep -q '[<,]UP[,>]'
}

# xfrmi_expect HOST DEV IFID: as _xfrmi_is, within 10 s, else fail.
xfrmi_expect() {
	wait_for 10 "$2 on $1: an XFRM interface with if_id $3, up" _xfrmi_is "$@"
	log "ok: $2 on $1 is an XFRM interface with if_id $3, up"
}

# _xfrmi_gone HOST DEV: there is no DEV on HOST.
_xfrmi_gone() { ! ns "$1" ip link show dev "$2" >/dev/null 2>&1; }

# xfrmi_expect_if_id HOST IFID: HOST's ESP SAs and IPsec policies exist and
# every one carries if_id IFID.
xfrmi_expect_if_id() {
	_s=$(ns "$1" ip xfrm state) && _p=$(ns "$1" ip xfrm policy) ||
		fail "ip xfrm on $1 failed"
	_ns=$(printf '%s\n' "$_s" | grep -c '^src ')
	_ni=$(printf '%s\n' "$_s" | grep -c "if_id $2\$\|if_id $2 ")
	[ "$_ns" -ge 2 ] && [ "$_ni" = "$_ns" ] ||
		fail "$1: $_ni of $_ns SAs carry if_id $2 (expected all, at least 2)"
	_np=$(printf '%s\n' "$_p" | grep -c 'proto esp')
	_nip=$(printf '%s\n' "$_p" | grep -c "if_id $2\$\|if_id $2 ")
	[ "$_np" -ge 2 ] && [ "$_nip" -ge "$_np" ] ||
		fail "$1: $_nip policies with if_id $2 for $_np ESP templates (expected one each)"
	log "ok: $1: $_ns SAs and $_np ESP policies, all with if_id $2"
}
