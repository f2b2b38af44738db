// SPDX-License-Identifier: GPL-2.0-or-later
/* IDi and IDr payloads (RFC 7296 §3.5, RFC 7619 ID_NULL). */
#include "wire/internal.h"

/* Required data length of an ID type: 0 = any non-empty, -1 = unknown. */
static int id_data_len(uint8_t type)
{
	switch (type) {
	case 1:
		return 4; /* ID_IPV4_ADDR */
	case 5:
		return 16; /* ID_IPV6_ADDR */
	case 2: /* ID_FQDN */
	case 3: /* ID_RFC822_ADDR */
	case 9: /* ID_DER_ASN1_DN */
	case 10: /* ID_DER_ASN1_GN */
	case 11: /* ID_KEY_ID */
	case 12: /* ID_FC_NAME, RFC 4595 */
		return 0;
	case 13:
		return -2; /* ID_NULL: must be empty */
	default:
		return -1;
	}
}

static int id_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	int want;

	if (len < 4)
		return wire_fail(
			c, "length",
			"body %zu bytes, need 4 for ID type and reserved", len);
	want = id_data_len(b[0]);
	if (want == -1)
		return wire_fail(c, "ID type", "ID type %u unknown", b[0]);
	if (want == -2 && len != 4)
		return wire_fail(c, "identification data",
				 "ID_NULL with %zu bytes of data", len - 4);
	if (want == 0 && len == 4)
		return wire_fail(c, "identification data",
				 "identification data is empty");
	if (want > 0 && len - 4 != (size_t)want)
		return wire_fail(c, "identification data",
				 "%s with %zu bytes of data, needs %d",
				 wire_id_type_name(b[0]), len - 4, want);
	return 0;
}

static void id_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
		     struct wire_payload *out)
{
	out->u.id.type = b[0];
	out->u.id.data = len > 4 ? b + 4 : NULL;
	out->u.id.len = len - 4;
}

/* ID and AUTH share the layout: type, three reserved octets, data. */
static int typed4_emit(struct wire_ectx *c, const struct wire_payload *p,
		       struct wbuf *o)
{
	wbuf_u8(o, p->u.id.type);
	wbuf_reserve(o, 3);
	wbuf_put(o, p->u.id.data, p->u.id.len);
	return 0;
}

const struct wire_pld_ops wire_id_ops = {
	.validate = id_validate,
	.parse = id_parse,
	.emit = typed4_emit,
};
