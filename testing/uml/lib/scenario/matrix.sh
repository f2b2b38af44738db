# The interop matrix of the matrix-* scenarios and the libreswan-table bench
# (sourced after lib/all.sh). One boot covers one peer and one mode, both
# roles and every ESP set of MX_ESP:
#   - topology west-east-pairs with 2 * 11 address pairs; ikebana (default
#     plugins: kernel-xfrm) on west, the peer on east (ikebana too for
#     ikebana<->ikebana); one conn per pair;
#   - pairs 1..11: ikebana initiates, ESP set I; pairs 12..22: the peer
#     initiates, ESP set I - 11. Both halves run at once: no reset between
#     the roles, and one round of checks for all 22 cases.
# Each case (pair) proves:
#   - west and east each hold exactly one inbound and one outbound ESP SA
#     for the pair, in the mode asked, with the kernel algorithm of the set;
#   - 3 pings, then a 2 s iperf3 at 2 Mbit/s, pass (all pairs at once);
#   - a capture of what each host sends on eth0 shows only ESP (and IKE);
#   - after the traffic, the sender's outbound SA and the receiver's inbound
#     SA count the same packets and bytes, and every SA carried traffic.
# The 11 ESP sets: the 9 of libreswan's benchmark, aes_gcm256 and
# chacha20_poly1305. aes_gcm128-null is libreswan's "AEAD, no integrity".
# Neither peer needs anything enabled for them: libreswan 4.10 leaves 3DES
# and null out of its defaults but accepts them in an explicit esp=, and
# strongSwan's charon needs no crypto plugin for an ESP algorithm (the
# kernel runs it; charon only derives the KEYMAT with the IKE PRF).
# shellcheck shell=sh disable=SC2034,SC2154,SC2016
# (p_* are read by the peer helpers of lib/all.sh; the sh -c scripts are
# single-quoted on purpose and take their values as arguments)

MX_ESP='aes_gcm128-null null-sha1 null-aes_xcbc aes128-sha1 aes256-sha1
aes256-aes_xcbc 3des-sha1 aes_ctr128-sha1 aes_ctr256-sha1 aes_gcm256
chacha20_poly1305'
MX_N=11
MX_IKE=aes_gcm256-sha2_256-dh19
MX_IPERF_SECS=2
MX_IPERF_RATE=2M

# _mx_esp_nth K: sets mx_esp to the K-th ESP set (no subshell: each process
# costs ~0.1 s in UML).
_mx_esp_nth() {
	_n=$1
	for mx_esp in $MX_ESP; do
		_n=$((_n - 1))
		[ "$_n" = 0 ] && return
	done
}

# _mx_write DAEMON HOST FIRST ROLE: writes the conns of pairs FIRST ..
# FIRST + MX_N - 1 on HOST for DAEMON (nothing loaded yet). An initiator's
# conns start when they are loaded (auto=start, start_action = start).
# shellcheck disable=SC2086 # MX_ESP and _files are lists of words
_mx_write() {
	_i=0 _files=
	p_esn=''
	case $1 in
	strongswan) strongswan_prop_cache esp $MX_ESP ;;
	ikebana) mkdir -p "$HOSTS/$2/etc/ikebana.d" ;;
	esac
	while read -r _l _r; do
		_i=$((_i + 1))
		if [ "$_i" -lt "$3" ] || [ "$_i" -ge $(($3 + MX_N)) ]; then continue; fi
		_mx_esp_nth $(((_i - 1) % MX_N + 1))
		p_daemon=$1 p_host=$2 p_role=$4 p_auth=psk p_mode=$MX_MODE
		p_esp=$mx_esp p_ike=$MX_IKE p_replay='' p_esn='' p_af=4 p_nat=''
		p_name=mx$_i p_secret=ikebana-testing-mx$_i
		p_local=$_l p_raddr=$_r p_lid=$_l p_rid=$_r p_auto=add
		[ "$4" = initiator ] && p_auto=start
		case $1 in
		strongswan) strongswan_write_conn ;;
		libreswan) libreswan_write_conn
			   _files="$_files $_f" ;;
		ikebana) _mx_ikebana_write ;;
		esac
	done <"$HOSTS/$2/pairs"
	case $1 in
	libreswan) cat $_files >"$HOSTS/$2/etc/ipsec.d/mx-$3.conf" ;;
	ikebana) chmod 600 "$HOSTS/$2/etc/ikebana.secrets" ;;
	esac
	p_auto=''
	log "$1 on $2: conns of pairs $3..$(($3 + MX_N - 1)) written, $4"
}

