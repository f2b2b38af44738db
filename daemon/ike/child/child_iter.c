// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The SAs, one at a time, for callers outside the engine: the IKE SAs
 * (status), and the installed Child SAs (trafficstatus), which they need
 * to find in the kernel, without seeing struct child_sa.
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "ike/child/child.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/events.h"
#include "ike/exchange/exchange.h"

/* The ESP transforms as libreswan's status shows them, without ESN/KE. */
static void esp_alg(const struct ike_prop *p, char *buf, size_t len)
{
	const struct ikb_transform *e = ike_prop_xf(p, IKB_XF_ENCR);
	const struct ikb_transform *i = ike_prop_xf(p, IKB_XF_INTEG);
	const char *en = e ? wire_xform_id_name(IKB_XF_ENCR, e->id) : NULL;
	const char *in =
		i && i->id ? wire_xform_id_name(IKB_XF_INTEG, i->id) : NULL;
	int n;

	n = snprintf(buf, len, "%s", en ? en : "?");
	if (e && e->key_bits && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "_%u", e->key_bits);
	if (i && i->id && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "-%s", in ? in : "?");
}

static const char *kernel_alg(const struct child_sa *c)
{
	const struct ikb_sa *sa = c->sa_out_done ? &c->sa_out : &c->sa_in;

	return sa->aead.name[0] ? sa->aead.name : sa->encr.name;
}

static bool same_addr(const struct ikb_addr *a, const struct ikb_addr *b)
{
	return a->family == b->family &&
	       !memcmp(a->bytes, b->bytes,
		       a->family == AF_INET ? 4 : sizeof(a->bytes));
}

/*
 * The view sa runs on: the initiator knows it; a responder's is the one
 * whose local end is the address the peer reached (left, failing that).
 */
static const struct conn_view *sa_view(const struct ike_sa *sa)
{
	const struct conn *c = engine_conn(sa->e, sa->conn);

	if (!c)
		return NULL;
	if (sa->view_side >= 0)
		return c->view_rc[sa->view_side] ? NULL :
						   &c->view[sa->view_side];
	for (int side = 1; side >= 0; side--)
		if (!c->view_rc[side] &&
		    same_addr(&c->view[side].local.addr, &sa->path.local))
			return &c->view[side];
	return c->view_rc[1] ? NULL : &c->view[1];
}

/*
 * "+w" after the words so far, cut to fit as snprintf would; copied, not
 * formatted: trafficstatus fills a policy for every Child SA it lists.
 */
static void add_word(char *buf, size_t len, bool on, const char *w)
{
	size_t n = strlen(buf), room, k;

	if (!on || n >= len)
		return;
	room = len - n - 1;
	if (n && room) {
		buf[n++] = '+';
		room--;
	}
	k = strlen(w);
	if (k > room)
		k = room;
	memcpy(buf + n, w, k);
	buf[n + k] = '\0';
}

/*
 * libreswan 4's PLUTO_CONN_POLICY for what ikebana's conns can be: the
 * IKE version, then prettypolicy()'s words in its bit order.
 */
static void conn_policy(const struct conn *conn, const struct conn_view *v,
			char *buf, size_t len)
{
	unsigned m = v ? v->local.auth.methods : 0;
	unsigned esn = conn ? conn_props_esn(conn->esp) : 0;

	buf[0] = '\0';
	add_word(buf, len, true, "IKEv2");
	add_word(buf, len, m & AUTHM_PSK, "PSK");
	add_word(buf, len, m & AUTHM_RSA, "RSASIG");
	add_word(buf, len, m & AUTHM_ECDSA, "ECDSA");
	add_word(buf, len, m & AUTHM_NULL, "AUTH_NULL");
	add_word(buf, len, true, "ENCRYPT");
	add_word(buf, len, v && v->mode == IKB_MODE_TUNNEL, "TUNNEL");
	add_word(buf, len, conn && conn->pfs, "PFS");
	add_word(buf, len, conn && !conn->rekey, "DONT_REKEY");
	add_word(buf, len, conn && conn->auto_start, "UP");
	add_word(buf, len, conn && conn->frag, "IKE_FRAG_ALLOW");
	add_word(buf, len, conn && conn->mobike, "MOBIKE");
	add_word(buf, len, esn & CONN_ESN_NO, "ESN_NO");
	add_word(buf, len, esn & CONN_ESN_YES, "ESN_YES");
}

void child_info_fill(const struct ike_sa *sa, const struct child_sa *c,
		     char *alg, size_t alg_len, struct ike_child_info *i)
{
	const struct conn_view *v = sa_view(sa);

	esp_alg(&c->prop, alg, alg_len);
	*i = (struct ike_child_info){
		.conn = sa->conn,
		.ike_serial = sa->serial,
		.spi_i = sa->spi_i,
		.spi_r = sa->spi_r,
		.local_id = ike_sa_id_text(&sa->local_id),
		.remote_id = ike_sa_id_text(&sa->remote_id),
		.reqid = c->reqid,
		.mode = c->mode,
		.alg = alg,
		.kernel_alg = kernel_alg(c),
		.created = c->created,
		.spi_in = c->spi_in,
		.spi_out = c->spi_out,
		.in = c->sa_in_done ? &c->sa_in : NULL,
		.out = c->sa_out_done ? &c->sa_out : NULL,
		.ts = c->ts,
		.updown = v ? v->local.updown : NULL,
	};
	/* the address of the family of the peer's subnet */
	if (v)
		i->sourceip = v->local.sourceip[c->ts.dst.family == AF_INET6];
	conn_policy(v ? v->conn : NULL, v, i->policy, sizeof(i->policy));
}

unsigned ike_engine_foreach_child(const struct ike_engine *e, const char *conn,
				  ike_child_fn *fn, void *ctx)
{
	struct ike_child_info info;
	char alg[128];
	unsigned n = 0;

	for (const struct ike_sa *sa = e->all; sa; sa = sa->next_all) {
		if (conn && strcmp(sa->conn, conn) != 0)
			continue;
		for (const struct child_sa *c = sa->children; c; c = c->next) {
			if (!c->sa_in_done && !c->sa_out_done)
				continue;
			if (fn) {
				child_info_fill(sa, c, alg, sizeof(alg), &info);
				fn(ctx, &info);
			}
			n++;
		}
	}
	return n;
}

const struct ike_sa *ike_engine_next_sa(const struct ike_engine *e,
					const struct ike_sa *prev)
{
	return prev ? prev->next_all : e->all;
}
