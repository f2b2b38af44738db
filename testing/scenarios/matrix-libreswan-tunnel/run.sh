#!/bin/sh
# The interop matrix with libreswan on east, tunnel mode: 11 ESP sets, ikebana
# as initiator and as responder (see testing/uml/lib/scenario/matrix.sh).
# Nothing is enabled in libreswan 4.10: it leaves 3DES and null out of its
# defaults, but takes them in an explicit esp=.
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/matrix.sh"
mx_run libreswan tunnel
pass
