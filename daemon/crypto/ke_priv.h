/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between ke.c and ke_import.c; not for other users. */
#ifndef IKB_CRYPTO_KE_PRIV_H
#define IKB_CRYPTO_KE_PRIV_H

#include <keythi.h>

#include "crypto/algs.h"
#include "crypto/ke.h"

#define KE_MAX_PUB 512
#define EC_POINT_UNCOMPRESSED 0x04

struct ke {
	const struct ke_desc *desc;
	SECKEYPrivateKey *priv;
	uint8_t params[16]; /* DER curve OID (ECP, X25519) */
	SECItem params_item;
	uint8_t pub[KE_MAX_PUB];
};

int ke_new(struct ke **out, uint16_t group, struct crypto_err *err);
/* Stores an NSS public value (04|x|y, raw, or stripped MODP) as wire. */
int ke_set_public(struct ke *ke, const SECItem *v, struct crypto_err *err);

#endif
