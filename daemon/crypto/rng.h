/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Random bytes from NSS's DRBG: nonces, SPIs, IVs and cookies secrets. */
#ifndef IKB_CRYPTO_RNG_H
#define IKB_CRYPTO_RNG_H

#include <stddef.h>

#include "crypto/err.h"

int rng_bytes(void *buf, size_t len, struct crypto_err *err);

#endif
