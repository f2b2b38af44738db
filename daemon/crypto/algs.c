// SPDX-License-Identifier: GPL-2.0-or-later
#include <pkcs11t.h>
#include <secoidt.h>

#include "crypto/algs.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct prf_desc prfs[] = {
	{ IKEV2_PRF_HMAC_SHA1, "sha1", CKM_SHA_1_HMAC, 20, 20, false, true },
	{ IKEV2_PRF_AES128_XCBC, "aes_xcbc", CKM_AES_XCBC_MAC, 16, 16, true,
	  false },
	{ IKEV2_PRF_HMAC_SHA2_256, "sha2_256", CKM_SHA256_HMAC, 32, 32, false,
	  true },
	{ IKEV2_PRF_HMAC_SHA2_384, "sha2_384", CKM_SHA384_HMAC, 48, 48, false,
	  true },
	{ IKEV2_PRF_HMAC_SHA2_512, "sha2_512", CKM_SHA512_HMAC, 64, 64, false,
	  true },
};

static const struct integ_desc integs[] = {
	{ IKEV2_INTEG_HMAC_SHA1_96, "sha1_96", CKM_SHA_1_HMAC, 20, 20, 12,
	  true },
	{ IKEV2_INTEG_AES_XCBC_96, "aes_xcbc_96", CKM_AES_XCBC_MAC, 16, 16, 12,
	  false },
	{ IKEV2_INTEG_HMAC_SHA2_256_128, "sha2_256_128", CKM_SHA256_HMAC, 32,
	  32, 16, true },
	{ IKEV2_INTEG_HMAC_SHA2_384_192, "sha2_384_192", CKM_SHA384_HMAC, 48,
	  48, 24, true },
	{ IKEV2_INTEG_HMAC_SHA2_512_256, "sha2_512_256", CKM_SHA512_HMAC, 64,
	  64, 32, true },
};

#define AES_GCM(ident, nm, icv)                                                \
	{                                                                      \
		.id = (ident), .name = (nm), .aead = true,                     \
		.has_key_length = true, .key_bits = { 128, 192, 256 },         \
		.block_size = 1, .iv_len = 8, .salt_len = 4, .icv_len = (icv), \
		.fips = true,                                                  \
	}

static const struct encr_desc encrs[] = {
	{ .id = IKEV2_ENCR_AES_CBC,
	  .name = "aes_cbc",
	  .has_key_length = true,
	  .key_bits = { 128, 192, 256 },
	  .block_size = 16,
	  .iv_len = 16,
	  .fips = true },
	/* RFC 5282: 8-byte explicit IV, 4-byte salt from the keymat. */
	AES_GCM(IKEV2_ENCR_AES_GCM_8, "aes_gcm_8", 8),
	AES_GCM(IKEV2_ENCR_AES_GCM_12, "aes_gcm_12", 12),
	AES_GCM(IKEV2_ENCR_AES_GCM_16, "aes_gcm_16", 16),
	/* RFC 7634 §3: no Key Length attribute, 256-bit key. */
	{ .id = IKEV2_ENCR_CHACHA20_POLY1305,
	  .name = "chacha20_poly1305",
	  .aead = true,
	  .key_bits = { 256 },
	  .block_size = 1,
	  .iv_len = 8,
	  .salt_len = 4,
	  .icv_len = 16 },
};

static const struct ke_desc kes[] = {
	{ IKEV2_KE_MODP2048, "modp2048", KE_MODP, 256, 256, 0, true },
	{ IKEV2_KE_MODP3072, "modp3072", KE_MODP, 384, 384, 0, true },
	{ IKEV2_KE_MODP4096, "modp4096", KE_MODP, 512, 512, 0, true },
	{ IKEV2_KE_ECP256, "ecp256", KE_ECP, 64, 32,
	  SEC_OID_ANSIX962_EC_PRIME256V1, true },
	{ IKEV2_KE_ECP384, "ecp384", KE_ECP, 96, 48, SEC_OID_SECG_EC_SECP384R1,
	  true },
	{ IKEV2_KE_ECP521, "ecp521", KE_ECP, 132, 66, SEC_OID_SECG_EC_SECP521R1,
	  true },
	{ IKEV2_KE_CURVE25519, "curve25519", KE_X25519, 32, 32,
	  SEC_OID_CURVE25519, false },
};

#define FIND_BY_ID(table, want)                                \
	do {                                                   \
		for (size_t i = 0; i < ARRAY_SIZE(table); i++) \
			if ((table)[i].id == (want))           \
				return &(table)[i];            \
		return NULL;                                   \
	} while (0)

const struct prf_desc *prf_desc_by_id(uint16_t id)
{
	FIND_BY_ID(prfs, id);
}

const struct integ_desc *integ_desc_by_id(uint16_t id)
{
	FIND_BY_ID(integs, id);
}

const struct encr_desc *encr_desc_by_id(uint16_t id)
{
	FIND_BY_ID(encrs, id);
}

const struct ke_desc *ke_desc_by_id(uint16_t id)
{
	FIND_BY_ID(kes, id);
}

bool encr_key_bits_ok(const struct encr_desc *e, unsigned key_bits)
{
	if (key_bits == 0)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(e->key_bits); i++)
		if (e->key_bits[i] && e->key_bits[i] == key_bits)
			return true;
	return false;
}

size_t encr_keymat_len(const struct encr_desc *e, unsigned key_bits)
{
	if (key_bits == 0)
		key_bits = e->key_bits[0];
	return key_bits / 8 + e->salt_len;
}
