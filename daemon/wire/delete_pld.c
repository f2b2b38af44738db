// SPDX-License-Identifier: GPL-2.0-or-later
/* Delete payload (RFC 7296 §3.11). */
#include "wire/internal.h"

static int delete_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	uint8_t proto, spi_size;
	uint16_t count;

	if (len < 4)
		return wire_fail(
			c, "length",
			"body %zu bytes, need 4 for protocol, SPI size and count",
			len);
	proto = b[0];
	spi_size = b[1];
	count = wire_get16(b + 2);
	switch (proto) {
	case IKB_PROTO_IKE:
		if (spi_size != 0 || count != 0)
			return wire_fail(
				c, "SPI size",
				"IKE SA delete with SPI size %u and count %u, both must be 0",
				spi_size, count);
		break;
	case IKB_PROTO_AH:
	case IKB_PROTO_ESP:
		if (spi_size != 4)
			return wire_fail(
				c, "SPI size",
				"SPI size %u, must be 4 for protocol %u",
				spi_size, proto);
		if (count == 0)
			return wire_fail(c, "SPI count", "SPI count 0");
		break;
	default:
		return wire_fail(c, "protocol", "protocol %u unknown", proto);
	}
	if ((size_t)spi_size * count != len - 4)
		return wire_fail(
			c, "SPI count",
			"SPI size %u x count %u = %zu does not match remaining %zu",
			spi_size, count, (size_t)spi_size * count, len - 4);
	return 0;
}

static void delete_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
			 struct wire_payload *out)
{
	out->u.del.protocol = b[0];
	out->u.del.spi_size = b[1];
	out->u.del.n_spi = wire_get16(b + 2);
	out->u.del.spis = len > 4 ? b + 4 : NULL;
}

static int delete_emit(struct wire_ectx *c, const struct wire_payload *p,
		       struct wbuf *o)
{
	const struct wire_delete *d = &p->u.del;

	wbuf_u8(o, d->protocol);
	wbuf_u8(o, d->spi_size);
	wbuf_u16(o, d->n_spi);
	wbuf_put(o, d->spis, (size_t)d->spi_size * d->n_spi);
	return 0;
}

const struct wire_pld_ops wire_delete_ops = {
	.validate = delete_validate,
	.parse = delete_parse,
	.emit = delete_emit,
};
