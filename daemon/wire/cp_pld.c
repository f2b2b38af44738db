// SPDX-License-Identifier: GPL-2.0-or-later
/* Configuration payload (RFC 7296 §3.15) and its attributes. */
#include "wire/internal.h"

#define CP_ATTR_HDR 4
#define ANY_LEN (-1)
#define PAIRS (-2)

/* §3.15.1: each attribute is empty (a request) or has its fixed length. */
static int cp_attr_len(uint16_t type)
{
	switch (type) {
	case 1: /* INTERNAL_IP4_ADDRESS */
	case 2: /* INTERNAL_IP4_NETMASK */
	case 3: /* INTERNAL_IP4_DNS */
	case 4: /* INTERNAL_IP4_NBNS */
	case 6: /* INTERNAL_IP4_DHCP */
		return 4;
	case 8: /* INTERNAL_IP6_ADDRESS */
	case 15: /* INTERNAL_IP6_SUBNET */
		return 17;
	case 10: /* INTERNAL_IP6_DNS */
	case 12: /* INTERNAL_IP6_DHCP */
		return 16;
	case 13: /* INTERNAL_IP4_SUBNET */
		return 8;
	case 14: /* SUPPORTED_ATTRIBUTES */
		return PAIRS;
	default: /* APPLICATION_VERSION and the unknown */
		return ANY_LEN;
	}
}

static int check_attr(struct wire_ctx *c, unsigned k, uint16_t type,
		      uint16_t alen)
{
	int want = cp_attr_len(type);

	if (want == PAIRS && alen % 2)
		return wire_fail(c, "attribute length",
				 "attribute %u: type %u length %u is odd", k,
				 type, alen);
	if (want > 0 && alen != 0 && alen != want)
		return wire_fail(
			c, "attribute length",
			"attribute %u: type %u length %u, must be 0 or %d", k,
			type, alen, want);
	return 0;
}

static int cp_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	size_t off = 4;
	unsigned k = 0;
	int r;

	if (len < 4)
		return wire_fail(
			c, "length",
			"body %zu bytes, need 4 for CFG type and reserved",
			len);
	if (b[0] < 1 || b[0] > 4)
		return wire_fail(c, "CFG type", "CFG Type %u unknown", b[0]);
	while (off < len) {
		size_t rem = len - off;
		uint16_t type, alen;

		k++;
		if (k > WIRE_MAX_CP_ATTRS)
			return wire_fail(c, "attribute count",
					 "more than %d attributes",
					 WIRE_MAX_CP_ATTRS);
		if (c->msg->pool.n_cp + k > WIRE_POOL_CP_ATTRS)
			return wire_fail(c, "attribute count",
					 "message has more than %d attributes",
					 WIRE_POOL_CP_ATTRS);
		if (rem < CP_ATTR_HDR)
			return wire_fail(c, "attribute length",
					 "attribute %u: %zu bytes left, need 4",
					 k, rem);
		type = wire_get16(b + off) & 0x7fff;
		alen = wire_get16(b + off + 2);
		if (alen > rem - CP_ATTR_HDR)
			return wire_fail(
				c, "attribute length",
				"attribute %u: length %u exceeds payload remaining %zu",
				k, alen, rem - CP_ATTR_HDR);
		r = check_attr(c, k, type, alen);
		if (r)
			return r;
		off += CP_ATTR_HDR + alen;
	}
	return 0;
}

static void cp_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
		     struct wire_payload *out)
{
	struct wire_pool *pool = &c->msg->pool;
	struct wire_cp_attr *a = &pool->cp[pool->n_cp];
	size_t off = 4;

	out->u.cp.cfg_type = b[0];
	out->u.cp.attr = a;
	out->u.cp.n_attr = 0;
	while (off < len) {
		a->type = wire_get16(b + off) & 0x7fff;
		a->len = wire_get16(b + off + 2);
		a->value = a->len ? b + off + CP_ATTR_HDR : NULL;
		off += CP_ATTR_HDR + a->len;
		a++;
		out->u.cp.n_attr++;
	}
	pool->n_cp += out->u.cp.n_attr;
}

static int cp_emit(struct wire_ectx *c, const struct wire_payload *p,
		   struct wbuf *o)
{
	unsigned i;

	wbuf_u8(o, p->u.cp.cfg_type);
	wbuf_reserve(o, 3);
	for (i = 0; i < p->u.cp.n_attr; i++) {
		const struct wire_cp_attr *a = &p->u.cp.attr[i];

		wbuf_u16(o, a->type & 0x7fff);
		wbuf_u16(o, a->len);
		wbuf_put(o, a->value, a->len);
	}
	return 0;
}

const struct wire_pld_ops wire_cp_ops = {
	.validate = cp_validate,
	.parse = cp_parse,
	.emit = cp_emit,
};
