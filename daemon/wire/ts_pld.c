// SPDX-License-Identifier: GPL-2.0-or-later
/* TSi and TSr payloads (RFC 7296 §3.13): IPv4 and IPv6 address ranges. */
#include <string.h>

#include "wire/internal.h"

#define TS_HDR 8

static size_t ts_addr_len(uint8_t type)
{
	switch (type) {
	case WIRE_TS_IPV4_ADDR_RANGE:
		return 4;
	case WIRE_TS_IPV6_ADDR_RANGE:
		return 16;
	default:
		return 0;
	}
}

static int ts_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	size_t off = 4;
	unsigned n, i;

	if (len < 4)
		return wire_fail(c, "length",
				 "body %zu bytes, need 4 for the number of TSs",
				 len);
	n = b[0];
	if (n == 0)
		return wire_fail(c, "number of TSs", "number of TSs is 0");
	if (n > WIRE_MAX_TS)
		return wire_fail(c, "number of TSs",
				 "number of TSs %u exceeds %d", n, WIRE_MAX_TS);
	if (c->msg->pool.n_ts + n > WIRE_POOL_TS)
		return wire_fail(c, "number of TSs",
				 "message has more than %d selectors",
				 WIRE_POOL_TS);
	for (i = 1; i <= n; i++) {
		size_t rem = len - off, alen, slen;
		uint8_t type;

		if (rem < TS_HDR)
			return wire_fail(
				c, "selector length",
				"selector %u of %u: %zu bytes left, need 8", i,
				n, rem);
		type = b[off];
		slen = wire_get16(b + off + 2);
		alen = ts_addr_len(type);
		if (!alen)
			return wire_fail(c, "TS type",
					 "selector %u: TS type %u unknown", i,
					 type);
		if (slen != TS_HDR + 2 * alen)
			return wire_fail(
				c, "selector length",
				"selector %u: length %zu, %s needs %zu", i,
				slen,
				alen == 4 ? "TS_IPV4_ADDR_RANGE" :
					    "TS_IPV6_ADDR_RANGE",
				TS_HDR + 2 * alen);
		if (slen > rem)
			return wire_fail(
				c, "selector length",
				"selector %u: length %zu exceeds payload remaining %zu",
				i, slen, rem);
		off += slen;
	}
	if (off != len)
		return wire_fail(c, "number of TSs",
				 "%zu bytes after %u selectors", len - off, n);
	return 0;
}

static void ts_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
		     struct wire_payload *out)
{
	struct wire_pool *pool = &c->msg->pool;
	struct wire_ts *ts = &pool->ts[pool->n_ts];
	size_t off = 4;
	unsigned i;

	out->u.ts.n = b[0];
	out->u.ts.ts = ts;
	for (i = 0; i < out->u.ts.n; i++) {
		const uint8_t *q = b + off;
		size_t alen = ts_addr_len(q[0]);

		memset(&ts[i], 0, sizeof(ts[i]));
		ts[i].type = q[0];
		ts[i].ip_proto = q[1];
		ts[i].start_port = wire_get16(q + 4);
		ts[i].end_port = wire_get16(q + 6);
		memcpy(ts[i].start, q + TS_HDR, alen);
		memcpy(ts[i].end, q + TS_HDR + alen, alen);
		off += TS_HDR + 2 * alen;
	}
	pool->n_ts += out->u.ts.n;
}

static int ts_emit(struct wire_ectx *c, const struct wire_payload *p,
		   struct wbuf *o)
{
	unsigned i;

	if (p->u.ts.n == 0)
		return wire_efail(c, "number of TSs", "number of TSs is 0");
	wbuf_u8(o, p->u.ts.n);
	wbuf_reserve(o, 3);
	for (i = 0; i < p->u.ts.n; i++) {
		const struct wire_ts *ts = &p->u.ts.ts[i];
		size_t alen = ts_addr_len(ts->type);

		if (!alen)
			return wire_efail(c, "TS type",
					  "selector %u: TS type %u unknown",
					  i + 1, ts->type);
		wbuf_u8(o, ts->type);
		wbuf_u8(o, ts->ip_proto);
		wbuf_u16(o, (uint16_t)(TS_HDR + 2 * alen));
		wbuf_u16(o, ts->start_port);
		wbuf_u16(o, ts->end_port);
		wbuf_put(o, ts->start, alen);
		wbuf_put(o, ts->end, alen);
	}
	return 0;
}

const struct wire_pld_ops wire_ts_ops = {
	.validate = ts_validate,
	.parse = ts_parse,
	.emit = ts_emit,
};
