/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An NSS sql: database directory (cert9.db, key4.db), opened on its own:
 * for commands that work on the database without a daemon. The
 * database's password, if it has one, comes from DIR/nsspassword (see
 * crypto/nssdb_pw.h). One database at a time per process.
 */
#ifndef IKB_CRYPTO_NSSDIR_H
#define IKB_CRYPTO_NSSDIR_H

#include <limits.h>
#include <stdbool.h>

#include <nss.h>
#include <pk11pub.h>

#include "crypto/err.h"

enum nssdir_mode {
	NSSDIR_READ, /* read-only; the database must exist */
	NSSDIR_WRITE, /* read-write; the database must exist */
	NSSDIR_CREATE, /* read-write; an empty one is created if none */
};

struct nssdir {
	NSSInitContext *ctx;
	PK11SlotInfo *slot; /* the database's token */
	bool created; /* NSSDIR_CREATE made a new database */
	char dir[PATH_MAX];
	char pwfile[PATH_MAX + 16];
	struct crypto_err pw_err; /* why the password callback had none */
};

/*
 * Opens dir. A missing or unreadable database is an error whose message
 * names dir and what to do. A newly created database has no password.
 */
int nssdir_open(struct nssdir *db, const char *dir, enum nssdir_mode mode,
	       struct crypto_err *err);
/*
 * Logs in to the token if it has a password, with the one for its token
 * in DIR/nsspassword. 0 when logged in or no login is needed.
 */
int nssdir_login(struct nssdir *db, struct crypto_err *err);
/* True when the token has a password and we are not logged in. */
bool nssdir_locked(const struct nssdir *db);
/*
 * Shuts NSS down. -EBUSY when a certificate, key or slot reference was
 * still held (a leak); the database is closed either way.
 */
int nssdir_close(struct nssdir *db, struct crypto_err *err);

#endif
