// SPDX-License-Identifier: GPL-2.0-or-later
/* AUTH payload (RFC 7296 §3.8, RFC 7427 Digital Signature). */
#include "wire/internal.h"

#define AUTH_DIGITAL_SIGNATURE 14

static int auth_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	if (len < 4)
		return wire_fail(
			c, "length",
			"body %zu bytes, need 4 for method and reserved", len);
	if (b[0] == 0)
		return wire_fail(c, "auth method", "Auth Method 0 is reserved");
	if (len == 4)
		return wire_fail(c, "authentication data",
				 "authentication data is empty");
	/* RFC 7427 §3: length-prefixed AlgorithmIdentifier, then signature */
	if (b[0] == AUTH_DIGITAL_SIGNATURE && (size_t)b[4] + 1 >= len - 4)
		return wire_fail(
			c, "signature algorithm",
			"AlgorithmIdentifier length %u leaves no signature in %zu bytes",
			b[4], len - 4);
	return 0;
}

static void auth_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
		       struct wire_payload *out)
{
	out->u.auth.type = b[0];
	out->u.auth.data = b + 4;
	out->u.auth.len = len - 4;
}

static int auth_emit(struct wire_ectx *c, const struct wire_payload *p,
		     struct wbuf *o)
{
	wbuf_u8(o, p->u.auth.type);
	wbuf_reserve(o, 3);
	wbuf_put(o, p->u.auth.data, p->u.auth.len);
	return 0;
}

const struct wire_pld_ops wire_auth_ops = {
	.validate = auth_validate,
	.parse = auth_parse,
	.emit = auth_emit,
};
