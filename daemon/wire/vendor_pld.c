// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Vendor ID payload (RFC 7296 §3.12), and the payloads kept opaque: EAP
 * (§3.16, handed whole to an EAP layer) and GSPM (RFC 6467).
 */
#include "wire/internal.h"

static int vid_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	if (len == 0)
		return wire_fail(c, "vendor ID", "vendor ID is empty");
	return 0;
}

static int raw_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	return 0;
}

static void opaque_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
			 struct wire_payload *out)
{
	out->u.raw.data = len ? b : NULL;
	out->u.raw.len = len;
}

static int opaque_emit(struct wire_ectx *c, const struct wire_payload *p,
		       struct wbuf *o)
{
	wbuf_put(o, p->u.raw.data, p->u.raw.len);
	return 0;
}

const struct wire_pld_ops wire_vid_ops = {
	.validate = vid_validate,
	.parse = opaque_parse,
	.emit = opaque_emit,
};

const struct wire_pld_ops wire_raw_ops = {
	.validate = raw_validate,
	.parse = opaque_parse,
	.emit = opaque_emit,
};
