/* SPDX-License-Identifier: GPL-2.0-or-later */
/* NSS start-up and shutdown. Call once from main before any crypto. */
#ifndef IKB_CRYPTO_NSS_INIT_H
#define IKB_CRYPTO_NSS_INIT_H

#include <stdbool.h>

#include "crypto/err.h"

/*
 * Starts NSS without a database (for now: certificates come later). With
 * fips, switches the internal token to FIPS mode and fails if NSS refuses.
 */
int crypto_init(bool fips, struct crypto_err *err);
void crypto_shutdown(void);
/* True when NSS runs in FIPS mode: only approved algorithms may be used. */
bool crypto_fips(void);

#endif