# What ikebana_conn writes, without its per-conn processes.
_mx_ikebana_write() {
	{
		echo "conn $p_name"
		_ipsec_conf_body "$p_raddr"
	} >"$HOSTS/$p_host/etc/ikebana.d/$p_name.conf"
	_peer_psk_line >>"$HOSTS/$p_host/etc/ikebana.secrets"
}

# _mx_load DAEMON HOST FIRST: loads the conns _mx_write wrote for FIRST.
_mx_load() {
	_peer_note_daemon "$2" "$1"
	case $1 in
	strongswan) strongswan_load "$2" || fail "strongswan on $2: swanctl --load-all failed" ;;
	libreswan) _ls_add "$2" "$HOSTS/$2/etc/ipsec.d/mx-$3.conf" || fail "libreswan on $2: addconn failed" ;;
	ikebana)
		if [ -e "$HOSTS/$2/ikebanad.pid" ]; then
			_ikb "$2" reload || fail "ikebana on $2: reload failed"
		else
			ikebana_start "$2"
		fi ;;
	esac
	log "$1 on $2: conns of pairs $3..$(($3 + MX_N - 1)) loaded"
}

# _mx_sas_ok HOST: HOST's SAD holds, for each pair, exactly one SA each way
# with the set's algorithm and the mode, and nothing else. Prints what is
# wrong (status 1) or a summary.
_mx_sas_ok() {
	sa_list "$1" >"$HOSTS/$1/log/sa_list.out"
	awk -v mode="$MX_MODE" -v n="$MX_N" -v esps="$MX_ESP" -v h="$1" '
	FNR == NR { np++; L[np] = $1; R[np] = $2; next }
	{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	  k = f["src"] " " f["dst"]; c[k]++; a[k] = f["alg"]; m[k] = f["mode"]; total++ }
	END {
		split(esps, e, /[ \n]+/)
		for (p = 1; p <= np; p++) {
			want = e[(p - 1) % n + 1]; sub(/-null$/, "", want)
			split(L[p] " " R[p] " " R[p] " " L[p], ad, " ")
			for (d = 0; d < 2; d++) {
				k = ad[2 * d + 1] " " ad[2 * d + 2]; dir = d ? "in" : "out"
				if (c[k] != 1) { printf "%s pair %d %s (%s): %d SAs, expected 1\n", h, p, dir, k, c[k]; bad++ }
				else if (a[k] != want || m[k] != mode) {
					printf "%s pair %d %s (%s): %s %s, expected %s %s\n", h, p, dir, k, a[k], m[k], want, mode; bad++ }
			}
		}
		if (total != 2 * np) { printf "%s has %d ESP SAs, expected %d\n", h, total, 2 * np; bad++ }
		if (bad) exit 1
		printf "%s: %d ESP SAs, one each way per pair, %s, algorithms as asked\n", h, total, mode
	}' "$HOSTS/$1/pairs" "$HOSTS/$1/log/sa_list.out"
}

_mx_both_sas_ok() {
	_mx_sas_ok west >"$HOSTS/west/log/sas.check" 2>&1 &&
		_mx_sas_ok east >"$HOSTS/east/log/sas.check" 2>&1
}

