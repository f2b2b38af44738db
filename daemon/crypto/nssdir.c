// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nss.h>
#include <pk11pub.h>
#include <secerr.h>

#include "crypto/nssdir.h"
#include "crypto/nssdb_pw.h"

/* NSS's password callback has no useful argument on every path. */
static struct nssdir *open_db;

static char *password_cb(PK11SlotInfo *slot, PRBool retry, void *arg)
{
	struct nssdir *db = open_db;
	char pw[512], *dup;

	/* The password from the file was wrong: asking again won't help. */
	if (!db || retry)
		return NULL;
	if (nss_password_lookup(db->pwfile, PK11_GetTokenName(slot), pw,
				sizeof(pw), &db->pw_err))
		return NULL;
	dup = PORT_Strdup(pw);
	explicit_bzero(pw, sizeof(pw));
	return dup;
}

static bool has_file(const char *dir, const char *name, int how)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, how) == 0;
}

/* Why dir is not a usable database, with what to do; or 0. */
static int check_dir(const char *dir, enum nssdir_mode mode, bool *create,
		     struct crypto_err *err)
{
	int how = mode == NSSDIR_READ ? R_OK : R_OK | W_OK;
	struct stat st;

	*create = false;
	if (stat(dir, &st) < 0) {
		if (errno == ENOENT && mode == NSSDIR_CREATE) {
			if (mkdir(dir, 0700) < 0)
				return crypto_fail(err, -errno,
						   "cannot create %s: %s", dir,
						   strerror(errno));
			*create = true;
			return 0;
		}
		if (errno == ENOENT)
			return crypto_fail(err, -ENOENT,
					   "%s: no such directory: no NSS "
					   "database there (ikebana import "
					   "creates one)",
					   dir);
		return crypto_fail(err, -errno, "%s: %s", dir, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return crypto_fail(err, -ENOTDIR,
				   "%s: not a directory (--nssdir takes the "
				   "database's directory)",
				   dir);
	if (!has_file(dir, "cert9.db", F_OK)) {
		if (mode == NSSDIR_CREATE) {
			*create = true;
			return 0;
		}
		return crypto_fail(err, -ENOENT,
				   "%s: no NSS database (no cert9.db)%s: "
				   "ikebana import creates one",
				   dir,
				   has_file(dir, "cert8.db", F_OK) ?
					   "; only an old dbm one, which "
					   "ikebana does not read" :
					   "");
	}
	if (!has_file(dir, "cert9.db", how) || !has_file(dir, "key4.db", how))
		return crypto_fail(
			err, -EACCES,
			"%s: cannot %s cert9.db and key4.db "
			"(run as their owner, usually root)",
			dir, mode == NSSDIR_READ ? "read" : "read and write");
	return 0;
}

int nssdir_open(struct nssdir *db, const char *dir, enum nssdir_mode mode,
	       struct crypto_err *err)
{
	PRUint32 flags =
		NSS_INIT_NOMODDB | NSS_INIT_NOROOTINIT | NSS_INIT_OPTIMIZESPACE;
	char config[PATH_MAX + 8];
	mode_t old_umask;
	bool create;
	int rc;

	memset(db, 0, sizeof(*db));
	if (open_db)
		return crypto_fail(err, -EALREADY,
				   "an NSS database is already open");
	if (strlen(dir) >= sizeof(db->dir))
		return crypto_fail(err, -ENAMETOOLONG, "%s: name too long",
				   dir);
	snprintf(db->dir, sizeof(db->dir), "%s", dir);
	snprintf(db->pwfile, sizeof(db->pwfile), "%s/%s", dir,
		 NSS_PASSWORD_FILE);
	rc = check_dir(dir, mode, &create, err);
	if (rc)
		return rc;
	if (mode == NSSDIR_READ)
		flags |= NSS_INIT_READONLY | NSS_INIT_FORCEOPEN;
	snprintf(config, sizeof(config), "sql:%s", dir);
	/* A new key4.db holds private keys: only its owner reads it. */
	old_umask = umask(077);
	db->ctx = NSS_InitContext(config, "", "", "", NULL, flags);
	umask(old_umask);
	if (!db->ctx)
		return crypto_fail_nss(err, -EIO,
				       "%s: cannot open the NSS "
				       "database",
				       dir);
	open_db = db;
	PK11_SetPasswordFunc(password_cb);
	db->slot = PK11_GetInternalKeySlot();
	if (!db->slot) {
		rc = crypto_fail_nss(err, -EIO, "%s: no database token", dir);
		goto fail;
	}
	/* A new database has no password yet, as after certutil -N. */
	if (mode != NSSDIR_READ && PK11_NeedUserInit(db->slot) &&
	    PK11_InitPin(db->slot, NULL, "") != SECSuccess) {
		rc = crypto_fail_nss(err, -EIO,
				     "%s: cannot initialise the new database",
				     dir);
		goto fail;
	}
	db->created = create;
	return 0;
fail:
	nssdir_close(db, NULL);
	return rc;
}

bool nssdir_locked(const struct nssdir *db)
{
	return PK11_NeedLogin(db->slot) && !PK11_IsLoggedIn(db->slot, NULL);
}

int nssdir_login(struct nssdir *db, struct crypto_err *err)
{
	if (!nssdir_locked(db))
		return 0;
	memset(&db->pw_err, 0, sizeof(db->pw_err));
	if (PK11_Authenticate(db->slot, PR_TRUE, NULL) == SECSuccess)
		return 0;
	if (db->pw_err.code)
		return crypto_fail(err, -EACCES,
				   "%s: the database has a password, and "
				   "none was found: %s",
				   db->dir, db->pw_err.msg);
	return crypto_fail(err, -EACCES,
			   "%s: the password for token '%s' in %s is wrong",
			   db->dir, PK11_GetTokenName(db->slot), db->pwfile);
}

int nssdir_close(struct nssdir *db, struct crypto_err *err)
{
	int rc = 0;

	if (db->slot)
		PK11_FreeSlot(db->slot);
	db->slot = NULL;
	if (db->ctx && NSS_ShutdownContext(db->ctx) != SECSuccess)
		rc = crypto_fail_nss(err, -EBUSY,
				     "%s: NSS still held a reference when "
				     "closing the database",
				     db->dir);
	db->ctx = NULL;
	if (open_db == db) {
		PK11_SetPasswordFunc(NULL);
		open_db = NULL;
	}
	return rc;
}
