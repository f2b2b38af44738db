/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Certificates: this host's (leftcert=, with its private key and the
 * chain it sends) and a peer's, verified (cert_verify.c). Both are
 * reference counted: a conn holds its credential and an exchange in
 * flight holds what it signs or verifies with, across a reload.
 */
#ifndef IKB_CRYPTO_CRED_H
#define IKB_CRYPTO_CRED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "crypto/err.h"
#include "crypto/sig.h"

#define CRED_CHAIN_MAX 8

struct cred_der {
	const uint8_t *ptr;
	size_t len;
};

/* Ours: certificate, key and the chain up to (not with) the root. */
struct cred {
	unsigned refs;
	char nickname[128];
	char subject[256], issuer[256]; /* text, for logs */
	struct cred_der subject_der; /* the ID of leftid=%fromcert */
	struct cred_der issuer_der; /* rightca=%same */
	struct cred_der chain[CRED_CHAIN_MAX]; /* [0]: the certificate */
	unsigned nchain;
	enum sig_key_type key;
	unsigned bits;
	time_t not_before, not_after;
	struct CERTCertificateStr *cert; /* NULL: a raw key (cred_raw.c) */
	struct SECKEYPrivateKeyStr *priv;
	struct SECKEYPublicKeyStr *pub; /* a raw key's */
	void *chain_list; /* NSS's CERTCertificateList the DERs are in */
};

/*
 * leftcert=NICKNAME from the open database: -ENOENT without it or
 * without its private key (err says which, and where it looked).
 */
int cred_load(const char *nickname, bool key, struct cred **out,
	      struct crypto_err *err);
/*
 * cred_raw.c: libreswan's rsasigkey=0s... (RFC 3110), with its private key
 * (by ckaid=, or the SHA-1 of the modulus) when key is set.
 */
int cred_load_raw(const char *rsasigkey, const char *ckaid, bool key,
		  struct cred **out, struct crypto_err *err);
/* A key of the database's token as a copy in memory (or k, if it cannot). */
struct SECKEYPrivateKeyStr *cred_session_key(struct SECKEYPrivateKeyStr *k);
struct cred *cred_get(struct cred *c);
void cred_put(struct cred *c);

/*
 * CERTREQ's body (RFC 7296 §3.7): the SHA-1 of each trusted CA's
 * SubjectPublicKeyInfo in the database, 20 octets each, as found by the
 * last cred_ca_refresh() (at each load of the configuration).
 */
void cred_ca_refresh(void);
/* Drops the load's cache of credentials (cred_load): before NSS stops. */
void cred_cache_flush(void);
const uint8_t *cred_ca_hashes(size_t *len);

/*
 * A peer's certificate, verified by cert_verify(), shared by the IKE SAs
 * it authenticated and the verification cache (cert_cache.c), which
 * helper threads use too: its references are atomic. Its key is never
 * used itself: each signature check takes a copy (peer_cert_key).
 */
struct peer_cert {
	unsigned refs; /* __atomic builtins only */
	char subject[256], issuer[256];
	uint8_t *der; /* the end certificate */
	size_t der_len;
	enum sig_key_type key;
	unsigned bits;
	time_t not_after;
	struct SECKEYPublicKeyStr *pub; /* read-only: peer_cert_key() */
};
/* A new public key object of p's certificate (NULL: no memory). */
struct SECKEYPublicKeyStr *peer_cert_key(const struct peer_cert *p);
void peer_cert_key_free(struct SECKEYPublicKeyStr *k);

struct cert_verify_opts {
	/* rightca=: the DER of a CA that must be in the chain, or NULL */
	const uint8_t *ca;
	size_t ca_len;
};

/*
 * Verifies the peer's CERT payloads (certs[0] the end certificate, the
 * rest intermediates) against the database's trust, CRLs and the clock,
 * and by OCSP as revocation_set() says.
 * A refusal fills why with the subject, the issuer, the reason in words
 * and NSS's error name (400 octets hold it). Runs on a helper thread.
 */
int cert_verify(const struct cred_der *certs, size_t n,
		const struct cert_verify_opts *o, struct peer_cert **out,
		char *why, size_t cap);
struct peer_cert *peer_cert_get(struct peer_cert *p);
void peer_cert_put(struct peer_cert *p);

/*
 * cert_cache.c: chains cert_verify() passed, by the SHA-256 of their DER
 * and of rightca=, for a minute at most and never past the certificate's
 * end or the next load of the configuration (which may bring new CRLs):
 * 1,000 IKE SAs from one host certificate cost one path validation, not
 * 1,000 (each queries the database). Any thread.
 */
#define CERT_DIGEST_LEN 32
int cert_chain_digest(const struct cred_der *certs, size_t n,
		      const struct cert_verify_opts *o,
		      uint8_t out[CERT_DIGEST_LEN]);
struct peer_cert *cert_cache_find(const uint8_t digest[CERT_DIGEST_LEN]);
void cert_cache_add(const uint8_t digest[CERT_DIGEST_LEN], struct peer_cert *p);
void cert_cache_flush(void);

#endif
