/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How a peer's certificate chain is checked for revocation, config
 * setup's crl-strict= and ocsp-*= keys, as libreswan has them. NSS's OCSP
 * settings are process-wide, so these are too: revocation_set() applies
 * them (on the loop, at each load of the configuration), cert_verify()
 * on the helper threads reads a copy with revocation_get().
 */
#ifndef IKB_CRYPTO_REVOCATION_H
#define IKB_CRYPTO_REVOCATION_H

#include <stdbool.h>

#include "crypto/err.h"

#define REVOCATION_URI_MAX 256
#define REVOCATION_NICK_MAX 128

struct revocation_opts {
	/* crl-strict=yes: each certificate of the chain needs a current CRL
	 * of its issuer in the NSS database */
	bool crl_strict;
	bool ocsp; /* ocsp-enable=yes */
	/* ocsp-strict=yes: the end certificate needs a good OCSP answer */
	bool ocsp_strict;
	bool ocsp_post; /* ocsp-method=post */
	unsigned ocsp_timeout_s; /* ocsp-timeout=, NSS's per-request limit */
	/* ocsp-uri=, ocsp-trustname=: the responder for certificates that
	 * name none (and, as NSS does it, for all), and its signer's
	 * nickname in the database; both or neither */
	char ocsp_uri[REVOCATION_URI_MAX];
	char ocsp_trustname[REVOCATION_NICK_MAX];
	/* ocsp-cache-size=, -min-age=, -max-age= (seconds) */
	unsigned cache_size, cache_min_s, cache_max_s;
};

/* libreswan's defaults: CRLs when present, no OCSP. */
void revocation_defaults(struct revocation_opts *o);
/*
 * Applies o to NSS (crypto_init first) and flushes the caches of
 * verified chains and of OCSP answers when anything changed. An error
 * (ocsp-trustname= not in the database) leaves OCSP on without the
 * default responder, so that ocsp-strict=yes refuses rather than
 * accepts; err says why.
 */
int revocation_set(const struct revocation_opts *o, struct crypto_err *err);
void revocation_get(struct revocation_opts *out);

#endif
