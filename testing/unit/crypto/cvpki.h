/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The test PKI of test_cert_verify.c, made at test time by openssl in a
 * temp dir (no private key is ever committed), and the NSS database that
 * certutil and crlutil make of it, opened by nssdb_open() as the daemon
 * opens nssdir=. cvpki_setup() is a cmocka group setup.
 */
#ifndef IKB_TEST_CRYPTO_CVPKI_H
#define IKB_TEST_CRYPTO_CVPKI_H

#include <limits.h>
#include <stdbool.h>

#include "crypto/cred.h"

/*
 * The certificates, made in this order (an issuer before what it signs).
 * Serials are unique across issuers: the look-alike CA has the root's DN,
 * and NSS finds a certificate by issuer name and serial.
 */
enum cert {
	ROOT, /* trusted CT,, with a CRL listing REVOKED and REVINTER */
	INTER, /* by ROOT, not in the database: peers send it */
	UNSENT, /* by ROOT, not in the database, never sent */
	REVINTER, /* by ROOT, revoked in ROOT's CRL, not in the database */
	STALE, /* by ROOT, in the database (",,") with an expired CRL */
	LOOKALIKE, /* ROOT's DN, another key, not in the database */
	STRANGER, /* a CA not in the database */
	UNTRUSTED, /* in the database with trust ",,": no C */
	BARE, /* trusted CT,, without a CRL */
	GOOD, /* the leaves: by ROOT unless said */
	BY_INTER,
	BY_UNSENT,
	BY_REVINTER,
	BY_STALE,
	REVOKED,
	BY_LOOKALIKE,
	BY_STRANGER,
	BY_UNTRUSTED,
	BY_BARE,
	KEYENC, /* keyUsage keyEncipherment only */
	SERVERAUTH, /* extendedKeyUsage serverAuth only */
	CLIENTAUTH, /* extendedKeyUsage clientAuth only */
	CODESIGN, /* extendedKeyUsage codeSigning only */
	IPSECIKE, /* extendedKeyUsage ipsecIKE (RFC 4945) */
	EXPIRED, /* by ROOT, 2020-01-01..2021-01-01, by `openssl ca` */
	NCERTS
};

struct spec {
	const char *name; /* NAME.pem, .key, .der in the temp dir */
	int issuer; /* enum cert, or -1: self-signed */
	const char *subj; /* openssl's -subj */
	const char *ext; /* a section of openssl.cnf */
	unsigned serial;
};
extern const struct spec specs[NCERTS];

struct pki {
	char *dir; /* the temp dir: keys, certificates, CRLs, tools.log */
	char db[PATH_MAX];
	struct cred_der der[NCERTS];
	bool stale_crl; /* STALE's expired CRL is in the database */
	bool nss; /* NSS is up */
};
extern struct pki pki;

int cvpki_setup(void **state);
int cvpki_teardown(void **state);
/* Back to libreswan's defaults (crl-strict=no), as other tests expect. */
int revocation_reset(void **state);

#endif
