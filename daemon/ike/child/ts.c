// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Traffic selectors (RFC 7296 §2.9, §3.13). A conn's side is one prefix
 * with an optional protocol and port (leftsubnet=, leftprotoport=, the
 * host address when no subnet). The responder narrows: it intersects
 * each offered TS with its own and keeps the first non-empty result; the
 * initiator accepts the responder's TS only when it lies within its own.
 * The kernel takes one prefix and one port per side, so an intersection
 * that is not one is cut to the largest prefix at its start (a subset,
 * which §2.9 allows) and a port range that is not one port is refused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/child/ts.h"

struct range {
	size_t alen;
	uint8_t start[16], end[16];
	uint8_t proto;
	uint16_t sport, eport;
};

static void from_prefix(const struct ikb_addr *a, uint8_t plen, uint8_t proto,
			uint16_t port, struct range *r)
{
	r->alen = a->family == AF_INET ? 4 : 16;
	for (size_t i = 0; i < r->alen; i++) {
		unsigned bits = plen > i * 8 ? plen - i * 8 : 0;
		uint8_t mask = bits >= 8 ? 0xff : (uint8_t)(0xff << (8 - bits));

		r->start[i] = a->bytes[i] & mask;
		r->end[i] = a->bytes[i] | (uint8_t)~mask;
	}
	r->proto = proto;
	r->sport = port;
	r->eport = port ? port : 65535;
}

void ts_to_wire(const struct ikb_addr *a, uint8_t plen, uint8_t proto,
		uint16_t port, struct wire_ts *out)
{
	struct range r;

	from_prefix(a, plen, proto, port, &r);
	memset(out, 0, sizeof(*out));
	out->type =
		r.alen == 4 ? WIRE_TS_IPV4_ADDR_RANGE : WIRE_TS_IPV6_ADDR_RANGE;
	out->ip_proto = proto;
	out->start_port = r.sport;
	out->end_port = r.eport;
	memcpy(out->start, r.start, r.alen);
	memcpy(out->end, r.end, r.alen);
}

static bool intersect(struct range *a, const struct wire_ts *t)
{
	size_t n = a->alen;

	if ((n == 4) != (t->type == WIRE_TS_IPV4_ADDR_RANGE))
		return false;
	if (a->proto && t->ip_proto && a->proto != t->ip_proto)
		return false;
	a->proto = a->proto ? a->proto : t->ip_proto;
	if (memcmp(t->start, a->start, n) > 0)
		memcpy(a->start, t->start, n);
	if (memcmp(t->end, a->end, n) < 0)
		memcpy(a->end, t->end, n);
	a->sport = t->start_port > a->sport ? t->start_port : a->sport;
	a->eport = t->end_port < a->eport ? t->end_port : a->eport;
	return memcmp(a->start, a->end, n) <= 0 && a->sport <= a->eport;
}

/* The largest prefix that starts at r->start and stays within r. */
static uint8_t to_prefix(const struct range *r, struct ikb_addr *a)
{
	size_t n = r->alen;
	unsigned plen;

	for (plen = 0; plen < n * 8; plen++) {
		struct range b;

		memcpy(a->bytes, r->start, n);
		from_prefix(a, (uint8_t)plen, 0, 0, &b);
		if (!memcmp(b.start, r->start, n) &&
		    memcmp(b.end, r->end, n) <= 0)
			break;
	}
	memcpy(a->bytes, r->start, n);
	return (uint8_t)plen;
}

static bool port_of(const struct range *r, uint16_t *port)
{
	if (r->sport == r->eport)
		return *port = r->sport, true;
	if (r->sport == 0 && r->eport == 65535)
		return *port = 0, true;
	return false;
}

/*
 * One side: ours (prefix, proto, port) against the offered list. strict:
 * the result must equal the offered TS (initiator checking a response).
 */
static bool pick(const struct ikb_addr *a, uint8_t plen, uint8_t proto,
		 uint16_t port, const struct wire_ts_pld *pld, bool strict,
		 struct ikb_addr *oa, uint8_t *oplen, uint8_t *oproto,
		 uint16_t *oport)
{
	for (unsigned i = 0; pld && i < pld->n; i++) {
		const struct wire_ts *t = &pld->ts[i];
		struct range r;
		struct wire_ts back;

		from_prefix(a, plen, proto, port, &r);
		if (!intersect(&r, t) || !port_of(&r, oport))
			continue;
		oa->family = a->family;
		memset(oa->bytes, 0, sizeof(oa->bytes));
		*oplen = to_prefix(&r, oa);
		*oproto = r.proto;
		ts_to_wire(oa, *oplen, *oproto, *oport, &back);
		if (strict && (memcmp(back.start, t->start, r.alen) ||
			       memcmp(back.end, t->end, r.alen) ||
			       back.ip_proto != t->ip_proto ||
			       back.start_port != t->start_port ||
			       back.end_port != t->end_port))
			continue;
		return true;
	}
	return false;
}

int ts_select(const struct ikb_selector *ours, const struct wire_ts_pld *local,
	      const struct wire_ts_pld *remote, bool strict,
	      struct ikb_selector *out)
{
	uint8_t p1 = 0, p2 = 0;

	memset(out, 0, sizeof(*out));
	if (!pick(&ours->src, ours->src_plen, ours->proto, ours->sport, local,
		  strict, &out->src, &out->src_plen, &p1, &out->sport) ||
	    !pick(&ours->dst, ours->dst_plen, ours->proto, ours->dport, remote,
		  strict, &out->dst, &out->dst_plen, &p2, &out->dport))
		return -1;
	/* one protocol for the pair: the kernel selector has one */
	if (p1 && p2 && p1 != p2)
		return -1;
	out->proto = p1 ? p1 : p2;
	return 0;
}

