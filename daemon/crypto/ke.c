// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <certt.h>
#include <keyhi.h>
#include <pk11pub.h>
#include <secoid.h>

#include "crypto/ke_priv.h"
#include "crypto/modp.h"
#include "crypto/nss_init.h"
#include "crypto/symkey.h"

static const uint8_t modp_generator = 2;

static const uint8_t *modp_prime(const struct ke_desc *d)
{
	switch (d->id) {
	case IKEV2_KE_MODP2048:
		return modp2048_prime;
	case IKEV2_KE_MODP3072:
		return modp3072_prime;
	default:
		return modp4096_prime;
	}
}

static void modp_params(const struct ke_desc *d, SECKEYDHParams *p)
{
	memset(p, 0, sizeof(*p));
	p->prime = (SECItem){ siUnsignedInteger, (unsigned char *)modp_prime(d),
			      (unsigned)d->pub_len };
	p->base = (SECItem){ siUnsignedInteger,
			     (unsigned char *)&modp_generator, 1 };
}

/* EC parameters are the DER-encoded curve OID. */
static int curve_params(struct ke *ke, struct crypto_err *err)
{
	SECOidData *oid = SECOID_FindOIDByTag((SECOidTag)ke->desc->oid_tag);

	if (!oid || oid->oid.len + 2 > sizeof(ke->params))
		return crypto_fail(err, -ENOTSUP, "KE %s: NSS lacks the curve",
				   ke->desc->name);
	ke->params[0] = SEC_ASN1_OBJECT_ID;
	ke->params[1] = (uint8_t)oid->oid.len;
	memcpy(ke->params + 2, oid->oid.data, oid->oid.len);
	ke->params_item = (SECItem){ siBuffer, ke->params, oid->oid.len + 2 };
	return 0;
}

int ke_new(struct ke **out, uint16_t group, struct crypto_err *err)
{
	const struct ke_desc *d = ke_desc_by_id(group);
	struct ke *ke;
	int rc;

	*out = NULL;
	if (!d)
		return crypto_fail(err, -ENOTSUP,
				   "KE: group %u is not supported", group);
	if (!d->fips && crypto_fips())
		return crypto_fail(
			err, -EPERM,
			"KE: group %u (%s) is not allowed in FIPS mode", group,
			d->name);
	ke = calloc(1, sizeof(*ke));
	if (!ke)
		return crypto_fail(err, -ENOMEM, "KE: out of memory");
	ke->desc = d;
	if (d->kind != KE_MODP) {
		rc = curve_params(ke, err);
		if (rc) {
			free(ke);
			return rc;
		}
	}
	*out = ke;
	return 0;
}

/* NSS public value → wire format. */
int ke_set_public(struct ke *ke, const SECItem *v, struct crypto_err *err)
{
	const struct ke_desc *d = ke->desc;
	const uint8_t *p = v->data;
	size_t len = v->len;

	if (d->kind == KE_ECP) {
		if (len != d->pub_len + 1 || p[0] != EC_POINT_UNCOMPRESSED)
			return crypto_fail(err, -EIO,
					   "KE %s: NSS gave a %zu-byte point",
					   d->name, len);
		p++;
		len--;
	}
	/* NSS may strip leading zero bytes of a MODP value. */
	if (len > d->pub_len)
		return crypto_fail(err, -EIO,
				   "KE %s: NSS public value of %zu bytes",
				   d->name, len);
	memset(ke->pub, 0, d->pub_len - len);
	memcpy(ke->pub + d->pub_len - len, p, len);
	return 0;
}

static int keygen(struct ke *ke, struct crypto_err *err)
{
	const struct ke_desc *d = ke->desc;
	CK_MECHANISM_TYPE mech = d->kind == KE_MODP ? CKM_DH_PKCS_KEY_PAIR_GEN :
						      CKM_EC_KEY_PAIR_GEN;
	SECKEYDHParams dh;
	void *params = &ke->params_item;
	SECKEYPublicKey *pub = NULL;
	PK11SlotInfo *slot;
	PK11AttrFlags attrs;
	const SECItem *v;
	int rc;

	if (d->kind == KE_MODP) {
		modp_params(d, &dh);
		params = &dh;
	}
	slot = PK11_GetBestSlot(mech, NULL);
	if (!slot)
		return crypto_fail_nss(err, -ENOTSUP, "KE %s: no NSS slot",
				       d->name);
	/*
	 * A derive-only session key: without CKF_SIGN softoken skips the
	 * sign/verify half of its pairwise consistency check, which made
	 * ECP key generation about 30% slower (ke_rate_bench). FIPS wants
	 * the private key sensitive, as PK11_GenerateKeyPair() did.
	 */
	attrs = PK11_ATTR_SESSION |
		(PK11_IsFIPS() ? PK11_ATTR_SENSITIVE | PK11_ATTR_PRIVATE :
				 PK11_ATTR_INSENSITIVE | PK11_ATTR_PUBLIC);
	ke->priv = PK11_GenerateKeyPairWithOpFlags(slot, mech, params, &pub,
						   attrs, CKF_DERIVE,
						   CKF_DERIVE | CKF_SIGN, NULL);
	PK11_FreeSlot(slot);
	if (!ke->priv || !pub) {
		SECKEY_DestroyPublicKey(pub);
		return crypto_fail_nss(err, -EIO,
				       "KE %s: key generation failed", d->name);
	}
	v = d->kind == KE_MODP ? &pub->u.dh.publicValue :
				 &pub->u.ec.publicValue;
	rc = ke_set_public(ke, v, err);
	SECKEY_DestroyPublicKey(pub);
	return rc;
}

