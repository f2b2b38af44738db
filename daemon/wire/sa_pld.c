// SPDX-License-Identifier: GPL-2.0-or-later
/* SA payload: proposals, transforms, attributes (RFC 7296 §3.3). */
#include <string.h>

#include "wire/internal.h"

#define PROP_HDR 8
#define XF_HDR 8
#define ATTR_KEY_LENGTH 14
#define ATTR_AF 0x8000
#define LAST_PROP 2
#define LAST_XF 3

static bool xform_type_known(uint8_t type)
{
	return type >= 1 && type <= 12; /* 6..12: ADDKE1..7, RFC 9370 */
}

static int validate_attrs(struct wire_ctx *c, unsigned pi, unsigned ti,
			  const uint8_t *b, size_t len)
{
	size_t off = 0;
	unsigned k = 0;
	bool key_len = false;

	while (off < len) {
		size_t rem = len - off, alen = 4;
		uint16_t t, v;

		k++;
		if (rem < 4)
			return wire_fail(
				c, "attribute length",
				"proposal %u: transform %u: attribute %u: %zu bytes left, need 4",
				pi, ti, k, rem);
		t = wire_get16(b + off);
		v = wire_get16(b + off + 2);
		if (!(t & ATTR_AF)) {
			if (v > rem - 4)
				return wire_fail(
					c, "attribute length",
					"proposal %u: transform %u: attribute %u: length %u exceeds transform remaining %zu",
					pi, ti, k, v, rem - 4);
			alen += v;
		}
		if ((t & ~ATTR_AF) == ATTR_KEY_LENGTH) {
			if (!(t & ATTR_AF))
				return wire_fail(
					c, "attribute format",
					"proposal %u: transform %u: attribute %u: Key Length in TLV format, must be TV",
					pi, ti, k);
			if (v == 0)
				return wire_fail(
					c, "key length",
					"proposal %u: transform %u: attribute %u: Key Length 0",
					pi, ti, k);
			if (key_len)
				return wire_fail(
					c, "key length",
					"proposal %u: transform %u: attribute %u: duplicate Key Length",
					pi, ti, k);
			key_len = true;
		}
		off += alen;
	}
	return 0;
}

static int validate_xforms(struct wire_ctx *c, unsigned pi, unsigned nxf,
			   const uint8_t *b, size_t len)
{
	size_t off = 0;
	unsigned ti;
	int r;

	for (ti = 1; ti <= nxf; ti++) {
		size_t rem = len - off, tlen;
		uint8_t last;

		if (rem < XF_HDR)
			return wire_fail(
				c, "transform count",
				"proposal %u: transform %u of %u: %zu bytes left in proposal, need 8",
				pi, ti, nxf, rem);
		last = b[off];
		tlen = wire_get16(b + off + 2);
		if (last != 0 && last != LAST_XF)
			return wire_fail(
				c, "transform last substruc",
				"proposal %u: transform %u: Last Substruc %u is neither 0 nor 3",
				pi, ti, last);
		if (tlen < XF_HDR)
			return wire_fail(
				c, "transform length",
				"proposal %u: transform %u: length %zu is shorter than the transform header (8)",
				pi, ti, tlen);
		if (tlen > rem)
			return wire_fail(
				c, "transform length",
				"proposal %u: transform %u: length %zu exceeds proposal remaining %zu",
				pi, ti, tlen, rem);
		if ((last == 0) != (ti == nxf))
			return wire_fail(
				c, "transform last substruc",
				"proposal %u: transform %u: Last Substruc %u, but Num Transforms is %u",
				pi, ti, last, nxf);
		r = validate_attrs(c, pi, ti, b + off + XF_HDR, tlen - XF_HDR);
		if (r)
			return r;
		off += tlen;
	}
	if (off != len)
		return wire_fail(
			c, "transform count",
			"proposal %u: %zu bytes after the last of %u transforms",
			pi, len - off, nxf);
	return 0;
}

static int check_spi_size(struct wire_ctx *c, unsigned pi, uint8_t proto,
			  uint8_t spi_size)
{
	bool ok;

	switch (proto) {
	case IKB_PROTO_IKE:
		ok = spi_size == 0 || spi_size == 8;
		break;
	case IKB_PROTO_AH:
	case IKB_PROTO_ESP:
		ok = spi_size == 4;
		break;
	default:
		ok = spi_size <= 8;
		break;
	}
	if (!ok)
		return wire_fail(
			c, "SPI size",
			"proposal %u: SPI size %u invalid for protocol %u", pi,
			spi_size, proto);
	return 0;
}

