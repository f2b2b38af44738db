// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Message and chain emitters: generic headers, Next Payload chaining and
 * every length are computed here, so callers never get them wrong.
 */
#include <stdio.h>
#include <string.h>

#include "wire/internal.h"

static bool is_encrypted(uint8_t type)
{
	return type == WIRE_PT_SK || type == WIRE_PT_SKF;
}

static void set_name(struct wire_ectx *c, uint8_t type)
{
	const char *name = wire_payload_name(type);

	if (name)
		snprintf(c->pld_buf, sizeof(c->pld_buf), "%s payload", name);
	else
		snprintf(c->pld_buf, sizeof(c->pld_buf), "payload type %u",
			 type);
	c->pld = c->pld_buf;
}

static int emit_one(struct wire_ectx *c, const struct wire_payload *p,
		    uint8_t next, struct wbuf *o)
{
	const struct wire_pld_ops *ops = wire_ops(p->type);
	size_t start = o->len, len;
	int r;

	set_name(c, p->type);
	if (is_encrypted(p->type))
		next = p->u.sk.inner_type;
	wbuf_u8(o, next);
	wbuf_u8(o, p->critical ? 0x80 : 0);
	wbuf_u16(o, 0);
	if (is_encrypted(p->type) && c->info)
		c->info->sk_off = start;
	if (ops && p->known)
		r = ops->emit(c, p, o);
	else
		r = wire_raw_ops.emit(c, p, o);
	if (r)
		return r;
	len = o->len - start;
	if (len > UINT16_MAX)
		return wire_efail(c, "length", "length %zu exceeds 65535", len);
	wbuf_set_u16(o, start + 2, (uint16_t)len);
	return 0;
}

static int buf_error(struct wbuf *o, struct wire_error *err)
{
	if (!o->err)
		return 0;
	wire_set_error(err, "emit", "buffer",
		       o->err == -ENOMEM ? "out of memory" :
					   "message exceeds the buffer limit");
	err->notify = 0;
	return o->err;
}

/* Emits pl[i] for every i with pl[i].inner == inner, chained in order. */
static int emit_list(struct wire_ectx *c, const struct wire_payload *pl,
		     unsigned n, bool inner, struct wbuf *o)
{
	unsigned i, j;
	int r;

	for (i = 0; i < n; i++) {
		uint8_t next = WIRE_PT_NONE;

		if (pl[i].inner != inner)
			continue;
		for (j = i + 1; j < n; j++)
			if (pl[j].inner == inner) {
				next = pl[j].type;
				break;
			}
		set_name(c, pl[i].type);
		if (is_encrypted(pl[i].type) && next != WIRE_PT_NONE)
			return wire_efail(
				c, "order",
				"payload %u of type %u follows an encrypted payload",
				j + 1, next);
		r = emit_one(c, &pl[i], next, o);
		if (r)
			return r;
	}
	return 0;
}

static uint8_t first_of(const struct wire_payload *pl, unsigned n, bool inner)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (pl[i].inner == inner)
			return pl[i].type;
	return WIRE_PT_NONE;
}

int wire_emit(const struct wire_msg *msg, struct wbuf *out,
	      struct wire_emit_info *info, struct wire_error *err)
{
	struct wire_ectx c = { .err = err, .info = info };
	const struct wire_hdr *h = &msg->hdr;
	size_t start = out->len;
	uint8_t major = h->major ? h->major : 2;
	int r;

	memset(err, 0, sizeof(*err));
	if (info)
		memset(info, 0, sizeof(*info));
	if (msg->n > WIRE_MAX_PAYLOADS) {
		wire_set_error(err, "emit", "payload count",
			       "%u payloads (max %d)", msg->n,
			       WIRE_MAX_PAYLOADS);
		return -EINVAL;
	}
	wbuf_put(out, h->spi_i, 8);
	wbuf_put(out, h->spi_r, 8);
	wbuf_u8(out, first_of(msg->pl, msg->n, false));
	wbuf_u8(out, (uint8_t)(major << 4 | (h->minor & 0x0f)));
	wbuf_u8(out, h->exchange);
	wbuf_u8(out, h->flags);
	wbuf_u32(out, h->msgid);
	wbuf_u32(out, 0);
	r = emit_list(&c, msg->pl, msg->n, false, out);
	if (r)
		return r;
	if (out->len - start > UINT32_MAX) {
		wire_set_error(err, "IKE header", "length", "message too long");
		return -EINVAL;
	}
	wbuf_set_u32(out, start + 24, (uint32_t)(out->len - start));
	if (info && info->has_sk) {
		info->sk_off -= start;
		info->sk_body_off -= start;
	}
	return buf_error(out, err);
}

int wire_emit_chain(const struct wire_payload *pl, unsigned n, struct wbuf *out,
		    uint8_t *first_type, struct wire_error *err)
{
	struct wire_ectx c = { .err = err };
	unsigned i;
	int r;

	memset(err, 0, sizeof(*err));
	for (i = 0; i < n; i++) {
		set_name(&c, pl[i].type);
		if (is_encrypted(pl[i].type))
			return wire_efail(
				&c, "type",
				"payload %u: SK or SKF inside an encrypted chain",
				i + 1);
		r = emit_one(&c, &pl[i], i + 1 < n ? pl[i + 1].type : 0, out);
		if (r)
			return r;
	}
	if (first_type)
		*first_type = n ? pl[0].type : WIRE_PT_NONE;
	return buf_error(out, err);
}

int wire_sk_pad(struct wbuf *b, size_t start, size_t block_len)
{
	size_t len, pad = 0;

	if (start > b->len)
		return -EINVAL;
	len = b->len - start + 1; /* with the Pad Length octet */
	if (block_len > 1 && len % block_len)
		pad = block_len - len % block_len;
	if (pad > 255)
		return -EINVAL;
	wbuf_reserve(b, pad);
	wbuf_u8(b, (uint8_t)pad);
	return b->err;
}
