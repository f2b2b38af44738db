/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A plain message digest, for the protocol's non-keyed hashes (NAT
 * detection's SHA-1, RFC 7296 §2.23). Keyed use goes through prf.h.
 */
#ifndef IKB_CRYPTO_HASH_H
#define IKB_CRYPTO_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "crypto/secret.h"

enum hash_alg { HASH_SHA1, HASH_SHA2_256, HASH_SHA2_384, HASH_SHA2_512 };

#define HASH_SHA1_LEN 20
#define HASH_MAX_LEN 64

/* Output size of alg, 0 if unknown. */
size_t hash_len(enum hash_alg alg);
/* out = H(iov[0] | iov[1] | ...); out holds hash_len(alg) bytes. */
int hash_computev(enum hash_alg alg, const struct cbytes *iov, size_t niov,
		  uint8_t *out, struct crypto_err *err);
int hash_sha1(struct cbytes data, uint8_t out[HASH_SHA1_LEN],
	      struct crypto_err *err);

#endif
