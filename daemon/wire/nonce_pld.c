// SPDX-License-Identifier: GPL-2.0-or-later
/* Nonce payload (RFC 7296 §3.9): 16 to 256 octets. */
#include "wire/internal.h"

#define NONCE_MIN 16
#define NONCE_MAX 256

static int nonce_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	if (len < NONCE_MIN || len > NONCE_MAX)
		return wire_fail(c, "nonce data",
				 "nonce %zu bytes, must be 16 to 256", len);
	return 0;
}

static void nonce_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
			struct wire_payload *out)
{
	out->u.nonce.data = b;
	out->u.nonce.len = len;
}

static int nonce_emit(struct wire_ectx *c, const struct wire_payload *p,
		      struct wbuf *o)
{
	wbuf_put(o, p->u.nonce.data, p->u.nonce.len);
	return 0;
}

const struct wire_pld_ops wire_nonce_ops = {
	.validate = nonce_validate,
	.parse = nonce_parse,
	.emit = nonce_emit,
};
