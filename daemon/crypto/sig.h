/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Signatures of IKE's AUTH payload (RFC 7296 §2.15, RFC 7427): the schemes
 * a key can sign with, their AUTH methods and, for method 14 (Digital
 * Signature), the AlgorithmIdentifier that names them on the wire. The
 * data signed is the caller's (SignedOctets); the AUTH payload's body is
 * built and parsed here.
 */
#ifndef IKB_CRYPTO_SIG_H
#define IKB_CRYPTO_SIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "crypto/secret.h"

struct SECKEYPrivateKeyStr;
struct SECKEYPublicKeyStr;

/* AUTH methods (IANA IKEv2 Authentication Method). */
enum {
	AUTH_RSA_SIG = 1,
	AUTH_PSK = 2,
	AUTH_ECDSA_256 = 9,
	AUTH_ECDSA_384 = 10,
	AUTH_ECDSA_521 = 11,
	AUTH_NULL = 13,
	AUTH_DIGITAL_SIG = 14,
};

/* RFC 7427 §7 hash algorithm identifiers, as bits: 1u << id. */
enum sig_hash {
	SIG_HASH_SHA1 = 1,
	SIG_HASH_SHA2_256 = 2,
	SIG_HASH_SHA2_384 = 3,
	SIG_HASH_SHA2_512 = 4,
};
#define SIG_HASH_BIT(h) (1u << (h))
#define SIG_HASHES_SHA2                                                      \
	(SIG_HASH_BIT(SIG_HASH_SHA2_256) | SIG_HASH_BIT(SIG_HASH_SHA2_384) | \
	 SIG_HASH_BIT(SIG_HASH_SHA2_512))

enum sig_key_type { SIG_KEY_NONE, SIG_KEY_RSA, SIG_KEY_EC };

enum sig_scheme {
	SIG_RSA_SHA1, /* method 1: PKCS#1 v1.5 with SHA-1 */
	SIG_ECDSA_P256_SHA256, /* methods 9..11: raw r|s, RFC 4754 */
	SIG_ECDSA_P384_SHA384,
	SIG_ECDSA_P521_SHA512,
	SIG_RSA_PSS_SHA256, /* method 14 from here on */
	SIG_RSA_PSS_SHA384,
	SIG_RSA_PSS_SHA512,
	SIG_RSA_PKCS1_SHA256,
	SIG_RSA_PKCS1_SHA384,
	SIG_RSA_PKCS1_SHA512,
	SIG_ECDSA_SHA256,
	SIG_ECDSA_SHA384,
	SIG_ECDSA_SHA512,
	SIG_SCHEMES
};

struct sig_scheme_info {
	const char *name; /* for logs: "RSA-PSS with SHA2-256" */
	uint8_t method;
	enum sig_hash hash;
	enum sig_key_type key;
	bool pss;
	unsigned ec_bits; /* methods 9..11: the curve; 0: any */
};
const struct sig_scheme_info *sig_scheme(enum sig_scheme s);
/* Whether NSS's mode allows s: FIPS mode takes no SHA-1 signature. */
bool sig_fips_ok(enum sig_scheme s);

/* The AUTH body can reach 1 + 67 + 512 octets (RSA-4096 with PSS). */
#define SIG_AUTH_MAX 1100

/*
 * out = the AUTH payload's data for scheme s over iov (method 14: the
 * AlgorithmIdentifier's length octet, the AlgorithmIdentifier, then the
 * signature).
 */
int sig_sign(struct SECKEYPrivateKeyStr *key, enum sig_scheme s,
	     const struct cbytes *iov, size_t niov, uint8_t *out, size_t cap,
	     size_t *len, struct crypto_err *err);

/*
 * Verifies a peer's AUTH payload of method over iov with key; *used says
 * which scheme it was (the caller decides whether its hash is acceptable).
 * -EBADMSG: the AUTH data is malformed or names an algorithm we do not
 * know; -EPERM: it does not verify; err says which.
 */
int sig_verify(struct SECKEYPublicKeyStr *key, uint8_t method,
	       const uint8_t *data, size_t len, const struct cbytes *iov,
	       size_t niov, enum sig_scheme *used, struct crypto_err *err);

/* The key's type and size in bits (RSA modulus, EC field). */
enum sig_key_type sig_pub_type(struct SECKEYPublicKeyStr *key, unsigned *bits);
enum sig_key_type sig_priv_type(struct SECKEYPrivateKeyStr *key,
				unsigned *bits);

/* What key signs with a peer that announced hashes (0: none, RFC 7427 absent). */
int sig_choose(enum sig_key_type key, unsigned bits, unsigned allowed_hashes,
	       unsigned peer_hashes, bool pkcs1, enum sig_scheme *s);

#endif
