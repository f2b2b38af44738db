// SPDX-License-Identifier: GPL-2.0-or-later
/* CERT and CERTREQ payloads (RFC 7296 §3.6, §3.7). */
#include "wire/internal.h"

#define CERT_X509_SIG 4
#define SHA1_LEN 20

/* The Cert Encoding octet that CERT and CERTREQ both start with. */
static int encoding_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	if (len < 1)
		return wire_fail(c, "cert encoding",
				 "body is empty, need the Cert Encoding");
	if (b[0] == 0)
		return wire_fail(c, "cert encoding",
				 "Cert Encoding 0 is reserved");
	return 0;
}

static int cert_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	int rc = encoding_validate(c, b, len);

	if (rc)
		return rc;
	if (len == 1)
		return wire_fail(c, "certificate data",
				 "certificate data is empty");
	return 0;
}

static int certreq_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	int rc = encoding_validate(c, b, len);

	if (rc)
		return rc;
	/* §3.7: X.509 requests list SHA-1 hashes of CA public keys */
	if (b[0] == CERT_X509_SIG && (len - 1) % SHA1_LEN)
		return wire_fail(
			c, "certification authority",
			"certification authority: %zu bytes is not a multiple of 20 (SHA-1 hashes)",
			len - 1);
	return 0;
}

static void cert_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
		       struct wire_payload *out)
{
	out->u.cert.type = b[0];
	out->u.cert.data = len > 1 ? b + 1 : NULL;
	out->u.cert.len = len - 1;
}

static int cert_emit(struct wire_ectx *c, const struct wire_payload *p,
		     struct wbuf *o)
{
	wbuf_u8(o, p->u.cert.type);
	wbuf_put(o, p->u.cert.data, p->u.cert.len);
	return 0;
}

const struct wire_pld_ops wire_cert_ops = {
	.validate = cert_validate,
	.parse = cert_parse,
	.emit = cert_emit,
};

const struct wire_pld_ops wire_certreq_ops = {
	.validate = certreq_validate,
	.parse = cert_parse,
	.emit = cert_emit,
};
