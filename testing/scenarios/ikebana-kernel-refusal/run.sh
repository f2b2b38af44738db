#!/bin/sh
# A Child SA that west's kernel refuses: ESP aes_ccm128 while the kernel
# cannot load the ccm module (kernel.modprobe is empty for the run, which
# turns module autoloading off; it is restored at the end).
# ikebana on west (kernel-xfrm) against ikebana on east (kernel-mem: both
# namespaces share the one UML kernel, and east must not install in it).
#   a. west responds to IKE_AUTH: it logs the kernel's message naming the
#      conn, answers NO_PROPOSAL_CHOSEN and keeps the IKE SA (§2.21, as
#      strongSwan); `ikebana up` on east fails with that notify.
#   b. west initiates: `ikebana up` fails with the kernel's message, west
#      deletes the Child SA at east, the IKE SA stays and `down` ends it.
#   c. CREATE_CHILD_SA: rekeys after esp= changed to aes_ccm128, west
#      initiating (refused by its kernel: Delete to east) and then east
#      (west answers NO_PROPOSAL_CHOSEN): the old Child SA stays on west,
#      and west's traffic still leaves through its outbound SA. (East runs
#      kernel-mem, so nothing decrypts it: no ping can be answered.)
# After each, west's kernel has no SA (no larval ALLOCSPI SA either) and
# no policy of the refused Child SA.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/ikebana.sh"
topology west-east
command -v jq >/dev/null || fail "jq is missing (it reads ikebana status --json)"

IKE=aes_gcm256-sha2_256-dh19
MSG='Requested AEAD algorithm not found'

# --- the premise: this kernel cannot get ccm --------------------------------
modprobe_was=$(cat /proc/sys/kernel/modprobe)
restore_modprobe() { echo "$modprobe_was" >/proc/sys/kernel/modprobe; }
trap restore_modprobe EXIT
if grep -qw ccm /proc/modules || grep -q 'ccm(aes)' /proc/crypto; then
	fail "ccm is already loaded: this kernel cannot be made to lack it"
fi
# Empty, not /bin/false: each refused look-up then costs no process.
echo >/proc/sys/kernel/modprobe
out=$(ip -n west xfrm state add src 192.0.2.1 dst 192.0.2.2 proto esp spi 0x4444 \
	mode transport aead 'rfc4309(ccm(aes))' 0x00112233445566778899aabbccddeeff001122 128 2>&1) &&
	fail "the kernel took rfc4309(ccm(aes)) without its module"
echo "$out" | grep -q "$MSG" || fail "ip xfrm said: $out (expected '$MSG')"
log "ok: without modprobe the kernel refuses rfc4309(ccm(aes)): $out"

# --- helpers ----------------------------------------------------------------
# conf HOST kernel-xfrm|kernel-mem: ikebana.conf before ikebanad starts.
conf() { IKB_KERNEL=$2 _ikb_conf "$1"; }

# up_out HOST: `ikebana up east-west` on HOST; sets up_rc and up_text.
up_out() {
	up_text=$(t 40 ip netns exec "$1" "$IKB_CLI" --rundir "$HOSTS/$1/run" up east-west 2>&1)
	up_rc=$?
	printf '# ikebana up east-west (exit %s)\n%s\n' "$up_rc" "$up_text" >>"$HOSTS/$1/log/ikebana.log"
	log "ikebana up on $1: exit $up_rc: $up_text"
}

# children HOST: how many Child SAs HOST's ikebana lists (of its IKE SA).
children() { _ikb_snap "$1" && jq -r '[.ike_sas[].child_sas[]] | length' "$HOSTS/$1/log/status.json"; }
ike_state() { _ikb_snap "$1" && jq -r '.ike_sas[0].state // "none"' "$HOSTS/$1/log/status.json"; }
_no_child() { [ "$(children "$1")" = 0 ]; }
# expect_ike_children HOST N: one snapshot: the IKE SA established, N Child SAs.
expect_ike_children() {
	_ikb_snap "$1"
	_st=$(jq -r '.ike_sas[0].state // "none"' "$HOSTS/$1/log/status.json")
	_nc=$(jq -r '[.ike_sas[].child_sas[]] | length' "$HOSTS/$1/log/status.json")
	[ "$_st" = established ] || fail "$1: IKE SA is $_st, expected established"
	[ "$_nc" = "$2" ] || fail "$1 lists $_nc Child SA(s), expected $2"
}
_one_child() { [ "$(children "$1")" = 1 ]; }
# policies HOST: HOST's policies other than the IKE sockets' bypass ones.
policies() { ip -n "$1" xfrm policy | grep -cE '(^|[[:space:]])dir (in|out|fwd)'; }

# west_kernel_clean: west's SAD is empty (larval SAs count too: `count`
# is the kernel's own number) and no policy but the IKE sockets' bypass.
west_kernel_clean() {
	_n=$(ip -n west xfrm state count | awk '{ print $NF }')
	[ "$_n" = 0 ] || fail "west's kernel keeps $_n SA(s): $(ip -n west xfrm state)"
	_p=$(policies west)
	[ "$_p" = 0 ] || fail "west's kernel keeps $_p policies: $(ip -n west xfrm policy)"
	log "ok: west's kernel has no SA (larval included) and no policy"
}

# since_reset HOST: HOST's ikebanad log since the last ikb_reset.
since_reset() { awk '/^===== reset/ { n = 0; next } { l[++n] = $0 } END { for (i = 1; i <= n; i++) print l[i] }' "$HOSTS/$1/log/ikebanad.log"; }
# logged HOST TEXT: HOST's ikebanad logged TEXT (a fixed string) this case.
logged() { since_reset "$1" | grep -qF -- "$2"; }
# expect_logged HOST TEXT [SECONDS]
expect_logged() {
	wait_for "${3:-10}" "$1's ikebanad to log: $2" logged "$1" "$2"
	log "ok: $1 logged: $(since_reset "$1" | grep -F -- "$2" | tail -n 1)"
}

