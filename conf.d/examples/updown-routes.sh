#!/bin/sh
# An updown script for leftupdown= (see updown.conf): by hand, what
# libreswan's _updown does with leftsourceip= (ikebana does that itself:
# see sourceip.conf), for a setup that wants more (a table, a metric,
# another device). This host's own
# traffic to the peer's subnet leaves with SOURCEIP, an address of this
# host inside leftsubnet=, so that the conn's policy covers it, and the
# route goes again when the tunnel does. Everything is logged to the
# journal. It runs as root with CAP_NET_ADMIN only: enough for ip route.
# Copy it to /etc/ikebana/updown-routes.sh, mode 0755, and set SOURCEIP.
set -u

SOURCEIP=10.0.1.1

log() { logger -t "ikebana-updown[$PLUTO_CONNECTION]" -- "$*"; }

case $PLUTO_VERB in
route-client)
	# the peer's subnet through the interface towards the peer
	ip route replace "$PLUTO_PEER_CLIENT" dev "$PLUTO_INTERFACE" \
		via "$PLUTO_NEXT_HOP" src "$SOURCEIP" ||
		{ log "cannot route $PLUTO_PEER_CLIENT"; exit 1; }
	log "routed $PLUTO_PEER_CLIENT from $SOURCEIP"
	;;
unroute-client)
	ip route del "$PLUTO_PEER_CLIENT" dev "$PLUTO_INTERFACE" 2>/dev/null
	log "unrouted $PLUTO_PEER_CLIENT"
	;;
up-client | up-host)
	log "up: $PLUTO_MY_CLIENT <-> $PLUTO_PEER_CLIENT (peer $PLUTO_PEER_ID, reqid $PLUTO_SA_REQID)"
	;;
down-client | down-host)
	log "down: $PLUTO_MY_CLIENT <-> $PLUTO_PEER_CLIENT, ${PLUTO_INBYTES:-?} bytes in, ${PLUTO_OUTBYTES:-?} out"
	;;
esac
exit 0
