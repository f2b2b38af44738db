// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AUTH signatures through NSS's cryptohi: SEC_SignData and
 * VFY_VerifyData* hash the data, wrap it (DigestInfo, PSS, ECDSA's DER)
 * and sign or verify in one call. What is ours is the mapping between
 * IKE's AUTH methods and NSS's algorithms, and the AlgorithmIdentifiers
 * of method 14: sent as the fixed DER of RFC 7427 Appendix A (peers
 * compare them octet by octet), received in any valid DER, decoded by
 * NSS.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cryptohi.h>
#include <keyhi.h>
#include <pk11pub.h>
#include <secasn1.h>
#include <secoid.h>

#include "crypto/nss_init.h"
#include "crypto/sig.h"
#include "crypto/sig_priv.h"

#define SHA2_ALG(h)                                                       \
	0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, \
		0x02, h, 0x05, 0x00
/* RSASSA-PSS, MGF1 with the same hash, salt as long as the hash. */
#define PSS_ALG(h, salt)                                                       \
	{                                                                      \
		0x30, 0x41, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d,    \
			0x01, 0x01, 0x0a, 0x30, 0x34, 0xa0, 0x0f, SHA2_ALG(h), \
			0xa1, 0x1c, 0x30, 0x1a, 0x06, 0x09, 0x2a, 0x86, 0x48,  \
			0x86, 0xf7, 0x0d, 0x01, 0x01, 0x08, SHA2_ALG(h), 0xa2, \
			0x03, 0x02, 0x01, salt                                 \
	}
#define PKCS1_ALG(x)                                                        \
	{                                                                   \
		0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, \
			0x01, 0x01, x, 0x05, 0x00                           \
	}
#define ECDSA_ALG(x)                                                        \
	{                                                                   \
		0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, \
			0x03, x                                             \
	}

static const uint8_t pss256[] = PSS_ALG(0x01, 32), pss384[] = PSS_ALG(0x02, 48),
		     pss512[] = PSS_ALG(0x03, 64);
static const uint8_t pk256[] = PKCS1_ALG(0x0b), pk384[] = PKCS1_ALG(0x0c),
		     pk512[] = PKCS1_ALG(0x0d);
static const uint8_t ec256[] = ECDSA_ALG(0x02), ec384[] = ECDSA_ALG(0x03),
		     ec512[] = ECDSA_ALG(0x04);

#define M14(a) a, sizeof(a)
const struct sig_def sig_defs[SIG_SCHEMES] = {
	[SIG_RSA_SHA1] = { { "RSA PKCS#1 v1.5 with SHA-1 (method 1)",
			     AUTH_RSA_SIG, SIG_HASH_SHA1, SIG_KEY_RSA, false,
			     0 },
			   SEC_OID_PKCS1_SHA1_WITH_RSA_ENCRYPTION,
			   SEC_OID_SHA1,
			   NULL,
			   0 },
	[SIG_ECDSA_P256_SHA256] = { { "ECDSA P-256 with SHA2-256 (method 9)",
				      AUTH_ECDSA_256, SIG_HASH_SHA2_256,
				      SIG_KEY_EC, false, 256 },
				    SEC_OID_ANSIX962_ECDSA_SHA256_SIGNATURE,
				    SEC_OID_SHA256,
				    NULL,
				    0 },
	[SIG_ECDSA_P384_SHA384] = { { "ECDSA P-384 with SHA2-384 (method 10)",
				      AUTH_ECDSA_384, SIG_HASH_SHA2_384,
				      SIG_KEY_EC, false, 384 },
				    SEC_OID_ANSIX962_ECDSA_SHA384_SIGNATURE,
				    SEC_OID_SHA384,
				    NULL,
				    0 },
	[SIG_ECDSA_P521_SHA512] = { { "ECDSA P-521 with SHA2-512 (method 11)",
				      AUTH_ECDSA_521, SIG_HASH_SHA2_512,
				      SIG_KEY_EC, false, 521 },
				    SEC_OID_ANSIX962_ECDSA_SHA512_SIGNATURE,
				    SEC_OID_SHA512,
				    NULL,
				    0 },
	[SIG_RSA_PSS_SHA256] = { { "RSA-PSS with SHA2-256", AUTH_DIGITAL_SIG,
				   SIG_HASH_SHA2_256, SIG_KEY_RSA, true, 0 },
				 SEC_OID_PKCS1_RSA_PSS_SIGNATURE,
				 SEC_OID_SHA256,
				 M14(pss256) },
	[SIG_RSA_PSS_SHA384] = { { "RSA-PSS with SHA2-384", AUTH_DIGITAL_SIG,
				   SIG_HASH_SHA2_384, SIG_KEY_RSA, true, 0 },
				 SEC_OID_PKCS1_RSA_PSS_SIGNATURE,
				 SEC_OID_SHA384,
				 M14(pss384) },
	[SIG_RSA_PSS_SHA512] = { { "RSA-PSS with SHA2-512", AUTH_DIGITAL_SIG,
				   SIG_HASH_SHA2_512, SIG_KEY_RSA, true, 0 },
				 SEC_OID_PKCS1_RSA_PSS_SIGNATURE,
				 SEC_OID_SHA512,
				 M14(pss512) },
	[SIG_RSA_PKCS1_SHA256] = { { "RSA PKCS#1 v1.5 with SHA2-256",
				     AUTH_DIGITAL_SIG, SIG_HASH_SHA2_256,
				     SIG_KEY_RSA, false, 0 },
				   SEC_OID_PKCS1_SHA256_WITH_RSA_ENCRYPTION,
				   SEC_OID_SHA256,
				   M14(pk256) },
	[SIG_RSA_PKCS1_SHA384] = { { "RSA PKCS#1 v1.5 with SHA2-384",
				     AUTH_DIGITAL_SIG, SIG_HASH_SHA2_384,
				     SIG_KEY_RSA, false, 0 },
				   SEC_OID_PKCS1_SHA384_WITH_RSA_ENCRYPTION,
				   SEC_OID_SHA384,
				   M14(pk384) },
	[SIG_RSA_PKCS1_SHA512] = { { "RSA PKCS#1 v1.5 with SHA2-512",
				     AUTH_DIGITAL_SIG, SIG_HASH_SHA2_512,
				     SIG_KEY_RSA, false, 0 },
				   SEC_OID_PKCS1_SHA512_WITH_RSA_ENCRYPTION,
				   SEC_OID_SHA512,
				   M14(pk512) },
	[SIG_ECDSA_SHA256] = { { "ECDSA with SHA2-256", AUTH_DIGITAL_SIG,
				 SIG_HASH_SHA2_256, SIG_KEY_EC, false, 0 },
			       SEC_OID_ANSIX962_ECDSA_SHA256_SIGNATURE,
			       SEC_OID_SHA256,
			       M14(ec256) },
	[SIG_ECDSA_SHA384] = { { "ECDSA with SHA2-384", AUTH_DIGITAL_SIG,
				 SIG_HASH_SHA2_384, SIG_KEY_EC, false, 0 },
			       SEC_OID_ANSIX962_ECDSA_SHA384_SIGNATURE,
			       SEC_OID_SHA384,
			       M14(ec384) },
	[SIG_ECDSA_SHA512] = { { "ECDSA with SHA2-512", AUTH_DIGITAL_SIG,
				 SIG_HASH_SHA2_512, SIG_KEY_EC, false, 0 },
			       SEC_OID_ANSIX962_ECDSA_SHA512_SIGNATURE,
			       SEC_OID_SHA512,
			       M14(ec512) },
};

/* FIPS 186-5 and SP 800-131A: no SHA-1 for signatures. */
bool sig_fips_ok(enum sig_scheme s)
{
	return s < SIG_SCHEMES &&
	       (sig_defs[s].i.hash != SIG_HASH_SHA1 || !crypto_fips());
}

const struct sig_scheme_info *sig_scheme(enum sig_scheme s)
{
	return s < SIG_SCHEMES ? &sig_defs[s].i : NULL;
}

/* The signed data in one piece: cryptohi takes a single buffer. */
uint8_t *sig_flatten(const struct cbytes *iov, size_t niov, size_t *len)
{
	size_t n = 0, off = 0;
	uint8_t *b;

	for (size_t i = 0; i < niov; i++)
		n += iov[i].len;
	b = malloc(n ? n : 1);
	for (size_t i = 0; b && i < niov; i++) {
		memcpy(b + off, iov[i].ptr, iov[i].len);
		off += iov[i].len;
	}
	*len = n;
	return b;
}

int sig_decode_algid(PLArenaPool *arena, const uint8_t *p, size_t len,
		     SECAlgorithmID *id)
{
	SECItem in = { siBuffer, (unsigned char *)p, (unsigned)len };

	memset(id, 0, sizeof(*id));
	return SEC_QuickDERDecodeItem(arena, id,
				      SEC_ASN1_GET(SECOID_AlgorithmIDTemplate),
				      &in) == SECSuccess ?
		       0 :
		       -EBADMSG;
}

/* EC signatures go raw (r|s, each of the field's size) in methods 9..11. */
unsigned sig_ec_raw_len(unsigned bits)
{
	return 2 * ((bits + 7) / 8);
}

static int nss_sign(SECKEYPrivateKey *key, const struct sig_def *d,
		    const uint8_t *buf, size_t len, SECItem *sig,
		    struct crypto_err *err)
{
	PLArenaPool *arena = NULL;
	SECAlgorithmID id;
	SECStatus st;

	if (!d->i.pss) {
		st = SEC_SignData(sig, buf, (int)len, key, d->sign);
	} else {
		arena = PORT_NewArena(512);
		if (!arena ||
		    sig_decode_algid(arena, d->algid, d->algid_len, &id))
			st = SECFailure;
		else
			st = SEC_SignDataWithAlgorithmID(sig, buf, (int)len,
							 key, &id);
		if (arena)
			PORT_FreeArena(arena, PR_FALSE);
	}
	if (st != SECSuccess)
		return crypto_fail_nss(err, -EIO, "%s: signing failed",
				       d->i.name);
	return 0;
}

static int put(uint8_t *out, size_t cap, size_t *len, const uint8_t *a,
	       size_t alen, const uint8_t *b, size_t blen)
{
	if (alen + blen > cap)
		return -ENOSPC;
	memcpy(out, a, alen);
	memcpy(out + alen, b, blen);
	*len = alen + blen;
	return 0;
}

int sig_sign(struct SECKEYPrivateKeyStr *key, enum sig_scheme s,
	     const struct cbytes *iov, size_t niov, uint8_t *out, size_t cap,
	     size_t *len, struct crypto_err *err)
{
	const struct sig_def *d = s < SIG_SCHEMES ? &sig_defs[s] : NULL;
	SECItem sig = { siBuffer, NULL, 0 }, *raw = NULL;
	uint8_t hdr[1 + 80];
	size_t n, hlen = 0;
	uint8_t *buf;
	int rc;

	if (!d)
		return crypto_fail(err, -EINVAL, "signature scheme %d", s);
	if (!sig_fips_ok(s))
		return crypto_fail(err, -EPERM,
				   "%s is not allowed in FIPS mode", d->i.name);
	buf = sig_flatten(iov, niov, &n);
	if (!buf)
		return crypto_fail(err, -ENOMEM, "out of memory");
	rc = nss_sign(key, d, buf, n, &sig, err);
	free(buf);
	if (rc)
		return rc;
	if (d->i.method == AUTH_DIGITAL_SIG) {
		hdr[0] = (uint8_t)d->algid_len;
		memcpy(hdr + 1, d->algid, d->algid_len);
		hlen = 1 + d->algid_len;
	} else if (d->i.key == SIG_KEY_EC) {
		raw = DSAU_DecodeDerSigToLen(&sig,
					     sig_ec_raw_len(d->i.ec_bits));
		if (!raw) {
			SECITEM_FreeItem(&sig, PR_FALSE);
			return crypto_fail_nss(err, -EIO, "%s: bad signature",
					       d->i.name);
		}
	}
	rc = raw ? put(out, cap, len, NULL, 0, raw->data, raw->len) :
		   put(out, cap, len, hdr, hlen, sig.data, sig.len);
	SECITEM_FreeItem(&sig, PR_FALSE);
	if (raw)
		SECITEM_FreeItem(raw, PR_TRUE);
	if (rc)
		return crypto_fail(err, rc, "%s: signature too long",
				   d->i.name);
	return 0;
}
