/* SPDX-License-Identifier: GPL-2.0-or-later */
/* NSS without a database, once per process, for the targets that decode
 * with it (certificates, DNs, SK payloads). */
#ifndef IKB_FUZZ_NSS_H
#define IKB_FUZZ_NSS_H

#include <stdio.h>
#include <stdlib.h>

#include "crypto/nss_init.h"

static inline void fuzz_nss_init(void)
{
	struct crypto_err err;

	if (crypto_init(false, &err)) {
		fprintf(stderr, "crypto_init: %s\n", err.msg);
		abort();
	}
	/* NSS_InitContext's own allocations would count as leaks at exit */
	atexit(crypto_shutdown);
}

#endif
