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
#include <string.h>

#include "ike/engine.h"
#include "ike/conn.h"
#include "ike/ts.h"

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
