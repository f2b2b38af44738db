/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The IKEv2 prf: HMAC-SHA1/SHA2 (RFC 4868) and AES-XCBC-PRF-128 (RFC 4434). */
#ifndef IKB_CRYPTO_PRF_H
#define IKB_CRYPTO_PRF_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "crypto/secret.h"

/* Output size of prf_id, 0 if unknown. */
size_t prf_out_len(uint16_t prf_id);

/*
 * out = prf(key, iov[0] | iov[1] | ...); out holds prf_out_len() bytes.
 * AES-XCBC-PRF-128 accepts any key length and normalises it per RFC 4434 §2.
 */
int prf_computev(uint16_t prf_id, struct cbytes key, const struct cbytes *iov,
		 size_t niov, uint8_t *out, struct crypto_err *err);
int prf_compute(uint16_t prf_id, struct cbytes key, struct cbytes data,
		uint8_t *out, struct crypto_err *err);

#endif
