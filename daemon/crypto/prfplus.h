/* SPDX-License-Identifier: GPL-2.0-or-later */
/* prf+ (RFC 7296 §2.13): expands a key and seed into any amount of keymat. */
#ifndef IKB_CRYPTO_PRFPLUS_H
#define IKB_CRYPTO_PRFPLUS_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "crypto/secret.h"

/*
 * out = first out_len bytes of T1 | T2 | ..., where
 * T1 = prf(K, S | 0x01), Tn = prf(K, Tn-1 | S | n), S = seed[0] | seed[1]...
 * At most 255 blocks: longer requests fail with -EINVAL.
 */
int prfplus(uint16_t prf_id, struct cbytes key, const struct cbytes *seed,
	    size_t nseed, uint8_t *out, size_t out_len, struct crypto_err *err);

#endif
