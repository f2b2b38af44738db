// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include <nss.h>
#include <pk11pub.h>
#include <secmod.h>

#include "crypto/nss_init.h"
#include "crypto/cred.h"
#include "crypto/nssdb.h"

static NSSInitContext *nss_ctx;

/*
 * NSS switches its internal module between normal and FIPS mode when the
 * internal module is "deleted"; this is the documented toggle (modutil
 * -fips does the same).
 */
static int enable_fips(struct crypto_err *err)
{
	SECMODModule *internal;

	if (PK11_IsFIPS())
		return 0;
	internal = SECMOD_GetInternalModule();
	if (!internal ||
	    SECMOD_DeleteInternalModule(internal->commonName) != SECSuccess)
		return crypto_fail_nss(err, -EPERM,
				       "NSS: cannot switch to FIPS mode");
	if (!PK11_IsFIPS())
		return crypto_fail(err, -EPERM,
				   "NSS: FIPS mode requested but not active");
	return 0;
}

int crypto_init(bool fips, struct crypto_err *err)
{
	const PRUint32 flags = NSS_INIT_READONLY | NSS_INIT_NOCERTDB |
			       NSS_INIT_NOMODDB | NSS_INIT_FORCEOPEN |
			       NSS_INIT_NOROOTINIT | NSS_INIT_OPTIMIZESPACE;
	int rc;

	if (nss_ctx)
		return crypto_fail(err, -EALREADY, "NSS already initialised");
	nss_ctx = NSS_InitContext("", "", "", "", NULL, flags);
	if (!nss_ctx)
		return crypto_fail_nss(err, -EIO, "NSS initialisation failed");
	if (fips) {
		rc = enable_fips(err);
		if (rc) {
			crypto_shutdown();
			return rc;
		}
	}
	return 0;
}

void crypto_shutdown(void)
{
	if (!nss_ctx)
		return;
	cred_cache_flush();
	cert_cache_flush();
	nssdb_close(); /* NSS shuts down only without open tokens of ours */
	NSS_ShutdownContext(nss_ctx);
	nss_ctx = NULL;
}

bool crypto_fips(void)
{
	return nss_ctx && PK11_IsFIPS();
}