/* One proposal header at b, rem bytes left in the SA payload. */
static int validate_prop(struct wire_ctx *c, unsigned pi, uint8_t prev_num,
			 const uint8_t *b, size_t rem, size_t *plen_out)
{
	uint8_t last, num, proto, spi_size, nxf;
	size_t plen;
	int r;

	if (rem < PROP_HDR)
		return wire_fail(c, "proposal length",
				 "proposal %u: %zu bytes left, need 8", pi,
				 rem);
	last = b[0];
	plen = wire_get16(b + 2);
	num = b[4];
	proto = b[5];
	spi_size = b[6];
	nxf = b[7];
	if (last != 0 && last != LAST_PROP)
		return wire_fail(
			c, "proposal last substruc",
			"proposal %u: Last Substruc %u is neither 0 nor 2", pi,
			last);
	if (plen < PROP_HDR)
		return wire_fail(
			c, "proposal length",
			"proposal %u: length %zu is shorter than the proposal header (8)",
			pi, plen);
	if (plen > rem)
		return wire_fail(
			c, "proposal length",
			"proposal %u: length %zu exceeds SA payload remaining %zu",
			pi, plen, rem);
	if ((last == 0) != (plen == rem))
		return wire_fail(
			c, "proposal last substruc",
			"proposal %u: Last Substruc %u, but %zu bytes follow",
			pi, last, rem - plen);
	if (num == 0)
		return wire_fail(c, "proposal number", "proposal %u: number 0",
				 pi);
	/* §3.3.1: an offer counts from 1; an answer echoes the accepted one */
	if (pi == 1 && num != 1 && !(c->msg->hdr.flags & WIRE_FLAG_R))
		return wire_fail(c, "proposal number",
				 "proposal 1: number %u, a request starts at 1",
				 num);
	if (pi > 1 && num != prev_num + 1)
		return wire_fail(c, "proposal number",
				 "proposal %u: number %u does not follow %u",
				 pi, num, prev_num);
	r = check_spi_size(c, pi, proto, spi_size);
	if (r)
		return r;
	if (PROP_HDR + (size_t)spi_size > plen)
		return wire_fail(
			c, "SPI size",
			"proposal %u: SPI size %u exceeds proposal length %zu",
			pi, spi_size, plen);
	if (nxf == 0)
		return wire_fail(c, "transform count",
				 "proposal %u: no transforms", pi);
	if (nxf > WIRE_MAX_XFORMS)
		return wire_fail(c, "transform count",
				 "proposal %u: %u transforms (max %d)", pi, nxf,
				 WIRE_MAX_XFORMS);
	*plen_out = plen;
	return validate_xforms(c, pi, nxf, b + PROP_HDR + spi_size,
			       plen - PROP_HDR - spi_size);
}

static int sa_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	const struct wire_pool *pool = &c->msg->pool;
	size_t off = 0, plen = 0;
	unsigned pi = 0, xf_total = 0;
	uint8_t prev = 0;
	int r;

	if (len == 0)
		return wire_fail(c, "proposal count", "no proposals");
	while (off < len) {
		pi++;
		if (pi > WIRE_MAX_PROPOSALS)
			return wire_fail(c, "proposal count",
					 "more than %d proposals",
					 WIRE_MAX_PROPOSALS);
		if (pool->n_prop + pi > WIRE_POOL_PROPOSALS)
			return wire_fail(c, "proposal count",
					 "message has more than %d proposals",
					 WIRE_POOL_PROPOSALS);
		r = validate_prop(c, pi, prev, b + off, len - off, &plen);
		if (r)
			return r;
		xf_total += b[off + 7];
		if (pool->n_xf + xf_total > WIRE_POOL_XFORMS)
			return wire_fail(c, "transform count",
					 "message has more than %d transforms",
					 WIRE_POOL_XFORMS);
		prev = b[off + 4];
		off += plen;
	}
	/* §2.7: the responder accepts a single proposal */
	if (pi > 1 && (c->msg->hdr.flags & WIRE_FLAG_R))
		return wire_fail(c, "proposal count",
				 "%u proposals in a response, must be 1", pi);
	return 0;
}

