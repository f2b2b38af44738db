// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Revocation settings, applied to NSS's process-wide OCSP client (it
 * speaks HTTP/1.0 itself, GET or POST, with its own cache) and kept for
 * cert_verify.c, which reads them on the helper threads.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <cert.h>
#include <certdb.h>
#include <ocsp.h>
#include <prerror.h>

#include "crypto/cred.h"
#include "crypto/nssdb.h"
#include "crypto/revocation.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* libreswan's defaults: no OCSP; 2 s, 1000 answers kept 1 h to 1 d */
#define DEFAULTS                                                              \
	{                                                                     \
		.ocsp_timeout_s = 2, .cache_size = 1000, .cache_min_s = 3600, \
		.cache_max_s = 86400                                          \
	}

static struct revocation_opts now = DEFAULTS;

void revocation_defaults(struct revocation_opts *o)
{
	*o = (struct revocation_opts)DEFAULTS;
}

void revocation_get(struct revocation_opts *out)
{
	pthread_mutex_lock(&lock);
	*out = now;
	pthread_mutex_unlock(&lock);
}

/* ocsp-trustname=: a nickname of the ikebana token, or of NSS's own. */
static SECStatus set_responder(CERTCertDBHandle *db, const char *uri,
			       const char *nick)
{
	char qualified[REVOCATION_NICK_MAX + sizeof(NSSDB_TOKEN) + 1];

	snprintf(qualified, sizeof(qualified), "%s:%s", NSSDB_TOKEN, nick);
	if (nssdb_slot() &&
	    CERT_SetOCSPDefaultResponder(db, uri, qualified) == SECSuccess)
		return SECSuccess;
	return CERT_SetOCSPDefaultResponder(db, uri, nick);
}

static int apply_ocsp(const struct revocation_opts *o, struct crypto_err *err)
{
	CERTCertDBHandle *db = CERT_GetDefaultCertDB();

	if (!o->ocsp) {
		CERT_DisableOCSPDefaultResponder(db);
		CERT_DisableOCSPChecking(db);
		return 0;
	}
	/* the classic API answers ocsp-strict='s "why" (cert_verify.c) */
	CERT_EnableOCSPChecking(db);
	CERT_SetOCSPFailureMode(ocspMode_FailureIsVerificationFailure);
	CERT_SetOCSPTimeout(o->ocsp_timeout_s);
	CERT_OCSPCacheSettings((PRInt32)o->cache_size, o->cache_min_s,
			       o->cache_max_s);
	CERT_ForcePostMethodForOCSP(o->ocsp_post);
	CERT_DisableOCSPDefaultResponder(db);
	if (!o->ocsp_uri[0])
		return 0;
	if (set_responder(db, o->ocsp_uri, o->ocsp_trustname) != SECSuccess)
		return crypto_fail_nss(
			err, -ENOENT,
			"ocsp-trustname=%s: no such certificate in the NSS database %s, so no answer of ocsp-uri=%s can be trusted",
			o->ocsp_trustname, nssdb_dir() ? nssdb_dir() : "(none)",
			o->ocsp_uri);
	if (CERT_EnableOCSPDefaultResponder(db) != SECSuccess)
		return crypto_fail_nss(err, -EINVAL,
				       "ocsp-uri=%s: NSS refuses it",
				       o->ocsp_uri);
	return 0;
}

static bool same(const struct revocation_opts *a,
		 const struct revocation_opts *b)
{
	return a->crl_strict == b->crl_strict && a->ocsp == b->ocsp &&
	       a->ocsp_strict == b->ocsp_strict &&
	       a->ocsp_post == b->ocsp_post &&
	       a->ocsp_timeout_s == b->ocsp_timeout_s &&
	       !strcmp(a->ocsp_uri, b->ocsp_uri) &&
	       !strcmp(a->ocsp_trustname, b->ocsp_trustname) &&
	       a->cache_size == b->cache_size &&
	       a->cache_min_s == b->cache_min_s &&
	       a->cache_max_s == b->cache_max_s;
}

int revocation_set(const struct revocation_opts *o, struct crypto_err *err)
{
	struct revocation_opts was;
	int rc;

	revocation_get(&was);
	rc = apply_ocsp(o, err);
	pthread_mutex_lock(&lock);
	now = *o;
	if (rc) /* without its trusted signer the default responder is off */
		now.ocsp_uri[0] = now.ocsp_trustname[0] = '\0';
	pthread_mutex_unlock(&lock);
	if (!same(&was, o)) {
		/* chains passed under other rules, answers of another responder */
		cert_cache_flush();
		if (was.ocsp)
			CERT_ClearOCSPCache();
	}
	return rc;
}
