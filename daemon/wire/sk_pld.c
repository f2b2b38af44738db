// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SK payload (RFC 7296 §3.14): the codec bounds IV, ciphertext and ICV and
 * tells crypto where they are; it never decrypts.
 */
#include <string.h>

#include "wire/internal.h"

static bool sizes_known(const struct wire_opts *o)
{
	return o && (o->iv_len || o->icv_len || o->block_len > 1);
}

/* The ciphertext holds at least the Pad Length octet. */
static int check_sizes(struct wire_ctx *c, size_t body_len,
		       const struct wire_opts *o)
{
	size_t ct;

	if (body_len < o->iv_len + o->icv_len + 1)
		return wire_fail(
			c, "encrypted data",
			"body %zu bytes, no room for IV %zu, ICV %zu and ciphertext",
			body_len, o->iv_len, o->icv_len);
	ct = body_len - o->iv_len - o->icv_len;
	if (o->block_len > 1 && ct % o->block_len)
		return wire_fail(
			c, "encrypted data",
			"ciphertext %zu bytes is not a multiple of the block size %zu",
			ct, o->block_len);
	return 0;
}

int wire_sk_check_body(struct wire_ctx *c, size_t body_len)
{
	if (body_len == 0)
		return wire_fail(c, "encrypted data", "body is empty");
	if (sizes_known(c->opts))
		return check_sizes(c, body_len, c->opts);
	return 0;
}

static int sk_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	return wire_sk_check_body(c, len);
}

static void sk_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
		     struct wire_payload *out)
{
	out->u.sk.inner_type = c->next;
	out->u.sk.body = b;
	out->u.sk.body_len = len;
	out->u.sk.msg_off = c->pld_off;
	out->u.sk.hdr_len = WIRE_GENERIC_LEN;
}

static int sk_emit(struct wire_ectx *c, const struct wire_payload *p,
		   struct wbuf *o)
{
	size_t off = wbuf_reserve(o, p->u.sk.body_len);

	if (p->u.sk.body && !o->err)
		memcpy(o->data + off, p->u.sk.body, p->u.sk.body_len);
	if (c->info) {
		c->info->has_sk = true;
		c->info->sk_body_off = off;
		c->info->sk_body_len = p->u.sk.body_len;
	}
	return 0;
}

int wire_sk_split(const struct wire_payload *sk, const uint8_t *msg_start,
		  const struct wire_opts *sizes, struct wire_sk_parts *out,
		  struct wire_error *err)
{
	struct wire_ctx c = { .err = err };
	const struct wire_sk *s = &sk->u.sk;
	size_t start;
	int r;

	c.pld = sk->type == WIRE_PT_SKF ? "SKF payload" : "SK payload";
	if (sk->type != WIRE_PT_SK && sk->type != WIRE_PT_SKF)
		return wire_fail(&c, "type", "payload type %u is not SK or SKF",
				 sk->type);
	r = check_sizes(&c, s->body_len, sizes);
	if (r)
		return r;
	start = s->msg_off + s->hdr_len;
	out->iv_len = sizes->iv_len;
	out->icv_len = sizes->icv_len;
	out->ct_len = s->body_len - sizes->iv_len - sizes->icv_len;
	out->iv = s->body;
	out->ct = s->body + out->iv_len;
	out->icv = out->ct + out->ct_len;
	out->aad_len = start;
	out->integ_len = start + out->iv_len + out->ct_len;
	/* the body must really sit at msg_start + start */
	if (msg_start && msg_start + start != s->body)
		return wire_fail(&c, "offset",
				 "body is not at offset %zu of the message",
				 start);
	return 0;
}

const struct wire_pld_ops wire_sk_ops = {
	.validate = sk_validate,
	.parse = sk_parse,
	.emit = sk_emit,
};