# --- a. west responds, its kernel refuses -----------------------------------
log "=== a. IKE_AUTH: west responds, west's kernel refuses"
conf west kernel-xfrm
conf east kernel-mem
peer ikebana west east responder psk ike=$IKE esp=aes_ccm128
peer ikebana east west add psk ike=$IKE esp=aes_ccm128
up_out east
[ "$up_rc" != 0 ] || fail "ikebana up on east succeeded: $up_text"
echo "$up_text" | grep -q "NO_PROPOSAL_CHOSEN" || fail "east's up does not name the notify: $up_text"
expect_logged west "conn east-west #1: Child SA not installed, answering NO_PROPOSAL_CHOSEN: kernel: $MSG"
for h in west east; do
	expect_ike_children "$h" 0
done
log "ok: both keep the IKE SA, neither lists a Child SA"
# issue 20: west explains its refusal, east what it was answered
expect_explain west east-west "kernel as responder in IKE_AUTH" \
	"cause: the kernel refused the Child SA: kernel: $MSG" \
	"fix: the kernel lacks an algorithm or module"
expect_explain east east-west "answered NO_PROPOSAL_CHOSEN to IKE_AUTH"
west_kernel_clean
ikb_reset

# --- b. west initiates, its kernel refuses ----------------------------------
log "=== b. IKE_AUTH: west initiates, west's kernel refuses"
conf west kernel-xfrm
conf east kernel-mem
peer ikebana east west responder psk ike=$IKE esp=aes_ccm128
peer ikebana west east add psk ike=$IKE esp=aes_ccm128
up_out west
[ "$up_rc" != 0 ] || fail "ikebana up on west succeeded: $up_text"
echo "$up_text" | grep -qF "kernel: $MSG" || fail "west's up does not print the kernel's message: $up_text"
west_kernel_clean
expect_logged west "conn east-west #1: Child SA not installed, deleting it at the peer: kernel: $MSG"
wait_for 10 "east to delete the Child SA it installed" _no_child east
wait_for 10 "west to forget the failed Child SA" _no_child west
expect_logged east "Child SA deleted"
for h in west east; do
	expect_ike_children "$h" 0
done
log "ok: the IKE SA stays on both, no Child SA on either"
west_kernel_clean
_ikb west down east-west || fail "ikebana down on west failed"
_ike_gone() { [ "$(ike_state "$1")" = none ]; }
wait_for 10 "west's IKE SA to go" _ike_gone west
wait_for 10 "east's IKE SA to go" _ike_gone east
log "ok: ikebana down removed the IKE SA on both"
ikb_reset

# --- c. CREATE_CHILD_SA: rekeys the kernel refuses -------------------------
# set_conn HOST KEY=VALUE...: appends to the conn and reloads.
set_conn() {
	_h=$1
	shift
	printf '\t%s\n' "$@" >>"$HOSTS/$_h/etc/ikebana.d/east-west.conf"
	_ikb "$_h" reload || fail "ikebana reload on $_h failed"
}
# to_ccm HOST...: esp= becomes aes_ccm128, applied from the next exchange.
to_ccm() {
	for _h; do
		sed -i 's/esp=aes_gcm128/esp=aes_ccm128/' "$HOSTS/$_h/etc/ikebana.d/east-west.conf"
		_ikb "$_h" reload || fail "ikebana reload on $_h failed"
	done
}

log "=== c. CREATE_CHILD_SA: west rekeys at 10 s, east at 20 s; west's kernel refuses both"
conf west kernel-xfrm
conf east kernel-mem
peer ikebana east west add psk ike=$IKE esp=aes_gcm128
peer ikebana west east add psk ike=$IKE esp=aes_gcm128
set_conn west ipsec-lifetime=60s rekeymargin=50s rekeyfuzz=0%
set_conn east ipsec-lifetime=60s rekeymargin=40s rekeyfuzz=0%
up_out west
[ "$up_rc" = 0 ] || fail "ikebana up on west failed: $up_text"
expect_sa west alg=aes_gcm128
before=$(sa_list west | awk '{ print $3 }' | sort | tr '\n' ' ')
to_ccm west east
expect_logged west "CREATE_CHILD_SA: Child SA not installed, deleting it at the peer: kernel: $MSG" 25
expect_logged east "Child SA deleted"
expect_logged west "Child SA not installed, answering NO_PROPOSAL_CHOSEN: kernel: $MSG" 25
expect_logged east "Child SA refused by the peer: NO_PROPOSAL_CHOSEN"
wait_for 10 "one Child SA on west" _one_child west
expect_ike_children west 1
after=$(sa_list west | awk '{ print $3 }' | sort | tr '\n' ' ')
[ "$after" = "$before" ] || fail "west's SAs were $before, now $after"
n=$(ip -n west xfrm state count | awk '{ print $NF }')
[ "$n" = 2 ] || fail "west's kernel has $n SAs (larval included), expected the old 2: $(ip -n west xfrm state)"
p=$(policies west)
[ "$p" = 2 ] || fail "west's kernel has $p policies, expected the old Child SA's 2"
log "ok: west's kernel keeps exactly the old Child SA: $after"
o0=$(esp_packets west dir=out)
ns west ping -n -q -c 2 -i 0.2 -W 1 192.0.2.2 >/dev/null 2>&1
o1=$(esp_packets west dir=out)
[ "$o1" -gt "$o0" ] || fail "west's outbound ESP SA carried nothing ($o0 -> $o1 packets)"
log "ok: west's traffic still leaves through the old outbound SA ($o0 -> $o1 packets)"
pass
