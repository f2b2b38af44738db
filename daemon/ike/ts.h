/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Traffic selectors: from a conn, to the wire, and §2.9 narrowing. */
#ifndef IKB_IKE_TS_H
#define IKB_IKE_TS_H

#include <ikebana/types.h>

#include "wire/wire.h"

struct conn_view;

/* The conn's selector: our side is src, the peer's dst. */
void ts_from_conn(const struct conn_view *v, struct ikb_selector *sel);
/*
 * A conn side of %any without a subnet is the IKE SA's address there, as
 * libreswan's and strongSwan's %dynamic: fills sel's AF_UNSPEC sides.
 */
struct ike_path;
void ts_fill_dynamic(struct ikb_selector *sel, const struct ike_path *p);
void ts_to_wire(const struct ikb_addr *a, uint8_t plen, uint8_t proto,
		uint16_t port, struct wire_ts *out);
/*
 * Intersect ours with the offered TS lists (local: the TS payload of our
 * side, remote: the peer's). strict: each side must equal an offered TS.
 * 0 and out, or -1 when nothing is left (TS_UNACCEPTABLE).
 */
int ts_select(const struct ikb_selector *ours, const struct wire_ts_pld *local,
	      const struct wire_ts_pld *remote, bool strict,
	      struct ikb_selector *out);

#endif
