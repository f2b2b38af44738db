#!/bin/sh
# libreswan (west, initiator) to libreswan (east): PSK, transport, esp=aes_gcm128; ESP counters, ping both ways, only ESP on the wire
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology west-east
capture_start west:eth0 east:eth0
peer libreswan east west responder psk esp=aes_gcm128
peer libreswan west east initiator psk esp=aes_gcm128
expect_sa west alg=aes_gcm128
expect_sa east alg=aes_gcm128
expect_esp_grows west ping_ok west east
expect_esp_grows east ping_ok east west
expect_only_esp west:eth0 east:eth0
pass
