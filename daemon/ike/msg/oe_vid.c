// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libreswan's "Opportunistic IPsec" Vendor ID (RFC 7296 §3.12): an
 * initiator whose conn authenticates either end with NULL (RFC 7619)
 * sends it in IKE_SA_INIT, so that a responder with drop-oppo-null=yes
 * can drop the request before it makes any state, as libreswan does.
 */
#include <string.h>

#include "ike/conn/conn.h"
#include "ike/msg/msg.h"
#include "wire/wire.h"

/* The 19 octets of the string, without a NUL (libreswan's vendor.c). */
static const uint8_t oe_vid[] = "Opportunistic IPsec";
#define OE_VID_LEN (sizeof(oe_vid) - 1)

bool oe_vid_conn(const struct conn *c)
{
	for (int side = 0; c && side < 2; side++) {
		const struct conn_view *v = &c->view[side];

		if (!c->view_rc[side] &&
		    ((v->local.auth.methods | v->remote.auth.methods) &
		     AUTHM_NULL))
			return true;
	}
	return false;
}

void oe_vid_add(struct wire_msg *m)
{
	msg_add(m, WIRE_PT_VID)->u.vid =
		(struct wire_opaque){ oe_vid, OE_VID_LEN };
}

bool oe_vid_in(const struct wire_msg *m)
{
	for (unsigned i = 0; i < m->n; i++) {
		const struct wire_payload *p = &m->pl[i];

		if (p->type == WIRE_PT_VID && !p->inner &&
		    p->u.vid.len == OE_VID_LEN &&
		    !memcmp(p->u.vid.data, oe_vid, OE_VID_LEN))
			return true;
	}
	return false;
}
