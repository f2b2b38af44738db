#!/bin/sh
# UDP encapsulation (RFC 3948). The kernel only decapsulates on a UDP
# socket marked UDP_ENCAP_ESPINUDP, which IKE would own; a few lines of
# Python stand in for it.
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/kernel-xfrm.sh"
topology west-east
a=$(addr_of west) b=$(addr_of east)
for h in west east; do
	timeout -k 2 60 ip netns exec "$h" python3 -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_UDP, 100, 2)  # UDP_ENCAP, UDP_ENCAP_ESPINUDP
s.bind(("0.0.0.0", 4500))
print("bound", flush=True)
time.sleep(50)' >"$HOSTS/$h/log/encap.log" 2>&1 &
done
for h in west east; do
	wait_for 15 "UDP_ENCAP socket on $h" grep -q bound "$HOSTS/$h/log/encap.log"
done
sa_pair west east 0x8001 0x8002 transport --aead 'rfc4106(gcm(aes))' \
	--key "$(hexkey 20)" --icv 128 --window 64 --encap 4500:4500
# ICMP only: a policy on all of UDP would demand ESP of the ESP-in-UDP
# packets themselves before the encap socket sees them (XfrmInTmplMismatch);
# a daemon avoids that with per-socket bypass policies on its IKE sockets.
xc west policy-add --src "$a" --dst "$b" --proto icmp --dir out --reqid 1
xc west policy-add --src "$b" --dst "$a" --proto icmp --dir in --reqid 1
xc east policy-add --src "$b" --dst "$a" --proto icmp --dir out --reqid 1
xc east policy-add --src "$a" --dst "$b" --proto icmp --dir in --reqid 1
ip -n west xfrm policy | grep -q 'proto icmp' || fail "no ICMP selector"
expect_sa west count=2 encap=espinudp
ip -n east xfrm state | grep -q 'encap type espinudp sport 4500 dport 4500' ||
	fail "no encap template on east"
capture_start west:eth0 east:eth0
expect_esp_grows west ping_ok west east
expect_only_esp west:eth0 east:eth0
udp=$(t 30 tcpdump -n -r "$HOSTS/west/log/eth0.pcap" 'udp port 4500' 2>/dev/null | wc -l)
raw=$(t 30 tcpdump -n -r "$HOSTS/west/log/eth0.pcap" 'ip proto 50' 2>/dev/null | wc -l)
[ "$udp" -gt 0 ] && [ "$raw" = 0 ] || fail "west sent $udp ESP-in-UDP and $raw bare ESP packets"
log "ok: west sent $udp ESP-in-UDP packets and no bare ESP"
pass