int ts_set_of_conn(const struct conn_view *v, struct ts_set **out)
{
	struct ts_set *s;

	*out = NULL;
	if (v->local.nnets <= 1 && v->remote.nnets <= 1)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->nl = v->local.nnets;
	s->nr = v->remote.nnets;
	for (unsigned i = 0; i < s->nl; i++)
		s->l[i] = (struct ts_net){ v->local.nets[i].a,
					   v->local.nets[i].plen };
	for (unsigned i = 0; i < s->nr; i++)
		s->r[i] = (struct ts_net){ v->remote.nets[i].a,
					   v->remote.nets[i].plen };
	*out = s;
	return 0;
}

unsigned ts_set_pairs(const struct ts_set *s)
{
	return s ? (unsigned)s->nl * s->nr : 1;
}

void ts_set_pair(const struct ts_set *s, const struct ikb_selector *base,
		 unsigned i, struct ikb_selector *out)
{
	*out = *base;
	if (!s)
		return;
	out->src = s->l[i / s->nr].a;
	out->src_plen = s->l[i / s->nr].plen;
	out->dst = s->r[i % s->nr].a;
	out->dst_plen = s->r[i % s->nr].plen;
}

static bool nets_equal(const struct ts_net *a, const struct ts_net *b,
		       unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (a[i].plen != b[i].plen || !ike_addr_equal(&a[i].a, &b[i].a))
			return false;
	return true;
}

bool ts_set_equal(const struct ts_set *a, const struct ts_set *b)
{
	if (!a || !b)
		return a == b;
	return a->nl == b->nl && a->nr == b->nr &&
	       nets_equal(a->l, b->l, a->nl) && nets_equal(a->r, b->r, a->nr);
}

void ts_set_wire(const struct ts_set *s, const struct ikb_selector *pair,
		 bool initiator, struct wire_ts *ti, unsigned *ni,
		 struct wire_ts *tr, unsigned *nr)
{
	/* TSi is the initiator's side: ours when we initiated */
	const struct ts_net *in = initiator ? s->l : s->r;
	const struct ts_net *rn = initiator ? s->r : s->l;
	uint16_t iport = initiator ? pair->sport : pair->dport;
	uint16_t rport = initiator ? pair->dport : pair->sport;

	*ni = initiator ? s->nl : s->nr;
	*nr = initiator ? s->nr : s->nl;
	for (unsigned i = 0; i < *ni; i++)
		ts_to_wire(&in[i].a, in[i].plen, pair->proto, iport, &ti[i]);
	for (unsigned i = 0; i < *nr; i++)
		ts_to_wire(&rn[i].a, rn[i].plen, pair->proto, rport, &tr[i]);
}

static bool has_net(const struct ts_net *v, unsigned n, const struct ts_net *x)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i].plen == x->plen && ike_addr_equal(&v[i].a, &x->a))
			return true;
	return false;
}

/* One side of a set: every offered TS met by one of ours, narrowed. */
static bool pick_side(const struct ts_net *ours, unsigned n, uint8_t proto,
		      uint16_t port, const struct wire_ts_pld *pld, bool strict,
		      struct ts_net *out, uint8_t *nout, uint8_t *oproto)
{
	*nout = 0;
	for (unsigned t = 0; pld && t < pld->n; t++) {
		struct wire_ts_pld one = { 1, &pld->ts[t] };
		bool met = false;

		for (unsigned i = 0; i < n && *nout < TS_NETS_MAX; i++) {
			struct ts_net x;
			uint16_t p;

			if (!pick(&ours[i].a, ours[i].plen, proto, port, &one,
				  strict, &x.a, &x.plen, oproto, &p))
				continue;
			met = true;
			if (!has_net(out, *nout, &x))
				out[(*nout)++] = x;
			break;
		}
		if (strict && !met)
			return false; /* a TS of the responder's not ours */
	}
	return *nout > 0;
}

int ts_set_select(const struct ts_set *ours, const struct ikb_selector *pair,
		  const struct wire_ts_pld *local,
		  const struct wire_ts_pld *remote, bool strict,
		  struct ts_set *out, struct ikb_selector *first)
{
	uint8_t p1 = pair->proto, p2 = pair->proto;

	memset(out, 0, sizeof(*out));
	if (!pick_side(ours->l, ours->nl, pair->proto, pair->sport, local,
		       strict, out->l, &out->nl, &p1) ||
	    !pick_side(ours->r, ours->nr, pair->proto, pair->dport, remote,
		       strict, out->r, &out->nr, &p2) ||
	    (p1 && p2 && p1 != p2))
		return -1;
	ts_set_pair(out, pair, 0, first);
	first->proto = p1 ? p1 : p2;
	return 0;
}

void ts_from_conn(const struct conn_view *v, struct ikb_selector *sel)
{
	memset(sel, 0, sizeof(*sel));
	sel->src = v->local.net;
	sel->src_plen = v->local.plen;
	sel->dst = v->remote.net;
	sel->dst_plen = v->remote.plen;
	sel->proto = v->local.proto ? v->local.proto : v->remote.proto;
	sel->sport = v->local.port;
	sel->dport = v->remote.port;
}

void ts_fill_dynamic(struct ikb_selector *sel, const struct ike_path *p)
{
	if (sel->src.family == AF_UNSPEC) {
		sel->src = p->local;
		sel->src_plen = p->local.family == AF_INET ? 32 : 128;
	}
	if (sel->dst.family == AF_UNSPEC) {
		sel->dst = p->remote;
		sel->dst_plen = p->remote.family == AF_INET ? 32 : 128;
	}
}
