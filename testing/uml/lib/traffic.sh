# Traffic through the tunnel and checks of the wire.
# shellcheck shell=sh

# _dst TO [4|6]: TO's address, or TO itself when it already is an address.
_dst() {
	case $1 in *.*.*.* | *:*) echo "$1" ;; *) seen_addr "$1" "${2:-4}" ;; esac
}

# ping_ok FROM TO [COUNT] [4|6]: COUNT (3) pings from FROM's namespace to TO
# (a host or an address), all answered.
ping_ok() {
	capture_wait
	_dst=$(_dst "$2" "${4:-4}")
	_out=$(ns "$1" ping -n -q -c "${3:-3}" -i 0.2 -W 2 "$_dst" 2>&1) ||
		fail "ping $1 -> $2 ($_dst): $(echo "$_out" | tail -n 2 | tr '\n' ' ')"
	log "ok: ping $1 -> $_dst: $(echo "$_out" | grep -o '[0-9]* received')"
}

_iperf_listening() { ip netns exec "$1" ss -ltnH 'sport = :5201' | grep -q .; }

# iperf_ok FROM TO [BYTES] [4|6]: an iperf3 TCP transfer of BYTES (4M) from
# FROM to TO; logs the receiver's rate and fails when the transfer fails. A
# byte count, not a duration: in UML a timed run costs twice its length.
iperf_ok() {
	capture_wait
	_dst=$(_dst "$2" "${4:-4}")
	# Background jobs call timeout directly, not t: a function would run in
	# a subshell, and $! would be that subshell, not the process.
	timeout -k 2 60 ip netns exec "$2" iperf3 -s -1 >/dev/null 2>&1 &
	_srv=$!
	wait_for 10 "iperf3 server on $2" _iperf_listening "$2"
	_rate=$(t 60 ip netns exec "$1" iperf3 -c "$_dst" -n "${3:-4M}" -f m 2>&1 |
		awk '/receiver/ { print $7, $8 }')
	wait "$_srv" 2>/dev/null
	[ -n "$_rate" ] || fail "iperf3 $1 -> $2 ($_dst) failed"
	log "ok: iperf3 $1 -> $_dst: $_rate"
}

# capture_start HOST:DEV...: tcpdump of what each HOST sends on DEV. Egress
# only (-Q out): on the receiving side the kernel re-injects decrypted tunnel
# packets on the same device, which is not cleartext on the wire (BASELINES
# 9). tcpdump takes seconds to start in UML, so this does not wait: the
# traffic helpers (ping_ok, iperf_ok, expect_esp_grows) call capture_wait
# before they send anything. --immediate-mode hands each packet over as it
# comes (TPACKET_V2) instead of in blocks that retire after a second, and
# the pid file names tcpdump itself (sh execs it), so capture_stop can ask
# it for its counters. (No kernel filter such as "outbound": with one,
# libpcap 1.10 loses the first packet that matches it.)
capture_start() {
	for _c; do
		_pcap=$HOSTS/${_c%%:*}/log/${_c#*:}.pcap
		# Now, not in the background job: a second capture of the same
		# device must not be taken as listening on its predecessor's word.
		rm -f "$_pcap.err" "$_pcap.pid" "$_pcap.ended"
		# The scenario's own timeout bounds the capture; a shorter one here
		# ended captures before the traffic on a loaded machine.
		# shellcheck disable=SC2016 # $$ is the inner shell's, on purpose
		timeout -k 2 1800 ip netns exec "${_c%%:*}" sh -c 'echo $$ >"$1.pid"; shift; exec "$@"' \
			sh "$_pcap" tcpdump -Z root -Q out -n -U --immediate-mode -s 128 \
			-i "${_c#*:}" -w "$_pcap" >"$_pcap.err" 2>&1 &
		echo "$_c" >>/tmp/captures.pending
	done
}

# capture_wait: returns once every capture started is listening.
capture_wait() {
	[ -s /tmp/captures.pending ] || return 0
	while read -r _c; do
		wait_for 20 "tcpdump on $_c" grep -qs 'listening on' "$HOSTS/${_c%%:*}/log/${_c#*:}.pcap.err"
	done </tmp/captures.pending
	: >/tmp/captures.pending
}

# _capture_counts PCAP: "captured received dropped", the latest counters
# tcpdump printed: on one line after SIGUSR1 ("tcpdump: 5 packets captured,
# 5 packets received by filter, 0 packets dropped by kernel"), on three at
# its end.
_capture_counts() {
	awk '{ for (i = 1; i + 2 <= NF; i++) {
		 if ($(i + 2) ~ /^captured/) c = $i
		 if ($(i + 2) == "received") r = $i
		 if ($(i + 2) == "dropped") { d = $i; n++ } } }
	     END { if (n) print c, r, d }' "$1.err"
}

# _capture_drained PCAP: asks tcpdump for its counters (SIGUSR1), waits for
# its answer, and succeeds when that answer equals the one before: tcpdump
# ran in between and found nothing more to write. (The kernel's count is no
# target: it includes what libpcap discards while it sets the filter.)
_capture_drained() {
	_cprev=$(_capture_counts "$1")
	_cn=$(grep -c 'received by filter' "$1.err")
	kill -USR1 "$(cat "$1.pid")" 2>/dev/null || return 0
	# At most 2 s for the answer (not poll_for: capture_stop polls us).
	for _ci in 1 2 3 4 5 6 7 8 9 10; do
		sleep 0.2
		[ "$(grep -c 'received by filter' "$1.err")" -gt "$_cn" ] && break
	done
	[ -n "$_cprev" ] && [ "$(_capture_counts "$1")" = "$_cprev" ]
}