static void parse_xform(const uint8_t *b, size_t tlen,
			struct wire_transform *xf)
{
	size_t off = XF_HDR;

	memset(xf, 0, sizeof(*xf));
	xf->type = b[4];
	xf->id = wire_get16(b + 6);
	while (off < tlen) {
		uint16_t t = wire_get16(b + off), v = wire_get16(b + off + 2);

		if (t == (ATTR_AF | ATTR_KEY_LENGTH))
			xf->key_bits = v;
		else
			xf->unknown_attr = true;
		off += 4 + ((t & ATTR_AF) ? 0 : v);
	}
}

static void sa_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
		     struct wire_payload *out)
{
	struct wire_pool *pool = &c->msg->pool;
	size_t off = 0;

	out->u.sa.prop = &pool->prop[pool->n_prop];
	out->u.sa.n_prop = 0;
	while (off < len) {
		struct wire_proposal *p = &pool->prop[pool->n_prop++];
		struct wire_transform *xf = &pool->xf[pool->n_xf];
		const uint8_t *q = b + off;
		size_t xoff;
		unsigned i;

		memset(p, 0, sizeof(*p));
		p->num = q[4];
		p->protocol = q[5];
		p->spi_size = q[6];
		p->n_xf = q[7];
		memcpy(p->spi, q + PROP_HDR, p->spi_size);
		p->unknown_protocol = p->protocol < IKB_PROTO_IKE ||
				      p->protocol > IKB_PROTO_ESP;
		p->xf = xf;
		xoff = PROP_HDR + p->spi_size;
		for (i = 0; i < p->n_xf; i++) {
			size_t tlen = wire_get16(q + xoff + 2);

			parse_xform(q + xoff, tlen, &xf[i]);
			if (!xform_type_known(xf[i].type))
				p->unknown_type = true;
			xoff += tlen;
		}
		pool->n_xf += p->n_xf;
		out->u.sa.n_prop++;
		off += wire_get16(q + 2);
	}
}

static void emit_xform(struct wbuf *o, const struct wire_transform *xf,
		       bool last)
{
	size_t start = o->len;

	wbuf_u8(o, last ? 0 : LAST_XF);
	wbuf_u8(o, 0);
	wbuf_u16(o, 0);
	wbuf_u8(o, xf->type);
	wbuf_u8(o, 0);
	wbuf_u16(o, xf->id);
	if (xf->key_bits) {
		wbuf_u16(o, ATTR_AF | ATTR_KEY_LENGTH);
		wbuf_u16(o, xf->key_bits);
	}
	wbuf_set_u16(o, start + 2, (uint16_t)(o->len - start));
}

static int sa_emit(struct wire_ectx *c, const struct wire_payload *pl,
		   struct wbuf *o)
{
	const struct wire_sa *sa = &pl->u.sa;
	unsigned i, j;

	if (sa->n_prop == 0)
		return wire_efail(c, "proposal count", "no proposals");
	for (i = 0; i < sa->n_prop; i++) {
		const struct wire_proposal *p = &sa->prop[i];
		size_t start = o->len;

		if (p->spi_size > sizeof(p->spi) || p->n_xf == 0)
			return wire_efail(
				c, "proposal",
				"proposal %u: SPI size %u, %u transforms",
				i + 1, p->spi_size, p->n_xf);
		wbuf_u8(o, i + 1 == sa->n_prop ? 0 : LAST_PROP);
		wbuf_u8(o, 0);
		wbuf_u16(o, 0);
		wbuf_u8(o, p->num);
		wbuf_u8(o, p->protocol);
		wbuf_u8(o, p->spi_size);
		wbuf_u8(o, p->n_xf);
		wbuf_put(o, p->spi, p->spi_size);
		for (j = 0; j < p->n_xf; j++)
			emit_xform(o, &p->xf[j], j + 1 == p->n_xf);
		if (o->len - start > UINT16_MAX)
			return wire_efail(
				c, "proposal length",
				"proposal %u: length %zu exceeds 65535", i + 1,
				o->len - start);
		wbuf_set_u16(o, start + 2, (uint16_t)(o->len - start));
	}
	return 0;
}

const struct wire_pld_ops wire_sa_ops = {
	.validate = sa_validate,
	.parse = sa_parse,
	.emit = sa_emit,
};
