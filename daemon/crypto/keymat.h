/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Child SA keying material (RFC 7296 §2.17). */
#ifndef IKB_CRYPTO_KEYMAT_H
#define IKB_CRYPTO_KEYMAT_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "crypto/secret.h"

/* "i" keys protect initiator-to-responder traffic, "r" the reverse. */
struct child_keys {
	struct secret encr_i, integ_i;
	struct secret encr_r, integ_r;
};

/*
 * KEYMAT = prf+(SK_d, [g^ir (new)] | Ni | Nr), taken in the order: encr
 * key then integ key of the initiator-to-responder SA, then the same for
 * the responder-to-initiator SA. gir_new.len == 0 when there was no PFS.
 * encr_keymat_len includes any salt; integ_key_len is 0 with AEAD.
 */
int child_keys_derive(uint16_t prf_id, struct cbytes sk_d,
		      struct cbytes gir_new, struct cbytes ni, struct cbytes nr,
		      size_t encr_keymat_len, size_t integ_key_len,
		      struct child_keys *keys, struct crypto_err *err);
void child_keys_free(struct child_keys *keys);

#endif