# capture_stop: stops every capture, so that the pcaps are complete. A
# loaded host may leave tcpdump behind the kernel, and a TERM then loses
# what it has not read yet; so each capture is first drained (10 s at
# most). TERM, not INT: background jobs of a non-interactive shell ignore
# SIGINT.
capture_stop() {
	capture_wait
	for _p in "$HOSTS"/*/log/*.pcap.pid; do
		[ -e "$_p" ] || continue
		_pc=${_p%.pid}
		# A capture that ended on its own missed what came after.
		if kill -0 "$(cat "$_p")" 2>/dev/null; then
			poll_for 10 _capture_drained "$_pc" ||
				log "note: ${_pc##*/} did not catch up in 10 s: $(tail -n 3 "$_pc.err" | tr '\n' ' ')"
		else
			echo "ended before capture_stop" >"$_pc.ended"
		fi
		_tp=$(cat "$_p")
		kill -TERM "$_tp" 2>/dev/null
		# tcpdump is not this shell's child (timeout is): poll for its end.
		poll_for 10 _gone "$_tp"
		rm -f "$_p"
	done
}

_gone() { ! kill -0 "$1" 2>/dev/null; }

# What may cross the wire besides ESP: IKE on 500, anything on 4500 (ESP in
# UDP, IKE behind its non-ESP marker, NAT keepalives), ARP, IPv6 neighbour
# discovery and multicast (MLD).
# A UDP fragment after the first is an IKE message too large for the MTU
# (an IKE_AUTH with certificates, where a peer does no RFC 7383
# fragmentation): its first fragment carries the UDP header and matches
# the port.
_NOT_ESP='not (ip proto 50 or ip6 proto 50 or udp port 500 or udp port 4500 or arp
 or (ip proto 17 and ip[6:2] & 0x1fff != 0) or (ip6[6] == 44 and ip6[40] == 17)
 or (icmp6 and ip6[40] >= 133 and ip6[40] <= 137) or ip6 multicast)'
_ESP='ip proto 50 or ip6 proto 50 or (udp port 4500 and udp[8:4] != 0)'

# drop_ip_fragments HOST...: HOST's kernel drops every IPv4 fragment it
# receives, as firewalls on real paths do: an IKE message too large for the
# path must come as RFC 7383 fragments. tc's flower on each interface's
# ingress, before any reassembly, in both UML kernels (7.2 has no IP
# tables for iptables or nftables). ip_fragments_dropped HOST: how many it
# dropped since.
drop_ip_fragments() {
	modprobe -q -a sch_ingress cls_flower act_gact
	for _h; do
		for _d in $(ip -n "$_h" -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
			[ "$_d" = lo ] && continue
			ns "$_h" tc qdisc add dev "$_d" clsact 2>/dev/null
			ns "$_h" tc filter add dev "$_d" ingress protocol ip pref 7 \
				flower ip_flags frag action drop ||
				fail "$_h: cannot drop IP fragments on $_d (tc flower)"
		done
	done
}
ip_fragments_dropped() {
	for _d in $(ip -n "$1" -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
		[ "$_d" = lo ] || ns "$1" tc -s filter show dev "$_d" ingress pref 7
	done | awk '/Sent [0-9]+ bytes [0-9]+ pkt/ { n += $4 } END { print n + 0 }'
}

# expect_only_esp HOST:DEV...: each capture (capture_start) holds ESP, and
# nothing else but IKE, ARP and ND. BPF does the counting: printing tens of
# thousands of packets costs seconds in UML.
expect_only_esp() {
	capture_stop
	for _c; do
		_pcap=$HOSTS/${_c%%:*}/log/${_c#*:}.pcap
		[ -e "$_pcap.ended" ] && fail "the $_c capture ended before the check: $(tail -n 3 "$_pcap.err" | tr '\n' ' ')"
		_total=$(_capture_counts "$_pcap" | cut -d' ' -f1)
		_bad=$(t 30 tcpdump -n -r "$_pcap" "$_NOT_ESP" 2>/dev/null | head -n 20)
		[ -z "$_bad" ] || fail "$_c sent packets that are not ESP or IKE:
$_bad"
		t 30 tcpdump -n -r "$_pcap" -c 1 "$_ESP" 2>/dev/null | grep -q . ||
			fail "no ESP packet in the $_c capture ($_total packets)"
		log "ok: $_c sent only ESP, IKE, ARP, ND ($_total packets)"
	done
}

# expect_esp_in_udp HOST:DEV...: each capture, stopped by expect_only_esp,
# holds ESP in UDP (RFC 3948: port 4500, not the non-ESP marker) and no
# bare ESP (IP protocol 50), as a NAT passes it.
expect_esp_in_udp() {
	for _c; do
		_pcap=$HOSTS/${_c%%:*}/log/${_c#*:}.pcap
		_bare=$(t 30 tcpdump -n -r "$_pcap" -c 1 'ip proto 50 or ip6 proto 50' 2>/dev/null)
		[ -z "$_bare" ] || fail "$_c sent bare ESP (IP protocol 50), not ESP in UDP: $_bare"
		t 30 tcpdump -n -r "$_pcap" -c 1 'udp port 4500 and udp[8:4] != 0' 2>/dev/null | grep -q . ||
			fail "no ESP in UDP in the $_c capture"
		log "ok: $_c sent ESP in UDP only, no bare ESP"
	done
}