int ke_generate(struct ke **out, uint16_t group, struct crypto_err *err)
{
	struct ke *ke;
	int rc;

	*out = NULL;
	rc = ke_new(&ke, group, err);

	if (rc)
		return rc;
	rc = keygen(ke, err);
	if (rc) {
		ke_free(ke);
		return rc;
	}
	*out = ke;
	return 0;
}

uint16_t ke_group(const struct ke *ke)
{
	return ke->desc->id;
}

struct cbytes ke_public(const struct ke *ke)
{
	return CBYTES(ke->pub, ke->desc->pub_len);
}

void ke_free(struct ke *ke)
{
	if (!ke)
		return;
	if (ke->priv)
		SECKEY_DestroyPrivateKey(ke->priv);
	free(ke);
}

/* MODP: 1 < y < p-1, both big-endian and of the prime's length. */
static int check_modp(const struct ke_desc *d, const uint8_t *y,
		      struct crypto_err *err)
{
	const uint8_t *p = modp_prime(d);
	size_t n = d->pub_len, i;
	int cmp = 0;

	for (i = 0; i + 1 < n && y[i] == 0; i++)
		;
	if (i + 1 == n && y[i] <= 1)
		return crypto_fail(
			err, -EINVAL,
			"KE payload: public value %u is out of range for group %u",
			y[i], d->id);
	/* p ends in 0xff, so p-1 differs from p only in its last byte. */
	cmp = memcmp(y, p, n - 1);
	if (cmp > 0 || (cmp == 0 && y[n - 1] >= p[n - 1] - 1))
		return crypto_fail(
			err, -EINVAL,
			"KE payload: public value is not below p-1 for group %u",
			d->id);
	return 0;
}

static void peer_key(const struct ke *ke, const uint8_t *val, size_t len,
		     SECKEYDHParams *dh, SECKEYPublicKey *pk)
{
	memset(pk, 0, sizeof(*pk));
	pk->pkcs11ID = CK_INVALID_HANDLE;
	if (ke->desc->kind == KE_MODP) {
		modp_params(ke->desc, dh);
		pk->keyType = dhKey;
		pk->u.dh.prime = dh->prime;
		pk->u.dh.base = dh->base;
		pk->u.dh.publicValue =
			(SECItem){ siBuffer, (unsigned char *)val,
				   (unsigned)len };
		return;
	}
	pk->keyType = ecKey;
	pk->u.ec.DEREncodedParams = ke->params_item;
	pk->u.ec.size = (int)ke->desc->secret_len * 8;
	pk->u.ec.publicValue =
		(SECItem){ siBuffer, (unsigned char *)val, (unsigned)len };
}

static int extract(const struct ke_desc *d, PK11SymKey *sym, struct secret *gir,
		   struct crypto_err *err)
{
	uint8_t acc = 0;
	size_t len;

	if (secret_alloc(gir, d->secret_len))
		return crypto_fail(err, -ENOMEM, "KE: out of memory");
	if (symkey_extract(sym, gir->ptr, gir->len, &len) != SECSuccess) {
		secret_free(gir);
		return crypto_fail_nss(err, -EIO, "KE %s: cannot read g^ir",
				       d->name);
	}
	/* g^ir keeps its leading zeros (RFC 7296 §2.14, RFC 5903 §7). */
	if (len < d->secret_len) {
		memmove(gir->ptr + d->secret_len - len, gir->ptr, len);
		memset(gir->ptr, 0, d->secret_len - len);
	}
	for (size_t i = 0; i < gir->len; i++)
		acc |= gir->ptr[i];
	if (acc == 0) {
		secret_free(gir);
		return crypto_fail(err, -EINVAL,
				   "KE payload: group %u shared secret is zero",
				   d->id);
	}
	return 0;
}

static int derive(const struct ke *ke, const uint8_t *val, size_t len,
		  struct secret *gir, struct crypto_err *err)
{
	const struct ke_desc *d = ke->desc;
	SECKEYDHParams dh;
	SECKEYPublicKey peer;
	PK11SymKey *sym;
	int rc;

	peer_key(ke, val, len, &dh, &peer);
	sym = PK11_PubDeriveWithKDF(ke->priv, &peer, PR_FALSE, NULL, NULL,
				    d->kind == KE_MODP ? CKM_DH_PKCS_DERIVE :
							 CKM_ECDH1_DERIVE,
				    CKM_GENERIC_SECRET_KEY_GEN, CKA_DERIVE,
				    (int)d->secret_len, CKD_NULL, NULL, NULL);
	if (!sym)
		return crypto_fail_nss(
			err, -EINVAL,
			"KE payload: group %u peer public value rejected",
			d->id);
	rc = extract(d, sym, gir, err);
	PK11_FreeSymKey(sym);
	return rc;
}

int ke_derive(const struct ke *ke, struct cbytes peer, struct secret *gir,
	      struct crypto_err *err)
{
	const struct ke_desc *d = ke->desc;
	uint8_t point[KE_MAX_PUB + 1];
	int rc;

	gir->ptr = NULL;
	gir->len = 0;
	if (peer.len != d->pub_len)
		return crypto_fail(
			err, -EINVAL,
			"KE payload: public value length %zu, group %u needs %zu",
			peer.len, d->id, d->pub_len);
	if (d->kind == KE_MODP) {
		rc = check_modp(d, peer.ptr, err);
		return rc ? rc : derive(ke, peer.ptr, peer.len, gir, err);
	}
	if (d->kind == KE_X25519)
		return derive(ke, peer.ptr, peer.len, gir, err);
	point[0] = EC_POINT_UNCOMPRESSED;
	memcpy(point + 1, peer.ptr, peer.len);
	return derive(ke, point, peer.len + 1, gir, err);
}
