// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A peer's AUTH payload, verified: method 1 and 9..11 name their scheme;
 * method 14 names it in its AlgorithmIdentifier (RFC 7427 §3), which NSS
 * decodes, PSS parameters included. This is peer input: every length is
 * checked before it is used.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cryptohi.h>
#include <keyhi.h>
#include <secasn1.h>
#include <secoid.h>

#include "crypto/sig.h"
#include "crypto/sig_priv.h"

static int find(uint8_t method, SECOidTag sign, SECOidTag hash,
		enum sig_scheme *s)
{
	for (int i = 0; i < SIG_SCHEMES; i++)
		if (sig_defs[i].i.method == method &&
		    sig_defs[i].sign == sign &&
		    (hash == SEC_OID_UNKNOWN || sig_defs[i].hash == hash)) {
			*s = (enum sig_scheme)i;
			return 0;
		}
	return -EBADMSG;
}

/* RSASSA-PSS names its hash in its parameters. */
static SECOidTag pss_hash(PLArenaPool *arena, const SECAlgorithmID *id)
{
	SECKEYRSAPSSParams pss;

	memset(&pss, 0, sizeof(pss));
	if (SEC_QuickDERDecodeItem(arena, &pss,
				   SEC_ASN1_GET(SECKEY_RSAPSSParamsTemplate),
				   &id->parameters) != SECSuccess)
		return SEC_OID_UNKNOWN;
	/* absent: SHA-1, RFC 4055's default */
	return pss.hashAlg ? SECOID_GetAlgorithmTag(pss.hashAlg) : SEC_OID_SHA1;
}

static int verify_m14(SECKEYPublicKey *key, const uint8_t *data, size_t len,
		      const uint8_t *buf, size_t n, enum sig_scheme *used,
		      struct crypto_err *err)
{
	PLArenaPool *arena = PORT_NewArena(512);
	SECItem sig;
	SECAlgorithmID id;
	SECOidTag tag, hash = SEC_OID_UNKNOWN;
	int rc;

	if (!arena)
		return crypto_fail(err, -ENOMEM, "out of memory");
	rc = len < 2 || 1u + data[0] >= len ?
		     -EBADMSG :
		     sig_decode_algid(arena, data + 1, data[0], &id);
	if (rc) {
		PORT_FreeArena(arena, PR_FALSE);
		return crypto_fail(
			err, -EBADMSG,
			"AUTH payload (method 14): the AlgorithmIdentifier is truncated or not DER");
	}
	tag = SECOID_GetAlgorithmTag(&id);
	if (tag == SEC_OID_PKCS1_RSA_PSS_SIGNATURE)
		hash = pss_hash(arena, &id);
	rc = find(AUTH_DIGITAL_SIG, tag, hash, used);
	if (rc) {
		const char *name = SECOID_FindOIDTagDescription(tag);

		PORT_FreeArena(arena, PR_FALSE);
		return crypto_fail(
			err, -EBADMSG,
			"AUTH payload (method 14): signature algorithm %s is not one ikebana accepts",
			name ? name : "(unknown OID)");
	}
	sig = (SECItem){ siBuffer, (unsigned char *)data + 1 + data[0],
			 (unsigned)(len - 1 - data[0]) };
	rc = VFY_VerifyDataWithAlgorithmID(buf, (int)n, key, &sig, &id, NULL,
					   NULL) == SECSuccess ?
		     0 :
		     crypto_fail_nss(
			     err, -EPERM,
			     "AUTH payload: the %s signature does not verify with the peer's key",
			     sig_defs[*used].i.name);
	PORT_FreeArena(arena, PR_FALSE);
	return rc;
}

/* Methods 1 and 9..11: the scheme is the method's. */
static int verify_fixed(SECKEYPublicKey *key, uint8_t method,
			const uint8_t *data, size_t len, const uint8_t *buf,
			size_t n, enum sig_scheme *used, struct crypto_err *err)
{
	const struct sig_def *d;
	SECItem raw = { siBuffer, (unsigned char *)data, (unsigned)len };
	SECItem der = { siBuffer, NULL, 0 };
	SECStatus st;

	if (method == AUTH_RSA_SIG)
		*used = SIG_RSA_SHA1;
	else if (method >= AUTH_ECDSA_256 && method <= AUTH_ECDSA_521)
		*used = SIG_ECDSA_P256_SHA256 + (method - AUTH_ECDSA_256);
	else
		return crypto_fail(err, -EBADMSG, "AUTH method %u", method);
	d = &sig_defs[*used];
	if (d->i.key == SIG_KEY_EC) {
		if (len != sig_ec_raw_len(d->i.ec_bits))
			return crypto_fail(
				err, -EBADMSG,
				"AUTH payload (method %u): %zu octets, expected %u",
				method, len, sig_ec_raw_len(d->i.ec_bits));
		if (DSAU_EncodeDerSigWithLen(&der, &raw, (unsigned)len) !=
		    SECSuccess)
			return crypto_fail_nss(err, -EIO, "ECDSA signature");
	}
	st = VFY_VerifyDataDirect(buf, (int)n, key, der.data ? &der : &raw,
				  d->i.key == SIG_KEY_EC ?
					  SEC_OID_ANSIX962_EC_PUBLIC_KEY :
					  SEC_OID_PKCS1_RSA_ENCRYPTION,
				  d->hash, NULL, NULL);
	SECITEM_FreeItem(&der, PR_FALSE);
	if (st != SECSuccess)
		return crypto_fail_nss(
			err, -EPERM,
			"AUTH payload: the %s signature does not verify with the peer's key",
			d->i.name);
	return 0;
}

int sig_verify(struct SECKEYPublicKeyStr *key, uint8_t method,
	       const uint8_t *data, size_t len, const struct cbytes *iov,
	       size_t niov, enum sig_scheme *used, struct crypto_err *err)
{
	size_t n;
	uint8_t *buf = sig_flatten(iov, niov, &n);
	int rc;

	if (!buf)
		return crypto_fail(err, -ENOMEM, "out of memory");
	rc = method == AUTH_DIGITAL_SIG ?
		     verify_m14(key, data, len, buf, n, used, err) :
		     verify_fixed(key, method, data, len, buf, n, used, err);
	if (!rc && !sig_fips_ok(*used))
		rc = crypto_fail(err, -EPERM,
				 "AUTH payload: %s is not allowed in FIPS mode",
				 sig_defs[*used].i.name);
	free(buf);
	return rc;
}
