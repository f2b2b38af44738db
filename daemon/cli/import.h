/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ikebana import, split by what it reads: import.c (options, the file),
 * import_pem.c, import_p12.c, and import_store.c (the token). */
#ifndef IKB_CLI_IMPORT_H
#define IKB_CLI_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <cert.h>
#include <keyhi.h>

#include "cli/cli.h"
#include "crypto/nssdir.h"

#define MAX_CERTS 16

struct import_opts {
	const char *dir, *nickname, *pwfile, *file;
	bool ca;
};

struct imp {
	const struct cli *c;
	const struct import_opts *o;
	struct nssdir db;
};

/* import.c: "ikebana: FILE: ..." on stderr; returns CLI_FAIL. */
int refuse(const struct imp *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *nss_error(void);
void wipe_free(void *p, size_t n);

/* import_store.c: the token; 0, or CLI_FAIL after printing why. */
char *cn_of(CERTCertificate *cert); /* PORT-allocated, or NULL */
/* nick names no certificate on the token but der's */
int nickname_free_for(const struct imp *im, const char *nick,
		      const SECItem *der);
/* A CA's nickname: its CN, else "ca", made unique with " #N" */
char *ca_nickname(CERTCertificate *cert);
/* A certificate's nickname without NSS's "TOKEN:" prefix */
const char *nick_of(const struct imp *im, const CERTCertificate *cert);
/* The token's copy of der, once imported */
CERTCertificate *on_token(const struct imp *im, const SECItem *der);
/* One certificate on the token with trust ("CT,,") or none */
int put_cert(const struct imp *im, CERTCertificate *cert, const char *nick,
	     const char *trust, const char *what);
/* --nickname, else the CN */
char *chosen_nickname(const struct imp *im, CERTCertificate *cert);

/* import_pem.c, import_p12.c: one file's content, stored */
int import_pem(const struct imp *im, const char *text);
int import_der_ca(const struct imp *im, CERTCertificate *cert);
int import_p12(const struct imp *im, unsigned char *data, size_t len);

#endif
