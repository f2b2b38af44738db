/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NSS database of certificates, keys, trust and CRLs (nssdir=, as
 * libreswan's), opened read-only as a token of its own beside NSS's
 * internal one. An open sql: database sees what certutil or `ikebana
 * import` change in it, so a reload only looks again; a new nssdir=
 * opens the new database.
 */
#ifndef IKB_CRYPTO_NSSDB_H
#define IKB_CRYPTO_NSSDB_H

#include <stdbool.h>

#include "build-config.h"
#include "crypto/err.h"

#define NSSDB_DEFAULT_DIR IKB_DEFAULT_NSSDIR
#define NSSDB_TOKEN "ikebana"

/*
 * Opens dir (when it is not the one open), logging in with the password
 * of dir/nsspassword when the database has one. -ENOENT: dir holds no
 * database (cert9.db); then nothing is open and err says so.
 */
int nssdb_open(const char *dir, struct crypto_err *err);
void nssdb_close(void);
/* The open database's directory, or NULL. */
const char *nssdb_dir(void);
/* Why none is open, for every conn that needs one. */
const char *nssdb_why_closed(void);

struct PK11SlotInfoStr;
/* The database's token (not a new reference), or NULL. */
struct PK11SlotInfoStr *nssdb_slot(void);

#endif
