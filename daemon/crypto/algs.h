/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IANA IKEv2 transform ids (RFC 7296 §3.3.2, IANA "IKEv2 Parameters") for the
 * algorithms this daemon implements, and their sizes. Sizes are in bytes.
 */
#ifndef IKB_CRYPTO_ALGS_H
#define IKB_CRYPTO_ALGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ikev2_transform_type {
	IKEV2_TRANS_ENCR = 1,
	IKEV2_TRANS_PRF = 2,
	IKEV2_TRANS_INTEG = 3,
	IKEV2_TRANS_KE = 4,
};

enum ikev2_encr_id {
	IKEV2_ENCR_AES_CBC = 12,
	IKEV2_ENCR_AES_GCM_8 = 18,
	IKEV2_ENCR_AES_GCM_12 = 19,
	IKEV2_ENCR_AES_GCM_16 = 20,
	IKEV2_ENCR_CHACHA20_POLY1305 = 28,
};

enum ikev2_prf_id {
	IKEV2_PRF_HMAC_SHA1 = 2,
	IKEV2_PRF_AES128_XCBC = 4,
	IKEV2_PRF_HMAC_SHA2_256 = 5,
	IKEV2_PRF_HMAC_SHA2_384 = 6,
	IKEV2_PRF_HMAC_SHA2_512 = 7,
};

enum ikev2_integ_id {
	IKEV2_INTEG_NONE = 0,
	IKEV2_INTEG_HMAC_SHA1_96 = 2,
	IKEV2_INTEG_AES_XCBC_96 = 5,
	IKEV2_INTEG_HMAC_SHA2_256_128 = 12,
	IKEV2_INTEG_HMAC_SHA2_384_192 = 13,
	IKEV2_INTEG_HMAC_SHA2_512_256 = 14,
};

enum ikev2_ke_id {
	IKEV2_KE_MODP2048 = 14,
	IKEV2_KE_MODP3072 = 15,
	IKEV2_KE_MODP4096 = 16,
	IKEV2_KE_ECP256 = 19,
	IKEV2_KE_ECP384 = 20,
	IKEV2_KE_ECP521 = 21,
	IKEV2_KE_CURVE25519 = 31,
};

/* Transform attribute 14 (Key Length), in bits. */
#define IKEV2_ATTR_KEY_LENGTH 14

#define PRF_MAX_OUT 64
#define INTEG_MAX_KEY 64
#define INTEG_MAX_ICV 32
#define ENCR_MAX_KEY 32
#define ENCR_MAX_SALT 4

struct prf_desc {
	uint16_t id;
	const char *name;
	unsigned long mech; /* CKM_* of the underlying MAC */
	size_t key_len; /* preferred key size (RFC 7296 §2.13) */
	size_t out_len;
	bool fixed_key; /* AES-XCBC: keys are normalised to 16 bytes */
	bool fips;
};

struct integ_desc {
	uint16_t id;
	const char *name;
	unsigned long mech;
	size_t key_len;
	size_t mac_len; /* full MAC output */
	size_t icv_len; /* MAC output is truncated to this */
	bool fips;
};

struct encr_desc {
	uint16_t id;
	const char *name;
	bool aead;
	bool has_key_length; /* takes the Key Length attribute */
	uint16_t key_bits[3]; /* accepted sizes; first is the default */
	size_t block_size; /* padding unit for the SK payload */
	size_t iv_len; /* explicit IV carried in each message */
	size_t salt_len; /* extra keying material after the key */
	size_t icv_len; /* AEAD tag length; 0 for non-AEAD */
	bool fips;
};

enum ke_kind { KE_MODP, KE_ECP, KE_X25519 };

struct ke_desc {
	uint16_t id;
	const char *name;
	enum ke_kind kind;
	size_t pub_len; /* KE payload public value, wire format */
	size_t secret_len; /* g^ir */
	int oid_tag; /* SECOidTag of the curve; 0 for MODP */
	bool fips;
};

const struct prf_desc *prf_desc_by_id(uint16_t id);
const struct integ_desc *integ_desc_by_id(uint16_t id);
const struct encr_desc *encr_desc_by_id(uint16_t id);
const struct ke_desc *ke_desc_by_id(uint16_t id);

/* True if key_bits is one the cipher accepts (0 picks the default). */
bool encr_key_bits_ok(const struct encr_desc *e, unsigned key_bits);
/* Keying material an encryption transform takes from prf+: key + salt. */
size_t encr_keymat_len(const struct encr_desc *e, unsigned key_bits);

#endif
