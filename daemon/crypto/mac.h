/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Keyed MACs through PK11 (HMAC, AES-XCBC-MAC); used by prf.c and sk.c. */
#ifndef IKB_CRYPTO_MAC_H
#define IKB_CRYPTO_MAC_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "crypto/secret.h"

/*
 * MAC of the concatenated iov under key; mech is a CKM_*_HMAC or
 * CKM_AES_XCBC_MAC. Writes the full MAC (out_len must be its size).
 */
int mac_computev(unsigned long mech, struct cbytes key,
		 const struct cbytes *iov, size_t niov, uint8_t *out,
		 size_t out_len, struct crypto_err *err);

#endif
