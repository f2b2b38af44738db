#!/bin/sh
# The interop matrix with strongSwan on east, transport mode: 11 ESP sets, ikebana
# as initiator and as responder (see testing/uml/lib/scenario/matrix.sh).
# Nothing is enabled in strongSwan 5.9.8: null, 3des, aesxcbc and
# aesNNNctr are taken in esp_proposals with the plugin list of
# lib/peers/strongswan.sh (the kernel runs ESP; charon needs only the PRF).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/matrix.sh"
mx_run strongswan transport
pass
