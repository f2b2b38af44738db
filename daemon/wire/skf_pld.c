// SPDX-License-Identifier: GPL-2.0-or-later
/* Encrypted Fragment payload (RFC 7383 §2.5). */
#include <string.h>

#include "wire/internal.h"

#define SKF_HDR 4

static int skf_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	uint16_t num, total;

	if (len < SKF_HDR)
		return wire_fail(
			c, "length",
			"body %zu bytes, need 4 for Fragment Number and Total Fragments",
			len);
	num = wire_get16(b);
	total = wire_get16(b + 2);
	if (num == 0)
		return wire_fail(c, "fragment number", "Fragment Number 0");
	if (total == 0)
		return wire_fail(c, "total fragments", "Total Fragments 0");
	if (num > total)
		return wire_fail(
			c, "fragment number",
			"Fragment Number %u exceeds Total Fragments %u", num,
			total);
	if (num > 1 && c->next != WIRE_PT_NONE)
		return wire_fail(
			c, "next payload",
			"Next Payload %u in fragment %u, must be 0 after the first",
			c->next, num);
	return wire_sk_check_body(c, len - SKF_HDR);
}

static void skf_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
		      struct wire_payload *out)
{
	out->u.sk.inner_type = c->next;
	out->u.sk.frag_num = wire_get16(b);
	out->u.sk.frag_total = wire_get16(b + 2);
	out->u.sk.body = b + SKF_HDR;
	out->u.sk.body_len = len - SKF_HDR;
	out->u.sk.msg_off = c->pld_off;
	out->u.sk.hdr_len = WIRE_GENERIC_LEN + SKF_HDR;
}

static int skf_emit(struct wire_ectx *c, const struct wire_payload *p,
		    struct wbuf *o)
{
	const struct wire_sk *s = &p->u.sk;
	size_t off;

	if (s->frag_num == 0 || s->frag_num > s->frag_total)
		return wire_efail(c, "fragment number",
				  "Fragment Number %u of %u", s->frag_num,
				  s->frag_total);
	wbuf_u16(o, s->frag_num);
	wbuf_u16(o, s->frag_total);
	off = wbuf_reserve(o, s->body_len);
	if (s->body && !o->err)
		memcpy(o->data + off, s->body, s->body_len);
	if (c->info) {
		c->info->has_sk = true;
		c->info->sk_body_off = off;
		c->info->sk_body_len = s->body_len;
	}
	return 0;
}

const struct wire_pld_ops wire_skf_ops = {
	.validate = skf_validate,
	.parse = skf_parse,
	.emit = skf_emit,
};
