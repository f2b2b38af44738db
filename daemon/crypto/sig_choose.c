// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which scheme our key signs with. A peer that announced
 * SIGNATURE_HASH_ALGORITHMS (RFC 7427 §4) gets method 14 with a hash it
 * named; one that did not gets the key's RFC 7296 method (1, or 9..11
 * for the curve), as libreswan and strongSwan do.
 */
#include <errno.h>

#include <keyhi.h>
#include <pk11pub.h>

#include "crypto/nss_init.h"
#include "crypto/sig.h"

enum sig_key_type sig_pub_type(struct SECKEYPublicKeyStr *key, unsigned *bits)
{
	KeyType t = key ? SECKEY_GetPublicKeyType(key) : nullKey;

	*bits = t == rsaKey || t == ecKey ?
			SECKEY_PublicKeyStrengthInBits(key) :
			0;
	return t == rsaKey ? SIG_KEY_RSA :
	       t == ecKey  ? SIG_KEY_EC :
			     SIG_KEY_NONE;
}

enum sig_key_type sig_priv_type(struct SECKEYPrivateKeyStr *key, unsigned *bits)
{
	KeyType t = key ? SECKEY_GetPrivateKeyType(key) : nullKey;
	int n = t == rsaKey || t == ecKey ? PK11_SignatureLen(key) : 0;

	/* an EC signature is r|s: two field elements */
	*bits = n <= 0 ? 0 : t == rsaKey ? 8u * (unsigned)n : 4u * (unsigned)n;
	if (t == ecKey && *bits == 528)
		*bits = 521;
	return t == rsaKey ? SIG_KEY_RSA :
	       t == ecKey  ? SIG_KEY_EC :
			     SIG_KEY_NONE;
}

static enum sig_hash curve_hash(unsigned bits)
{
	return bits <= 256 ? SIG_HASH_SHA2_256 :
	       bits <= 384 ? SIG_HASH_SHA2_384 :
			     SIG_HASH_SHA2_512;
}

static int legacy(enum sig_key_type key, unsigned bits, unsigned allowed,
		  enum sig_scheme *s)
{
	if (key == SIG_KEY_RSA) {
		*s = SIG_RSA_SHA1;
		return allowed & SIG_HASH_BIT(SIG_HASH_SHA1) ? 0 : -ENOTSUP;
	}
	*s = bits == 256 ? SIG_ECDSA_P256_SHA256 :
	     bits == 384 ? SIG_ECDSA_P384_SHA384 :
			   SIG_ECDSA_P521_SHA512;
	if (bits != 256 && bits != 384 && bits != 521)
		return -ENOTSUP;
	return allowed & SIG_HASH_BIT(curve_hash(bits)) ? 0 : -ENOTSUP;
}

int sig_choose(enum sig_key_type key, unsigned bits, unsigned allowed,
	       unsigned peer, bool pkcs1, enum sig_scheme *s)
{
	static const enum sig_hash order[] = { SIG_HASH_SHA2_256,
					       SIG_HASH_SHA2_384,
					       SIG_HASH_SHA2_512 };
	unsigned both = allowed & peer & SIG_HASHES_SHA2;
	enum sig_hash h = 0;

	if (key == SIG_KEY_NONE)
		return -ENOTSUP;
	if (crypto_fips()) /* FIPS 186-5: no SHA-1 */
		allowed &= ~SIG_HASH_BIT(SIG_HASH_SHA1);
	if (!peer)
		return legacy(key, bits, allowed, s);
	if (key == SIG_KEY_EC && both & SIG_HASH_BIT(curve_hash(bits)))
		h = curve_hash(bits);
	for (unsigned i = 0; !h && i < 3; i++)
		if (both & SIG_HASH_BIT(order[i]))
			h = order[i];
	if (!h)
		return -ENOTSUP;
	if (key == SIG_KEY_EC)
		*s = SIG_ECDSA_SHA256 + (h - SIG_HASH_SHA2_256);
	else if (pkcs1)
		*s = SIG_RSA_PKCS1_SHA256 + (h - SIG_HASH_SHA2_256);
	else
		*s = SIG_RSA_PSS_SHA256 + (h - SIG_HASH_SHA2_256);
	return 0;
}
