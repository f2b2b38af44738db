#!/bin/sh
# leftupdown=: ikebana on west and libreswan on east get the same
# recording script (written here, on /srv) for the same two conns, the
# mirror image of each other:
#   ud-tunnel:    tunnel, west 10.1.0.0/24 <-> east 10.2.0.0/24 (-client)
#   ud-transport: transport, host to host, tcp both ways (-host)
# Each conn comes up (ikebana initiates) and goes down (ikebana deletes).
# Then, per conn:
#   - ikebana ran exactly prepare, route, up, then down, unroute (libreswan
#     5's order and rule, programs/pluto/kernel.c and updown.c); libreswan
#     4.10 ran the same verbs (its own order is logged: 4.x says up before
#     prepare and route, and unroute only once the conn is deleted, as it
#     keeps a trap policy until then);
#   - each variable in MIRRORED equals libreswan's with ME and PEER (MY and
#     PEER) swapped, each in SAME equals libreswan's, and SPI_IN on west is
#     SPI_OUT on east (libreswan swaps their meaning; ikebana follows);
#   - PLUTO_SA_REQID is the reqid ikebana logs (libreswan 4.10 tells its
#     base, one below its ESP SA's);
#   - nothing but PATH and libreswan's variables reaches ikebana's script.
# Then libreswan's own _updown runs under ikebana, each verb exiting 0.
# Last, ikebanad stops with ud-tunnel up: it runs down and unroute first.
# shellcheck source=/dev/null disable=SC2015 # the helpers are checked on their own; a && b || fail is meant
. "$IKB_UML/lib/all.sh"
topology west-east

REC=$HOSTS/record.sh
# One run: a "verb=" line, then the variables, sorted. $1: the file.
cat >"$REC" <<'SCRIPT'
#!/bin/sh
{
	echo "verb=$PLUTO_VERB"
	env | grep -E '^(PLUTO_|XAUTH_|VTI_|SPI_)' | sort
	env | grep -vE '^(PLUTO_|XAUTH_|VTI_|SPI_|PATH=|PWD=|SHLVL=|_=)' |
		sed 's/^/other /'
} >>"$1"
SCRIPT
chmod 755 "$REC"

CONNS='ud-tunnel tunnel 10.1.0.0/24 10.2.0.0/24
ud-transport transport - -'

# _write HOST LEFT RIGHT LID RID: both conns as HOST (left) sees them
_write() {
	printf '%s\n' "$CONNS" | while read -r u_n u_mode u_ls u_rs; do
		if [ "$1" = west ]; then u_l=$u_ls u_r=$u_rs; else u_l=$u_rs u_r=$u_ls; fi
		printf 'conn %s\n' "$u_n"
		printf '\t%s\n' "left=$2" "right=$3" "leftid=@$4" "rightid=@$5" \
			"authby=secret" "type=$u_mode" \
			"ike=aes_gcm256-sha2_256-dh19" "esp=aes_gcm128" "esn=either" \
			"auto=add" \
			"leftupdown=\"$REC $HOSTS/$1/log/$u_n.rec\""
		if [ "$u_l" != - ]; then
			printf '\t%s\n' "leftsubnet=$u_l" "rightsubnet=$u_r"
		else
			printf '\t%s\n' "leftprotoport=tcp" "rightprotoport=tcp"
		fi
	done
}

W=$(addr_of west 4) E=$(addr_of east 4)
mkdir -p "$HOSTS/west/etc"
{
	printf 'config setup\n\t# plugins: the defaults\n'
	_write west "$W" "$E" west east
} >"$HOSTS/west/etc/ud.conf"
printf '@west @east : PSK "ikebana-testing-updown"\n' >"$HOSTS/west/etc/ud.secrets"
chmod 600 "$HOSTS/west/etc/ud.secrets"
# libreswan first: its bind mounts (lib/peers/libreswan.sh) are then in
# ikebanad's mount namespace too
_peer_note_daemon east libreswan
libreswan_start east
ikebana_use_confs west "$HOSTS/west/etc/ud.conf" "$HOSTS/west/etc/ud.secrets"

