// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NSS database as a user token (SECMOD_OpenUserDB): NSS itself runs
 * without a certificate database (nss_init.c), so a PSK-only host needs
 * none, and the database can change with nssdir= without restarting NSS,
 * which refuses to shut down while keys of live SAs exist.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <pk11pub.h>
#include <secmod.h>

#include "crypto/nssdb.h"
#include "crypto/nssdb_pw.h"
#include "crypto/secret.h"

static PK11SlotInfo *slot;
static char open_dir[PATH_MAX];
static char why[PATH_MAX + 160] = "no NSS database is open (nssdir=)";

const char *nssdb_dir(void)
{
	return slot ? open_dir : NULL;
}

const char *nssdb_why_closed(void)
{
	return why;
}

struct PK11SlotInfoStr *nssdb_slot(void)
{
	return slot;
}

void nssdb_close(void)
{
	if (!slot)
		return;
	SECMOD_CloseUserDB(slot);
	PK11_FreeSlot(slot);
	slot = NULL;
	open_dir[0] = '\0';
}

static int missing(const char *dir, struct crypto_err *err)
{
	snprintf(why, sizeof(why),
		 "no NSS database in %s (no cert9.db): create one with "
		 "`ikebana import` or `certutil -N -d sql:%s`, or set nssdir=",
		 dir, dir);
	return crypto_fail(err, -ENOENT, "%s", why);
}

/*
 * A database with a password: libreswan's nsspassword names the token
 * "NSS Certificate DB" (or its FIPS name); ours is NSSDB_TOKEN. Private
 * keys stay locked without it, so each leftcert= will say so.
 */
static int login(PK11SlotInfo *s, const char *dir, struct crypto_err *err)
{
	static const char *const tokens[] = { "NSS Certificate DB",
					      "NSS FIPS 140-2 Certificate DB",
					      NSSDB_TOKEN };
	char file[PATH_MAX + 16], pw[256];
	int rc = -ENOENT;

	if (!PK11_NeedLogin(s) || PK11_IsLoggedIn(s, NULL))
		return 0;
	snprintf(file, sizeof(file), "%s/" NSS_PASSWORD_FILE, dir);
	for (size_t i = 0; rc == -ENOENT && i < 3; i++)
		rc = nss_password_lookup(file, tokens[i], pw, sizeof(pw), err);
	if (rc == -ENOENT)
		rc = crypto_fail(err, -EACCES,
				 "the NSS database %s has a password, and %s has none for it (a line \"NSS Certificate DB:PASSWORD\")",
				 dir, file);
	else if (!rc && PK11_CheckUserPassword(s, pw) != SECSuccess)
		rc = crypto_fail_nss(err, -EACCES,
				     "the NSS database %s: the password in %s is wrong",
				     dir, file);
	secret_wipe(pw, sizeof(pw));
	return rc;
}

int nssdb_open(const char *dir, struct crypto_err *err)
{
	char path[PATH_MAX + 16], spec[PATH_MAX + 96];
	PK11SlotInfo *s;

	if (slot && !strcmp(dir, open_dir))
		return 0;
	snprintf(path, sizeof(path), "%s/cert9.db", dir);
	if (access(path, R_OK)) {
		nssdb_close();
		return missing(dir, err);
	}
	snprintf(spec, sizeof(spec),
		 "configdir='sql:%s' tokenDescription='" NSSDB_TOKEN
		 "' flags=readOnly",
		 dir);
	s = SECMOD_OpenUserDB(spec);
	if (!s || !PK11_IsPresent(s)) {
		if (s)
			PK11_FreeSlot(s);
		snprintf(why, sizeof(why), "cannot open the NSS database %s",
			 dir);
		return crypto_fail_nss(err, -EIO, "%s", why);
	}
	nssdb_close();
	slot = s;
	snprintf(open_dir, sizeof(open_dir), "%s", dir);
	why[0] = '\0';
	return login(s, dir, err);
}
