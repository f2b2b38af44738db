# One line per daemon and conn:
#   peer DAEMON HOST [REMOTE] [WORD...]
# DAEMON: strongswan, libreswan or ikebana. WORDs, in any order:
#   initiator | responder | add  role (default responder: load the conn and
#                                wait; initiator also initiates it; add loads it)
#   psk                          authentication (the only one so far)
#   transport | tunnel           mode (default transport)
#   esp=P ike=P                  libreswan syntax (defaults aes_gcm128 and
#                                aes_gcm128-sha2_256-dh19); translated for strongSwan
#   replay=N esn=yes|no          replay window, ESN (default: the daemon's)
#   af=4|6                       address family (default 4)
#   name=CONN                    conn name (default: both host names, sorted)
#   local=ADDR remote=ADDR       override the addresses (many-pairs)
#   secret=S                     the PSK
#   nat=yes                      remote is behind NAT: accept it from any address
# Example, east answering west:  peer strongswan east west responder psk esp=aes_gcm128
# Without REMOTE, the daemon starts with the confs the scenario brings in
# $SCENARIO_DIR/HOST/ (see README) and nothing is generated.
# shellcheck shell=sh disable=SC2034,SC2015
# (p_* are set by peer() in peer.sh; "a && b || fail" is meant: fail exits)

peer() {
	p_daemon=$1 p_host=$2
	shift 2
	case $p_daemon in strongswan | libreswan | ikebana) ;; *) fail "peer: unknown daemon $p_daemon" ;; esac
	[ -d "$HOSTS/$p_host" ] || fail "peer: no host $p_host in the topology"
	p_remote='' p_role=responder p_auth=psk p_mode=transport p_esp=aes_gcm128
	p_ike=aes_gcm128-sha2_256-dh19 p_replay='' p_esn='' p_af=4 p_name='' p_secret=''
	p_local='' p_raddr='' p_nat=''
	for _a; do
		case $_a in
		initiator | responder | add) p_role=$_a ;;
		psk) p_auth=psk ;;
		transport | tunnel) p_mode=$_a ;;
		esp=*) p_esp=${_a#*=} ;;
		ike=*) p_ike=${_a#*=} ;;
		replay=*) p_replay=${_a#*=} ;;
		esn=*) p_esn=${_a#*=} ;;
		af=*) p_af=${_a#*=} ;;
		name=*) p_name=${_a#*=} ;;
		secret=*) p_secret=${_a#*=} ;;
		local=*) p_local=${_a#*=} ;;
		remote=*) p_raddr=${_a#*=} ;;
		nat=*) p_nat=${_a#*=} ;;
		*=*) fail "peer: unknown option $_a" ;;
		*) [ -z "$p_remote" ] && [ -d "$HOSTS/$_a" ] || fail "peer: '$_a' is not a host or a word"
		   p_remote=$_a ;;
		esac
	done
	_peer_note_daemon "$p_host" "$p_daemon"
	if [ -z "$p_remote" ]; then
		"${p_daemon}_use_scenario_confs" "$p_host"
		return
	fi
	[ -n "$p_local" ] || p_local=$(addr_of "$p_host" "$p_af")
	[ -n "$p_raddr" ] || p_raddr=$(seen_addr "$p_remote" "$p_af")
	# IDs are the hosts' own addresses, also behind NAT.
	p_lid=$p_local p_rid=$p_raddr
	[ -n "$p_nat" ] && p_rid=$(addr_of "$p_remote" "$p_af")
	[ -n "$p_name" ] || p_name=$(printf '%s\n' "$p_host" "$p_remote" | sort | tr '\n' - | sed 's/-$//')
	[ -n "$p_secret" ] || p_secret="ikebana-testing-$p_name"
	log "peer $p_daemon on $p_host: conn $p_name $p_local <-> $p_raddr, $p_role, $p_auth, $p_mode, esp=$p_esp${p_replay:+ replay=$p_replay}"
	# Each daemon's _conn also initiates when p_role is initiator.
	"${p_daemon}_conn" "$p_host" || fail "$p_daemon on $p_host: cannot set up conn $p_name"
}

# initiate HOST CONN: asks HOST's daemon to bring CONN up. Success of the
# command proves nothing (BASELINES 12): follow with expect_sa.
initiate() {
	_d=$(head -n 1 "$HOSTS/$1/daemons" 2>/dev/null) || fail "initiate: no daemon on $1"
	log "initiate $2 on $1 ($_d)"
	"${_d}_initiate" "$1" "$2" || log "$_d on $1: initiate $2 returned an error"
}

_peer_note_daemon() {
	grep -qx "$2" "$HOSTS/$1/daemons" 2>/dev/null || echo "$2" >>"$HOSTS/$1/daemons"
}

# The conn's PSK as a libreswan/ikebana secrets line.
_peer_psk_line() { printf '%s %s : PSK "%s"\n' "$p_lid" "$p_rid" "$p_secret"; }
