#!/bin/sh
# The interop matrix with ikebana on east, tunnel mode: 11 ESP sets, ikebana
# as initiator and as responder (see ../matrix-lib/matrix.sh).
# shellcheck source=/dev/null # the helpers are checked on their own
. "$IKB_UML/lib/all.sh"
. "$SCENARIO_DIR/../matrix-lib/matrix.sh"
mx_run ikebana tunnel
pass
