/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SKEYSEED and the IKE SA keys (RFC 7296 §2.14), and rekeyed SKEYSEED (§2.18). */
#ifndef IKB_CRYPTO_SKEYSEED_H
#define IKB_CRYPTO_SKEYSEED_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "crypto/secret.h"

#define IKE_SPI_LEN 8

struct ike_sa_keys {
	struct secret sk_d;
	struct secret sk_ai, sk_ar; /* empty with an AEAD cipher */
	struct secret sk_ei, sk_er; /* key | salt for AEAD ciphers */
	struct secret sk_pi, sk_pr;
};

/*
 * SKEYSEED = prf(Ni | Nr, g^ir). With AES-XCBC-PRF-128 only the first 8
 * bytes of each nonce form the key (§2.14).
 */
int skeyseed_initial(uint16_t prf_id, struct cbytes gir, struct cbytes ni,
		     struct cbytes nr, struct secret *skeyseed,
		     struct crypto_err *err);

/*
 * Rekeying an IKE SA: SKEYSEED = prf(SK_d (old), g^ir (new) | Ni | Nr),
 * computed with the old IKE SA's PRF.
 */
int skeyseed_rekey(uint16_t old_prf_id, struct cbytes old_sk_d,
		   struct cbytes gir, struct cbytes ni, struct cbytes nr,
		   struct secret *skeyseed, struct crypto_err *err);

/*
 * {SK_d | SK_ai | SK_ar | SK_ei | SK_er | SK_pi | SK_pr}
 *	= prf+(SKEYSEED, Ni | Nr | SPIi | SPIr)
 * SK_d, SK_pi and SK_pr take the PRF's preferred key length. integ_key_len
 * is 0 with AEAD; encr_keymat_len includes any salt.
 */
int ike_sa_keys_derive(uint16_t prf_id, struct cbytes skeyseed,
		       struct cbytes ni, struct cbytes nr,
		       const uint8_t spi_i[IKE_SPI_LEN],
		       const uint8_t spi_r[IKE_SPI_LEN], size_t integ_key_len,
		       size_t encr_keymat_len, struct ike_sa_keys *keys,
		       struct crypto_err *err);
void ike_sa_keys_free(struct ike_sa_keys *keys);

#endif
