#!/bin/sh
# The interop matrix with ikebana on east, tunnel mode: 11 ESP sets, ikebana
# as initiator and as responder (see testing/uml/lib/scenario/matrix.sh).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$IKB_UML/lib/scenario/matrix.sh"
mx_run ikebana tunnel
pass
