// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The payload chain walk: for each payload, bound its generic header and
 * length by what remains, then validate its body, and only then parse it
 * (RFC 7296 §3.2). Critical-bit handling follows §2.5.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wire/internal.h"

void wire_set_error(struct wire_error *err, const char *payload,
		    const char *field, const char *fmt, ...)
{
	va_list ap;
	int n;

	memset(err, 0, sizeof(*err));
	snprintf(err->payload, sizeof(err->payload), "%s", payload);
	snprintf(err->field, sizeof(err->field), "%s", field);
	n = snprintf(err->msg, sizeof(err->msg), "%s: ", payload);
	if (n < 0 || (size_t)n >= sizeof(err->msg))
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	err->notify = WIRE_N_INVALID_SYNTAX;
}

static void wire_vfail(struct wire_error *err, const char *pld,
		       const char *field, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static void wire_vfail(struct wire_error *err, const char *pld,
		       const char *field, const char *fmt, va_list ap)
{
	char text[200];

	vsnprintf(text, sizeof(text), fmt, ap);
	wire_set_error(err, pld ? pld : "message", field, "%s", text);
}

int wire_fail(struct wire_ctx *c, const char *field, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wire_vfail(c->err, c->pld, field, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

int wire_efail(struct wire_ectx *c, const char *field, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wire_vfail(c->err, c->pld, field, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const struct wire_pld_ops *wire_ops(uint8_t type)
{
	static const struct wire_pld_ops *const ops[UINT8_MAX + 1] = {
		[WIRE_PT_SA] = &wire_sa_ops,
		[WIRE_PT_KE] = &wire_ke_ops,
		[WIRE_PT_IDI] = &wire_id_ops,
		[WIRE_PT_IDR] = &wire_id_ops,
		[WIRE_PT_CERT] = &wire_cert_ops,
		[WIRE_PT_CERTREQ] = &wire_certreq_ops,
		[WIRE_PT_AUTH] = &wire_auth_ops,
		[WIRE_PT_NONCE] = &wire_nonce_ops,
		[WIRE_PT_NOTIFY] = &wire_notify_ops,
		[WIRE_PT_DELETE] = &wire_delete_ops,
		[WIRE_PT_VID] = &wire_vid_ops,
		[WIRE_PT_TSI] = &wire_ts_ops,
		[WIRE_PT_TSR] = &wire_ts_ops,
		[WIRE_PT_SK] = &wire_sk_ops,
		[WIRE_PT_CP] = &wire_cp_ops,
		[WIRE_PT_EAP] = &wire_raw_ops, /* handed whole to EAP */
		[WIRE_PT_GSPM] = &wire_raw_ops,
		[WIRE_PT_SKF] = &wire_skf_ops,
	};

	return ops[type];
}

static void set_pld_name(struct wire_ctx *c, uint8_t type,
			 const struct wire_pld_ops *ops)
{
	if (ops && wire_payload_name(type))
		snprintf(c->pld_buf, sizeof(c->pld_buf), "%s payload",
			 wire_payload_name(type));
	else
		snprintf(c->pld_buf, sizeof(c->pld_buf), "payload type %u",
			 type);
	c->pld = c->pld_buf;
}

static bool is_encrypted(uint8_t type)
{
	return type == WIRE_PT_SK || type == WIRE_PT_SKF;
}

/* §2.5: unknown critical → reject; unknown non-critical → skip, but record. */
static int unknown_payload(struct wire_ctx *c, uint8_t type, bool critical,
			   const uint8_t *b, size_t len,
			   struct wire_payload *out)
{
	if (critical) {
		wire_fail(c, "critical",
			  "critical payload type %u not supported", type);
		c->err->notify = WIRE_N_UNSUPPORTED_CRITICAL_PAYLOAD;
		c->err->notify_data = type;
		c->err->has_notify_data = true;
		return -EBADMSG;
	}
	out->known = false;
	out->u.raw.data = len ? b : NULL;
	out->u.raw.len = len;
	return 0;
}

static int one_payload(struct wire_ctx *c, uint8_t type, const uint8_t *p,
		       size_t rem, size_t *plen_out)
{
	const struct wire_pld_ops *ops = wire_ops(type);
	struct wire_payload *out;
	size_t plen;
	bool critical;
	int r;

	set_pld_name(c, type, ops);
	if (c->inner && is_encrypted(type))
		return wire_fail(c, "type",
				 "not allowed inside an encrypted payload");
	if (rem == 0)
		return wire_fail(
			c, "next payload",
			"announced by the previous Next Payload, but the message ends");
	if (rem < WIRE_GENERIC_LEN)
		return wire_fail(
			c, "generic header",
			"%zu bytes left, need 4 for the generic header", rem);
	if (c->msg->n >= WIRE_MAX_PAYLOADS)
		return wire_fail(c, "payload count",
				 "too many payloads (more than %d)",
				 WIRE_MAX_PAYLOADS);
	c->next = p[0];
	critical = p[1] & 0x80;
	plen = wire_get16(p + 2);
	if (plen < WIRE_GENERIC_LEN)
		return wire_fail(
			c, "length",
			"length %zu is shorter than the generic header (4)",
			plen);
	if (plen > rem)
		return wire_fail(c, "length",
				 "length %zu exceeds remaining %zu", plen, rem);
	if (is_encrypted(type) && ops && plen != rem)
		return wire_fail(
			c, "length",
			"length %zu leaves %zu bytes after it, but it must be the last payload",
			plen, rem - plen);

	out = &c->msg->pl[c->msg->n];
	memset(out, 0, sizeof(*out));
	out->type = type;
	out->critical = critical;
	out->inner = c->inner;
	out->known = true;
	if (!ops) {
		r = unknown_payload(c, type, critical, p + 4, plen - 4, out);
	} else {
		r = ops->validate(c, p + 4, plen - 4);
		if (!r)
			ops->parse(c, p + 4, plen - 4, out);
	}
	if (r)
		return r;
	c->msg->n++;
	*plen_out = plen;
	return 0;
}

static int walk(struct wire_ctx *c, const uint8_t *p, size_t len,
		size_t base_off, uint8_t type)
{
	size_t off = 0, plen = 0;
	int r;

	while (type != WIRE_PT_NONE) {
		c->pld_off = base_off + off;
		r = one_payload(c, type, p + off, len - off, &plen);
		if (r)
			return r;
		off += plen;
		if (is_encrypted(type) && !c->inner)
			return 0; /* its Next Payload names the inner chain */
		type = c->next;
	}
	if (off != len) {
		c->pld = "payload chain";
		return wire_fail(c, "length",
				 "%zu bytes after the last payload", len - off);
	}
	return 0;
}

static void ctx_init(struct wire_ctx *c, struct wire_msg *msg,
		     const uint8_t *base, const struct wire_opts *opts,
		     struct wire_error *err)
{
	memset(c, 0, sizeof(*c));
	c->err = err;
	c->msg = msg;
	c->base = base;
	c->opts = opts;
}

int wire_parse_body(struct wire_msg *msg, const struct wire_hdr *hdr,
		    const uint8_t *buf, size_t len,
		    const struct wire_opts *opts, struct wire_error *err)
{
	struct wire_ctx c;

	memset(err, 0, sizeof(*err));
	msg->n = 0;
	memset(&msg->pool, 0, sizeof(msg->pool));
	msg->hdr = *hdr;
	ctx_init(&c, msg, buf, opts, err);
	return walk(&c, buf + WIRE_HDR_LEN, len - WIRE_HDR_LEN, WIRE_HDR_LEN,
		    msg->hdr.next_payload);
}

int wire_parse(struct wire_msg *msg, const uint8_t *buf, size_t len,
	       const struct wire_opts *opts, struct wire_error *err)
{
	struct wire_hdr hdr;
	int r;

	memset(err, 0, sizeof(*err));
	r = wire_parse_hdr(&hdr, buf, len, err);
	if (r)
		return r;
	return wire_parse_body(msg, &hdr, buf, len, opts, err);
}

int wire_parse_payloads(struct wire_msg *msg, const uint8_t *plain, size_t len,
			uint8_t first_type, struct wire_error *err)
{
	struct wire_ctx c;

	memset(err, 0, sizeof(*err));
	ctx_init(&c, msg, plain, NULL, err);
	c.inner = true;
	c.pld = "SK payload";
	return walk(&c, plain, len, 0, first_type);
}

int wire_parse_inner(struct wire_msg *msg, const uint8_t *plain, size_t len,
		     uint8_t first_type, struct wire_error *err)
{
	struct wire_ctx c;
	size_t pad;

	memset(err, 0, sizeof(*err));
	ctx_init(&c, msg, plain, NULL, err);
	c.pld = "SK payload";
	if (len == 0)
		return wire_fail(&c, "pad length",
				 "plaintext is empty, no Pad Length");
	pad = plain[len - 1];
	if (pad + 1 > len)
		return wire_fail(&c, "pad length",
				 "Pad Length %zu exceeds plaintext %zu", pad,
				 len - 1);
	return wire_parse_payloads(msg, plain, len - pad - 1, first_type, err);
}
