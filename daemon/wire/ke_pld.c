// SPDX-License-Identifier: GPL-2.0-or-later
/* KE payload (RFC 7296 §3.4): group, reserved, key exchange data. */
#include "wire/internal.h"

/* Fixed public value sizes (RFC 7296 App. B, RFC 3526, 5903, 5114, 7748). */
static const struct {
	uint16_t group, len;
} ke_lens[] = {
	{ 1, 96 },   { 2, 128 },  { 5, 192 },	{ 14, 256 }, { 15, 384 },
	{ 16, 512 }, { 17, 768 }, { 18, 1024 }, { 19, 64 },  { 20, 96 },
	{ 21, 132 }, { 22, 128 }, { 23, 256 },	{ 24, 256 }, { 25, 48 },
	{ 26, 56 },  { 27, 56 },  { 28, 64 },	{ 29, 96 },  { 30, 128 },
	{ 31, 32 },  { 32, 56 },
};

size_t wire_ke_len(uint16_t group)
{
	size_t i;

	for (i = 0; i < sizeof(ke_lens) / sizeof(ke_lens[0]); i++)
		if (ke_lens[i].group == group)
			return ke_lens[i].len;
	return 0; /* unknown, or not fixed (ML-KEM differs by direction) */
}

static int ke_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	uint16_t group;
	size_t want;

	if (len < 4)
		return wire_fail(
			c, "length",
			"body %zu bytes, need 4 for group and reserved", len);
	group = wire_get16(b);
	if (group == 0)
		return wire_fail(c, "group", "group 0 is reserved");
	if (len == 4)
		return wire_fail(c, "key exchange data",
				 "key exchange data is empty");
	want = wire_ke_len(group);
	if (want && len - 4 != want)
		return wire_fail(
			c, "key exchange data",
			"key exchange data %zu bytes, group %u needs %zu",
			len - 4, group, want);
	return 0;
}

static void ke_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
		     struct wire_payload *out)
{
	out->u.ke.group = wire_get16(b);
	out->u.ke.data = b + 4;
	out->u.ke.len = len - 4;
}

static int ke_emit(struct wire_ectx *c, const struct wire_payload *p,
		   struct wbuf *o)
{
	wbuf_u16(o, p->u.ke.group);
	wbuf_u16(o, 0);
	wbuf_put(o, p->u.ke.data, p->u.ke.len);
	return 0;
}

const struct wire_pld_ops wire_ke_ops = {
	.validate = ke_validate,
	.parse = ke_parse,
	.emit = ke_emit,
};