mkdir -p "$HOSTS/east/etc/ipsec.d/conns"
_write east "$E" "$W" east west >"$HOSTS/east/etc/ipsec.d/conns/ud.conf"
printf '@east @west : PSK "ikebana-testing-updown"\n' >>"$HOSTS/east/etc/ipsec.secrets"
_ls_add east "$HOSTS/east/etc/ipsec.d/conns/ud.conf" || fail "libreswan on east: addconn failed"

# rec_verbs FILE: the verbs recorded, one line
rec_verbs() { [ -r "$1" ] && sed -n 's/^verb=//p' "$1" | tr '\n' ' ' | sed 's/ $//'; }
# rec_get FILE VERB KEY: KEY's value in VERB's (first) run
rec_get() {
	awk -v verb="$2" -v key="$3" '
		/^verb=/ { cur = substr($0, 6); next }
		cur == verb && index($0, key "=") == 1 { print substr($0, length(key) + 2); exit }
	' "$1"
}
_lines() { [ -r "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ]; }
_nverbs() { [ -r "$1" ] && [ "$(sed -n 's/^verb=//p' "$1" | wc -l)" -ge "$2" ]; }
# _sorted "A B C": the words sorted, one line
# shellcheck disable=SC2086 # $1 is a list of words
_sorted() { printf '%s\n' $1 | sort | tr '\n' ' '; }

# the variables compared with libreswan's, mirrored or the same
MIRRORED='ME:PEER MY_ID:PEER_ID MY_CLIENT:PEER_CLIENT MY_CLIENT_NET:PEER_CLIENT_NET MY_CLIENT_MASK:PEER_CLIENT_MASK MY_PORT:PEER_PORT MY_PROTOCOL:PEER_PROTOCOL'
SAME='CONNECTION CONN_POLICY CONNECTION_TYPE SA_TYPE STACK INTERFACE CONN_ADDRFAMILY CONN_KIND PEER_CA IS_PEER_CISCO CFG_SERVER CFG_CLIENT PEER_DNS_INFO PEER_DOMAIN_INFO PEER_BANNER'

# compare CONN VERB_WEST VERB_EAST [mirrored]: west's run of VERB against
# east's; with "mirrored", only MIRRORED (libreswan 4.10's unroute at
# whack --delete has no state: SA_TYPE none, no SPIs)
compare() {
	u_w=$HOSTS/west/log/$1.rec u_e=$HOSTS/east/log/$1.rec
	for u_p in $MIRRORED; do
		u_a=$(rec_get "$u_w" "$2" "PLUTO_${u_p%%:*}")
		u_b=$(rec_get "$u_e" "$3" "PLUTO_${u_p#*:}")
		[ -n "$u_a" ] && [ "$u_a" = "$u_b" ] ||
			fail "$1 $2: ikebana's PLUTO_${u_p%%:*}='$u_a', libreswan's PLUTO_${u_p#*:}='$u_b'"
		u_a=$(rec_get "$u_w" "$2" "PLUTO_${u_p#*:}")
		u_b=$(rec_get "$u_e" "$3" "PLUTO_${u_p%%:*}")
		[ -n "$u_a" ] && [ "$u_a" = "$u_b" ] ||
			fail "$1 $2: ikebana's PLUTO_${u_p#*:}='$u_a', libreswan's PLUTO_${u_p%%:*}='$u_b'"
	done
	if [ "${4:-}" = mirrored ]; then
		log "ok: $1 $2: PLUTO_* as libreswan's $3 (mirrored: $MIRRORED)"
		return
	fi
	for u_k in $SAME; do
		u_a=$(rec_get "$u_w" "$2" "PLUTO_$u_k")
		u_b=$(rec_get "$u_e" "$3" "PLUTO_$u_k")
		[ "$u_a" = "$u_b" ] || fail "$1 $2: ikebana's PLUTO_$u_k='$u_a', libreswan's '$u_b'"
	done
	for u_k in XAUTH_FAILED VTI_IFACE VTI_ROUTING VTI_SHARED; do
		u_a=$(rec_get "$u_w" "$2" "$u_k")
		u_b=$(rec_get "$u_e" "$3" "$u_k")
		[ "$u_a" = "$u_b" ] || fail "$1 $2: ikebana's $u_k='$u_a', libreswan's '$u_b'"
	done
	for u_h in west east; do
		u_a=$(rec_get "$HOSTS/$u_h/log/$1.rec" "$2" PLUTO_NEXT_HOP)
		u_b=$(rec_get "$HOSTS/$u_h/log/$1.rec" "$2" PLUTO_PEER)
		[ -n "$u_a" ] && [ "$u_a" = "$u_b" ] ||
			fail "$1 $2: PLUTO_NEXT_HOP='$u_a' on $u_h, its PLUTO_PEER '$u_b'"
	done
	log "ok: $1 $2: PLUTO_* as libreswan's $3 (mirrored: $MIRRORED; same: $SAME)"
}

while read -r u_n u_mode u_ls u_rs <&3; do
	initiate west "$u_n"
	expect_sa west mode="$u_mode"
	expect_sa east mode="$u_mode"
	u_sfx=client
	[ "$u_ls" = - ] && u_sfx=host
	wait_for 20 "ikebana's prepare, route and up for $u_n" _nverbs "$HOSTS/west/log/$u_n.rec" 3
	wait_for 20 "libreswan's updown for $u_n" _nverbs "$HOSTS/east/log/$u_n.rec" 3
	u_got=$(rec_verbs "$HOSTS/west/log/$u_n.rec")
	u_want="prepare-$u_sfx route-$u_sfx up-$u_sfx"
	[ "$u_got" = "$u_want" ] || fail "$u_n up: ikebana ran '$u_got', expected '$u_want'"
	u_ls_got=$(rec_verbs "$HOSTS/east/log/$u_n.rec")
	log "$u_n up: ikebana ran '$u_got', libreswan '$u_ls_got'"
	[ "$(_sorted "$u_got")" = "$(_sorted "$u_ls_got")" ] ||
		fail "$u_n up: ikebana ran '$u_got', libreswan '$u_ls_got': not the same verbs"
	compare "$u_n" "up-$u_sfx" "up-$u_sfx"
	compare "$u_n" "prepare-$u_sfx" "prepare-$u_sfx"
	u_a=$(rec_get "$HOSTS/west/log/$u_n.rec" "up-$u_sfx" SPI_IN)
	u_b=$(rec_get "$HOSTS/east/log/$u_n.rec" "up-$u_sfx" SPI_OUT)
	[ -n "$u_a" ] && [ "$u_a" = "$u_b" ] || fail "$u_n: ikebana's SPI_IN '$u_a', libreswan's SPI_OUT '$u_b'"
	u_a=$(rec_get "$HOSTS/west/log/$u_n.rec" "up-$u_sfx" SPI_OUT)
	u_b=$(rec_get "$HOSTS/east/log/$u_n.rec" "up-$u_sfx" SPI_IN)
	[ -n "$u_a" ] && [ "$u_a" = "$u_b" ] || fail "$u_n: ikebana's SPI_OUT '$u_a', libreswan's SPI_IN '$u_b'"
	log "ok: $u_n: SPI_IN and SPI_OUT mirror libreswan's"
	# libreswan 4.x tells its reqid base, one below its ESP SA's (5.x:
	# the SA's); ikebana its own, the one its log shows
	u_a=$(rec_get "$HOSTS/west/log/$u_n.rec" "up-$u_sfx" PLUTO_SA_REQID)
	u_b=$(rec_get "$HOSTS/east/log/$u_n.rec" "up-$u_sfx" PLUTO_SA_REQID)
	grep -q "conn $u_n .*Child SA established: reqid $u_a," "$HOSTS/west/log/ikebanad.log" ||
		fail "$u_n: ikebana's PLUTO_SA_REQID $u_a is not the reqid it logged"
	ns east ip xfrm state | grep -qE "reqid $((u_b + 1))[ (]" ||
		fail "$u_n: libreswan's PLUTO_SA_REQID $u_b + 1 is no SA's reqid in east's kernel"
	log "ok: $u_n: PLUTO_SA_REQID $u_a is ikebana's logged reqid (libreswan 4.10: $u_b, its base)"
	! grep -q '^other ' "$HOSTS/west/log/$u_n.rec" ||
		fail "$u_n: ikebana's script saw more: $(grep '^other ' "$HOSTS/west/log/$u_n.rec" | tr '\n' ' ')"

	_ikb west down "$u_n" || fail "ikebana down $u_n failed"
	wait_for 20 "ikebana's down and unroute for $u_n" _nverbs "$HOSTS/west/log/$u_n.rec" 5
	wait_for 20 "libreswan's down for $u_n" _nverbs "$HOSTS/east/log/$u_n.rec" 4
	u_got=$(rec_verbs "$HOSTS/west/log/$u_n.rec")
	u_want="$u_want down-$u_sfx unroute-$u_sfx"
	[ "$u_got" = "$u_want" ] || fail "$u_n down: ikebana ran '$u_got', expected '$u_want'"
	# libreswan 4.10 keeps a trap policy in the tunnel's place (routed,
	# prospective) and unroutes when it lets go of the conn; ikebana
	# leaves nothing behind, so it unroutes at once (as libreswan 5 does
	# for a conn that is not routed)
	_ls_whack east --delete --name "$u_n" || fail "whack --delete $u_n on east"
	wait_for 20 "libreswan's unroute for $u_n" _nverbs "$HOSTS/east/log/$u_n.rec" 5
	u_ls_got=$(rec_verbs "$HOSTS/east/log/$u_n.rec")
	log "$u_n down: ikebana ran '$u_got', libreswan '$u_ls_got' (its unroute at whack --delete)"
	[ "$(_sorted "$u_got")" = "$(_sorted "$u_ls_got")" ] ||
		fail "$u_n: ikebana ran '$u_got', libreswan '$u_ls_got': not the same verbs"
	[ "${u_ls_got##* }" = "unroute-$u_sfx" ] ||
		fail "$u_n: libreswan's last verb is not unroute-$u_sfx: '$u_ls_got'"
	compare "$u_n" "down-$u_sfx" "down-$u_sfx"
	compare "$u_n" "unroute-$u_sfx" "unroute-$u_sfx" mirrored
	[ -n "$(rec_get "$HOSTS/west/log/$u_n.rec" "down-$u_sfx" PLUTO_INBYTES)" ] ||
		fail "$u_n: no PLUTO_INBYTES at down"
done 3<<EOF
$CONNS
EOF

# libreswan's own _updown under ikebana: the environment is what it
# expects, so each verb exits 0 (a wrapper records the verb and status)
WRAP=$HOSTS/ls-updown.sh
cat >"$WRAP" <<SCRIPT
#!/bin/sh
$LS_EXEC/_updown
rc=\$?
echo "\$PLUTO_VERB \$rc" >>"\$1"
exit \$rc
SCRIPT
chmod 755 "$WRAP"
cat >>"$HOSTS/west/etc/ikebana.conf" <<CONF
conn ud-ls
	left=$W
	right=$E
	leftid=@west
	rightid=@east
	authby=secret
	leftsubnet=10.3.0.0/24
	rightsubnet=10.4.0.0/24
	ike=aes_gcm256-sha2_256-dh19
	esp=aes_gcm128
	leftupdown="$WRAP $HOSTS/west/log/ud-ls.rec"
CONF
{
	echo "conn ud-ls"
	printf '\t%s\n' "left=$E" "right=$W" "leftid=@east" "rightid=@west" \
	"authby=secret" "leftsubnet=10.4.0.0/24" "rightsubnet=10.3.0.0/24" \
	"ike=aes_gcm256-sha2_256-dh19" "esp=aes_gcm128" "auto=add" \
	"leftupdown=%disabled"
} >"$HOSTS/east/etc/ipsec.d/conns/ud-ls.conf"
_ls_add east "$HOSTS/east/etc/ipsec.d/conns/ud-ls.conf" || fail "libreswan on east: addconn ud-ls failed"
_ikb west reload || fail "ikebana reload with conn ud-ls failed"
initiate west ud-ls
expect_sa west mode=tunnel
wait_for 20 "libreswan's _updown for ud-ls up" _lines "$HOSTS/west/log/ud-ls.rec" 3
_ikb west down ud-ls || fail "ikebana down ud-ls failed"
wait_for 20 "libreswan's _updown for ud-ls down" _lines "$HOSTS/west/log/ud-ls.rec" 5
u_got=$(tr '\n' ' ' <"$HOSTS/west/log/ud-ls.rec")
[ "$u_got" = "prepare-client 0 route-client 0 up-client 0 down-client 0 unroute-client 0 " ] ||
	fail "libreswan's _updown under ikebana: '$u_got'"
log "ok: libreswan's _updown under ikebana: $u_got"

# leftsourceip= (ikebana's own, no updown script): while the tunnel is
# up, west's own traffic to east's subnet leaves from 10.5.0.1, which west
# lacks: ikebana adds it to the device towards east, and the route with
# src; libreswan's _updown does the same on east for 10.6.0.1. A ping
# without -I goes through ESP both ways; down removes route and address.
cat >>"$HOSTS/west/etc/ikebana.conf" <<CONF
conn srcip
	left=$W
	right=$E
	leftid=@west
	rightid=@east
	authby=secret
	leftsubnet=10.5.0.0/24
	rightsubnet=10.6.0.0/24
	leftsourceip=10.5.0.1
	ike=aes_gcm256-sha2_256-dh19
	esp=aes_gcm128
CONF
{
	echo "conn srcip"
	printf '\t%s\n' "left=$E" "right=$W" "leftid=@east" "rightid=@west" \
	"authby=secret" "leftsubnet=10.6.0.0/24" "rightsubnet=10.5.0.0/24" \
	"leftsourceip=10.6.0.1" "ike=aes_gcm256-sha2_256-dh19" "esp=aes_gcm128" \
	"auto=add"
} >"$HOSTS/east/etc/ipsec.d/conns/srcip.conf"
_ls_add east "$HOSTS/east/etc/ipsec.d/conns/srcip.conf" || fail "libreswan on east: addconn srcip failed"
_ikb west reload || fail "ikebana reload with conn srcip failed"
_src_route() { ns "$1" ip -4 route show "$2" | grep -q "src $3"; }
_has_addr() { ns "$1" ip -4 -o addr show | grep -q " $2/"; }
_no_src_route() { ! ns "$1" ip -4 route show "$2" | grep -q "src $3"; }
_no_addr() { ! _has_addr "$@"; }
_has_addr west 10.5.0.1 && fail "west has 10.5.0.1 before the tunnel"
initiate west srcip
expect_sa west mode=tunnel
wait_for 20 "west's route to 10.6.0.0/24 src 10.5.0.1" _src_route west 10.6.0.0/24 10.5.0.1
wait_for 20 "east's route to 10.5.0.0/24 src 10.6.0.1 (libreswan's _updown)" _src_route east 10.5.0.0/24 10.6.0.1
_has_addr west 10.5.0.1 || fail "ikebana did not add 10.5.0.1 on west"
log "west: $(ns west ip -4 route show 10.6.0.0/24)"
expect_esp_grows west ping_ok west 10.6.0.1
expect_esp_grows west ping_ok east 10.5.0.1
_ikb west down srcip || fail "ikebana down srcip failed"
wait_for 20 "west's route to 10.6.0.0/24 to go" _no_src_route west 10.6.0.0/24 10.5.0.1
wait_for 20 "10.5.0.1 to leave west" _no_addr west 10.5.0.1
log "ok: leftsourceip=: route and address while the tunnel was up, and gone after"

# ikebanad stops (SIGTERM) with a tunnel up: down and unroute run first,
# as libreswan runs them when it shuts down (east gets its conns back,
# which whack --delete took)
_ls_add east "$HOSTS/east/etc/ipsec.d/conns/ud.conf" || fail "libreswan on east: addconn failed"
initiate west ud-tunnel
wait_for 20 "ikebana's up verbs for ud-tunnel again" _nverbs "$HOSTS/west/log/ud-tunnel.rec" 8
kill -TERM "$(cat "$HOSTS/west/ikebanad.pid")" || fail "cannot signal ikebanad on west"
wait_for 20 "ikebana's down verbs at its stop" _nverbs "$HOSTS/west/log/ud-tunnel.rec" 10
u_got=$(rec_verbs "$HOSTS/west/log/ud-tunnel.rec")
[ "${u_got#* * * * * * * * }" = "down-client unroute-client" ] ||
	fail "ikebanad stopped: ikebana ran '$u_got'"
grep -q "stopping: waiting up to" "$HOSTS/west/log/ikebanad.log" ||
	fail "ikebanad did not say it waits for its updown scripts"
log "ok: ikebanad's stop ran down-client and unroute-client"
pass
