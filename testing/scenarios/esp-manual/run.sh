#!/bin/sh
# Harness self-test without IKE: the kernel, the topology and the wire checks.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
topology west-east
manual_sa west east 2048
expect_sa west alg=aes_gcm128 esn=1 replay=2048
capture_start west:eth0 east:eth0
expect_esp_grows west ping_ok west east
expect_esp_grows east iperf_ok east west
expect_only_esp west:eth0 east:eth0
pass