# _mx_count HOST: number of ESP SAs (one ip call, no awk).
_mx_count() { ip -n "$1" xfrm state count | awk '{ print $NF }'; }
_mx_have_all() { [ "$(_mx_count west)" -ge "$1" ] && [ "$(_mx_count east)" -ge "$1" ]; }

# _mx_expect_sas: every Child SA up on both, then the exact check.
_mx_expect_sas() {
	_want=$((4 * MX_N))
	poll_for 60 _mx_have_all "$_want" ||
		fail "after 60 s west has $(_mx_count west) and east $(_mx_count east) ESP SAs, expected $_want each"
	log "ok: west and east have $_want ESP SAs each ($(( $(now_cs) - _mx_t0 ))0 ms after the peer started)"
	poll_for 10 _mx_both_sas_ok || {
		cat "$HOSTS/west/log/sas.check" "$HOSTS/east/log/sas.check"
		fail "the SADs do not hold what the conns asked for (above)"
	}
	log "ok: $(cat "$HOSTS/west/log/sas.check")"
	log "ok: $(cat "$HOSTS/east/log/sas.check")"
}

_mx_listening() { [ "$(ip netns exec east ss -ltnH 'sport >= :5301 and sport <= :5399' | wc -l)" -ge "$1" ]; }

# _mx_iperf_servers: one iperf3 server per pair on east (port 5300 + I,
# bound to the pair's address), started in the background as soon as the
# addresses exist: they come up while IKE runs.
_mx_iperf_servers() {
	timeout -k 2 220 ip netns exec east sh -c '
		p=5300
		while read -r l r; do
			p=$((p + 1))
			iperf3 -s -1 -B "$l" -p "$p" >/dev/null 2>&1 &
		done <"$1"; wait' sh "$HOSTS/east/pairs" &
	_mx_srv=$!
}

