// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A peer that answers with what a test writes (harness.h): the payloads
 * go into an SK payload, or SKF fragments, sealed with the keys of the
 * peer's own IKE SA, so that they pass the integrity check and reach the
 * handlers as a hostile peer's responses would.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/engine.h"
#include "ike/ike_sa.h"
#include "ike/msg/msg.h"

struct ike_sa *net_sa_waiting(struct net *n, int who)
{
	for (struct ike_sa *sa = n->p[who].e->all; sa; sa = sa->next_all)
		if (sa->rtx.req && sa->sk_out)
			return sa;
	return NULL;
}

struct ike_sa *net_peer_sa(struct net *n, const struct ike_sa *sa)
{
	for (struct ike_sa *p = n->p[sa->initiator ? EAST : WEST].e->all; p;
	     p = p->next_all)
		if (p != sa && !memcmp(p->spi_i, sa->spi_i, 8) &&
		    !memcmp(p->spi_r, sa->spi_r, 8) && p->sk_out)
			return p;
	return NULL;
}

void forge_response(struct net *n, int who, const struct wire_msg *m,
		    unsigned nfrag)
{
	struct ike_sa *w = net_sa_waiting(n, who);
	struct ike_sa *p = w ? net_peer_sa(n, w) : NULL;
	struct wire_hdr hdr = { 0 };
	struct wire_error werr;
	struct wbuf pt, out;
	uint8_t first = 0;
	const uint8_t *req;
	size_t per, req_len;

	assert_non_null(p);
	req = dgram_set_first(w->rtx.req, w->rtx.req_len, &req_len);
	assert_true(req && req_len >= WIRE_HDR_LEN);
	memcpy(hdr.spi_i, w->spi_i, 8);
	memcpy(hdr.spi_r, w->spi_r, 8);
	hdr.exchange = req[18];
	hdr.flags = WIRE_FLAG_R | (p->initiator ? WIRE_FLAG_I : 0);
	hdr.msgid = w->rtx.req_msgid;
	wbuf_init(&pt, 0);
	assert_int_equal(wire_emit_chain(m->pl, m->n, &pt, &first, &werr), 0);
	nfrag = nfrag ? nfrag : 1;
	per = (pt.len + nfrag - 1) / nfrag;
	for (unsigned k = 0; k < nfrag; k++) {
		size_t off = k * per,
		       l = off + per > pt.len ? pt.len - off : per;

		wbuf_init(&out, 0);
		assert_int_equal(msg_seal(p, &hdr, k ? 0 : first, pt.data + off,
					  l, nfrag > 1 ? (uint16_t)(k + 1) : 0,
					  nfrag > 1 ? (uint16_t)nfrag : 0,
					  &out),
				 0);
		net_inject(n, who, out.data, out.len);
		wbuf_free(&out);
	}
	wbuf_free(&pt);
}
