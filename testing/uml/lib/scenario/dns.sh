# A DNS server for the dns-* scenarios: dnsmasq on host ns of the
# west-east-dns topology, authoritative for ikebana.test from a hosts file
# (a name it does not hold is NXDOMAIN), and each host's resolv.conf
# pointing at it. ikebanad reads that resolv.conf: ikebana_start binds it
# over /etc/resolv.conf in the daemon's own mount namespace.
# shellcheck shell=sh

DNS_ZONE=ikebana.test

# dns_start: dnsmasq on ns; west and east get their resolv.conf.
dns_start() {
	_N=$HOSTS/ns
	: >"$_N/etc/hosts"
	echo "nameserver 198.51.100.53" >"$HOSTS/west/etc/resolv.conf"
	echo "nameserver 203.0.113.53" >"$HOSTS/east/etc/resolv.conf"
	ip netns exec ns dnsmasq --keep-in-foreground --conf-file=/dev/null \
		--user=root --group=root --pid-file= --no-resolv --no-hosts \
		--addn-hosts="$_N/etc/hosts" --local="/$DNS_ZONE/" \
		--bind-interfaces --listen-address=198.51.100.53 \
		--listen-address=203.0.113.53 --except-interface=lo \
		--log-queries --log-facility="$_N/log/dnsmasq.log" \
		>"$_N/log/dnsmasq-stderr.log" 2>&1 &
	echo "$!" >"$_N/dnsmasq.pid"
	wait_for 10 "dnsmasq on ns listening" _dns_listening
	log "dnsmasq running on ns (pid $(cat "$_N/dnsmasq.pid"))"
}

_dns_listening() { ip netns exec ns ss -lunH 'sport = :53' | grep -q 198.51.100.53; }

# dns_record NAME ADDR...: NAME.ikebana.test is ADDR (none: removed);
# dnsmasq rereads its hosts file on SIGHUP.
dns_record() {
	_n=$1.$DNS_ZONE
	shift
	grep -v " $_n\$" "$HOSTS/ns/etc/hosts" >"$HOSTS/ns/etc/hosts.new"
	for _a in "$@"; do
		echo "$_a $_n" >>"$HOSTS/ns/etc/hosts.new"
	done
	mv "$HOSTS/ns/etc/hosts.new" "$HOSTS/ns/etc/hosts"
	kill -HUP "$(cat "$HOSTS/ns/dnsmasq.pid")"
	log "dns: $_n is ${*:-gone}"
}

# dns_stop_answering / dns_answer_again: SIGSTOP and SIGCONT dnsmasq, by
# its PID: queries then go unanswered, as with a server that hangs.
dns_stop_answering() {
	kill -STOP "$(cat "$HOSTS/ns/dnsmasq.pid")"
	log "dns: dnsmasq stopped (SIGSTOP)"
}

dns_answer_again() {
	kill -CONT "$(cat "$HOSTS/ns/dnsmasq.pid")"
	log "dns: dnsmasq answers again (SIGCONT)"
}