# _mx_traffic: from west, through every pair at once: 3 pings, all
# answered, then an iperf3 client for MX_IPERF_SECS at MX_IPERF_RATE (a
# functional test: unlimited, 22 flows starve the one UML CPU and the last
# clients start late); each must report what its receiver got.
_mx_traffic() {
	_np=$((2 * MX_N)) _out=$HOSTS/west/log/traffic
	mkdir -p "$_out"
	wait_for 30 "$_np iperf3 servers on east" _mx_listening "$_np"
	t 60 ip netns exec west sh -c '
		p=5300
		while read -r l r; do
			p=$((p + 1))
			{ ping -n -q -c 3 -i 0.2 -W 2 -I "$l" "$r" >"$4/$p.ping" 2>&1 ||
			  echo "ping $l -> $r failed" >>"$4/failed"
			  iperf3 -c "$r" -B "$l" -p "$p" -t "$2" -b "$3" -f m >"$4/$p.iperf" 2>&1; } &
		done <"$1"; wait' sh "$HOSTS/west/pairs" "$MX_IPERF_SECS" "$MX_IPERF_RATE" "$_out"
	[ -s "$_out/failed" ] && fail "$(cat "$_out/failed")"
	log "ok: ping through each of the $_np pairs (3 each, all answered)"
	_i=0 _files=
	while [ "$_i" -lt "$_np" ]; do
		_i=$((_i + 1))
		_files="$_files $_out/$((5300 + _i)).iperf"
	done
	# shellcheck disable=SC2086 # a list of paths without spaces
	_rates=$(awk 'FNR == 1 { if (NR > 1) print r; r = "-" }
		/receiver/ { r = $7 } END { print r }' $_files | tr '\n' ' ')
	_i=0
	for _r in $_rates; do
		_i=$((_i + 1))
		[ "$_r" != - ] || fail "iperf3 through pair $_i failed: $(tail -n 3 "$_out/$((5300 + _i)).iperf")"
	done
	[ "$_i" = "$_np" ] || fail "$_i iperf3 results, expected $_np"
	# every server ran its one test and exits
	wait "$_mx_srv" 2>/dev/null
	log "ok: $_np iperf3 runs of ${MX_IPERF_SECS}s at once (${MX_IPERF_RATE}bit/s each) passed, Mbit/s received per pair: $_rates"
}

# _mx_counters_ok: for each SA, the sender's outbound and the receiver's
# inbound count the same packets and bytes, and none is 0. Prints the
# differences (status 1) or one line per pair.
_mx_counters_ok() {
	sa_list west >"$HOSTS/west/log/sa_list.out"
	sa_list east >"$HOSTS/east/log/sa_list.out"
	awk -v n="$MX_N" -v esps="$MX_ESP" '
	FNR == 1 { fi++ }
	fi == 1 { np++; L[np] = $1; R[np] = $2; next }
	{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	  h = fi == 2 ? "west" : "east"
	  k = f["spi"] " " f["dir"]; p[h, k] = f["packets"]; b[h, k] = f["bytes"]
	  s = f["src"] " " f["dst"]; spi[h, s] = f["spi"] }
	function cmp(from, to, s,   x, k1, k2) {
		x = spi[from, s]; k1 = x " out"; k2 = x " in"
		if (p[from, k1] == 0 || p[from, k1] != p[to, k2] || b[from, k1] != b[to, k2]) {
			printf "pair %d %s SPI %s: %s sent %d packets %d bytes, %s got %d packets %d bytes\n",
			       pn, s, x, from, p[from, k1], b[from, k1], to, p[to, k2], b[to, k2]
			bad++
		}
		return p[from, k1] "/" b[from, k1]
	}
	END {
		split(esps, e, /[ \n]+/)
		for (pn = 1; pn <= np; pn++) {
			o = cmp("west", "east", L[pn] " " R[pn]); i = cmp("east", "west", R[pn] " " L[pn])
			line = line sprintf("pair %d %s: west->east %s, east->west %s (packets/bytes)\n",
					    pn, e[(pn - 1) % n + 1], o, i)
		}
		if (bad) exit 1
		printf "%s", line
	}' "$HOSTS/west/pairs" "$HOSTS/west/log/sa_list.out" "$HOSTS/east/log/sa_list.out"
}

_mx_counters_agree() { _mx_counters_ok >"$HOSTS/west/log/counters.check" 2>&1; }

# mx_run PEER MODE: the whole matrix for PEER (strongswan, libreswan or
# ikebana) on east, in MODE (transport or tunnel).
mx_run() {
	MX_PEER=$1 MX_MODE=$2
	log "=== matrix: ikebana (west) <-> $MX_PEER (east), $MX_MODE, $MX_N ESP sets, both roles"
	PAIRS=$((2 * MX_N))
	topology west-east-pairs
	# 22 TCP flows at once through one UML CPU: a full receive backlog would
	# drop packets after the sender's SA counted them.
	sysctl -qw net.core.netdev_max_backlog=10000
	_mx_iperf_servers
	_mx_t0=$(now_cs)
	# The peer answers pairs 1..11 (loaded before ikebana starts them) ...
	case $MX_PEER in
	strongswan) strongswan_start east ;;
	libreswan) libreswan_start east ;;
	esac
	_mx_write "$MX_PEER" east 1 responder
	_mx_load "$MX_PEER" east 1
	# ... ikebana initiates them and answers pairs 12..22 ...
	_mx_write ikebana west 1 initiator
	_mx_write ikebana west $((MX_N + 1)) responder
	_mx_load ikebana west 1
	# ... which the peer initiates.
	_mx_write "$MX_PEER" east $((MX_N + 1)) initiator
	_mx_load "$MX_PEER" east $((MX_N + 1))
	_mx_expect_sas
	capture_start west:eth0 east:eth0
	capture_wait
	_mx_traffic
	poll_for 10 _mx_counters_agree || {
		cat "$HOSTS/west/log/counters.check"
		fail "ESP counters of the two ends differ (above)"
	}
	while read -r _c; do log "ok: $_c"; done <"$HOSTS/west/log/counters.check"
	expect_only_esp west:eth0 east:eth0
}
