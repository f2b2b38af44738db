#!/bin/sh
# The NAT topology: road's packets leave nic with nic's address, so IKE moves
# to UDP 4500 and ESP is encapsulated in UDP (encap=espinudp).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology road-nic-east
need_nat nic
capture_start nic:eth1 road:eth0
peer strongswan east road responder psk nat=yes
peer strongswan road east initiator psk
expect_sa road alg=aes_gcm128 encap=espinudp
expect_sa east alg=aes_gcm128 encap=espinudp
expect_esp_grows road ping_ok road east
expect_only_esp nic:eth1 road:eth0
pass
