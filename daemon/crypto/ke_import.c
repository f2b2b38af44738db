// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Importing a known EC private key, for known-answer tests. NSS offers no
 * raw EC private key import in its public API, so the key is wrapped in a
 * PKCS#8 PrivateKeyInfo holding an RFC 5915 ECPrivateKey.
 */
#include <errno.h>
#include <string.h>

#include <certt.h>
#include <keyhi.h>
#include <pk11pub.h>
#include <secoid.h>

#include "crypto/ke_priv.h"

#define DER_MAX 512

struct der {
	uint8_t buf[DER_MAX];
	size_t len;
	bool overflow;
};

static void der_raw(struct der *d, const void *p, size_t len)
{
	if (d->overflow || d->len + len > DER_MAX) {
		d->overflow = true;
		return;
	}
	memcpy(d->buf + d->len, p, len);
	d->len += len;
}

static void der_tlv(struct der *d, uint8_t tag, const void *p, size_t len)
{
	uint8_t hdr[4] = { tag };
	size_t n = 1;

	if (len < 0x80) {
		hdr[n++] = (uint8_t)len;
	} else if (len < 0x100) {
		hdr[n++] = 0x81;
		hdr[n++] = (uint8_t)len;
	} else {
		hdr[n++] = 0x82;
		hdr[n++] = (uint8_t)(len >> 8);
		hdr[n++] = (uint8_t)len;
	}
	der_raw(d, hdr, n);
	der_raw(d, p, len);
}

/* ECPrivateKey ::= SEQUENCE { 1, privateKey, [0] params, [1] publicKey } */
static void ec_private_key(struct der *out, const struct ke *ke,
			   struct cbytes priv, const uint8_t *point,
			   size_t point_len)
{
	static const uint8_t one = 1;
	struct der body = { 0 }, bits = { 0 }, bitstr = { 0 };

	der_tlv(&body, SEC_ASN1_INTEGER, &one, 1);
	der_tlv(&body, SEC_ASN1_OCTET_STRING, priv.ptr, priv.len);
	der_tlv(&body, 0xa0, ke->params, ke->params_item.len);
	bits.buf[0] = 0; /* BIT STRING: no unused bits */
	bits.len = 1;
	der_raw(&bits, point, point_len);
	der_tlv(&bitstr, SEC_ASN1_BIT_STRING, bits.buf, bits.len);
	der_tlv(&body, 0xa1, bitstr.buf, bitstr.len);
	der_tlv(out, SEC_ASN1_SEQUENCE | SEC_ASN1_CONSTRUCTED, body.buf,
		body.len);
	out->overflow |= body.overflow || bits.overflow || bitstr.overflow;
}

/* PrivateKeyInfo ::= SEQUENCE { 0, AlgorithmIdentifier, OCTET STRING } */
static int pkcs8(struct der *out, const struct ke *ke, struct cbytes priv,
		 const uint8_t *point, size_t point_len)
{
	static const uint8_t zero = 0;
	SECOidData *ecpk = SECOID_FindOIDByTag(SEC_OID_ANSIX962_EC_PUBLIC_KEY);
	struct der alg = { 0 }, algseq = { 0 }, eck = { 0 }, body = { 0 };

	if (!ecpk)
		return -ENOTSUP;
	der_tlv(&alg, SEC_ASN1_OBJECT_ID, ecpk->oid.data, ecpk->oid.len);
	der_raw(&alg, ke->params, ke->params_item.len);
	der_tlv(&algseq, SEC_ASN1_SEQUENCE | SEC_ASN1_CONSTRUCTED, alg.buf,
		alg.len);
	ec_private_key(&eck, ke, priv, point, point_len);
	der_tlv(&body, SEC_ASN1_INTEGER, &zero, 1);
	der_raw(&body, algseq.buf, algseq.len);
	der_tlv(&body, SEC_ASN1_OCTET_STRING, eck.buf, eck.len);
	der_tlv(out, SEC_ASN1_SEQUENCE | SEC_ASN1_CONSTRUCTED, body.buf,
		body.len);
	if (alg.overflow || algseq.overflow || eck.overflow || body.overflow ||
	    out->overflow)
		return -EOVERFLOW;
	return 0;
}

static int import(struct ke *ke, struct cbytes priv, struct cbytes pub,
		  struct crypto_err *err)
{
	uint8_t point[KE_MAX_PUB + 1];
	size_t point_len = 0;
	struct der der = { 0 };
	SECItem item, pv;
	PK11SlotInfo *slot;
	SECStatus st;

	if (ke->desc->kind == KE_ECP)
		point[point_len++] = EC_POINT_UNCOMPRESSED;
	memcpy(point + point_len, pub.ptr, pub.len);
	point_len += pub.len;
	if (pkcs8(&der, ke, priv, point, point_len))
		return crypto_fail(err, -EINVAL,
				   "KE import: cannot encode key");
	item = (SECItem){ siBuffer, der.buf, (unsigned)der.len };
	pv = (SECItem){ siBuffer, point, (unsigned)point_len };
	slot = PK11_GetBestSlot(CKM_ECDH1_DERIVE, NULL);
	if (!slot)
		return crypto_fail_nss(err, -ENOTSUP, "KE import: no slot");
	st = PK11_ImportDERPrivateKeyInfoAndReturnKey(
		slot, &item, NULL, &pv, PR_FALSE, PR_FALSE, KU_KEY_AGREEMENT,
		&ke->priv, NULL);
	PK11_FreeSlot(slot);
	secret_wipe(der.buf, sizeof(der.buf));
	if (st != SECSuccess || !ke->priv)
		return crypto_fail_nss(err, -EINVAL,
				       "KE import: NSS refused the %s key",
				       ke->desc->name);
	pv.data = point;
	return ke_set_public(ke, &pv, err);
}

int ke_import(struct ke **out, uint16_t group, struct cbytes priv,
	      struct cbytes pub, struct crypto_err *err)
{
	struct ke *ke;
	int rc;

	*out = NULL;
	rc = ke_new(&ke, group, err);

	if (rc)
		return rc;
	if (ke->desc->kind == KE_MODP)
		rc = crypto_fail(err, -ENOTSUP,
				 "KE import: MODP keys cannot be imported");
	else if (priv.len != ke->desc->secret_len ||
		 pub.len != ke->desc->pub_len)
		rc = crypto_fail(
			err, -EINVAL,
			"KE import: %s key sizes %zu/%zu, need %zu/%zu",
			ke->desc->name, priv.len, pub.len, ke->desc->secret_len,
			ke->desc->pub_len);
	else
		rc = import(ke, priv, pub, err);
	if (rc) {
		ke_free(ke);
		return rc;
	}
	*out = ke;
	return 0;
}
