/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Raw ciphers through PK11: AES-CBC without padding, AES-GCM (RFC 5282) and
 * ChaCha20-Poly1305 (RFC 7634) with a 12-byte nonce. sk.c builds the SK
 * payload on top; the known-answer tests call these directly.
 */
#ifndef IKB_CRYPTO_CIPHER_H
#define IKB_CRYPTO_CIPHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/algs.h"
#include "crypto/err.h"
#include "crypto/secret.h"

#define AEAD_NONCE_LEN 12
#define AES_BLOCK_LEN 16

/* len must be a multiple of 16; in and out may be the same buffer. */
int cbc_crypt(bool encrypt, struct cbytes key, const uint8_t iv[AES_BLOCK_LEN],
	      const uint8_t *in, size_t len, uint8_t *out,
	      struct crypto_err *err);

/* out receives ciphertext | tag: pt.len + e->icv_len bytes. */
int aead_seal(const struct encr_desc *e, struct cbytes key,
	      const uint8_t nonce[AEAD_NONCE_LEN], struct cbytes aad,
	      struct cbytes pt, uint8_t *out, struct crypto_err *err);
/*
 * in is ciphertext | tag; out receives in.len - e->icv_len bytes.
 * A wrong tag gives -EBADMSG and leaves out wiped.
 */
int aead_open(const struct encr_desc *e, struct cbytes key,
	      const uint8_t nonce[AEAD_NONCE_LEN], struct cbytes aad,
	      struct cbytes in, uint8_t *out, struct crypto_err *err);

#endif
