// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ipsec checknss and initnss. libreswan's unit runs `ipsec --checknss`
 * before pluto starts, so that the database exists for what the tools
 * import into it (ovs-monitor-ipsec runs certutil and pk12util on it,
 * and expects it there). Made as `ikebana import` makes one: NSS's own
 * files, no password (as certutil -N --empty-password). No daemon is
 * needed; a running ikebanad opens a database made after its start at
 * the next add or rereadsecrets.
 */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "crypto/nssdir.h"
#include "ipsec/initnss.h"

static bool has_db(const char *dir)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/cert9.db", dir);
	return access(path, F_OK) == 0;
}

int ipsec_nss(enum ipsec_verb v, const char *dir)
{
	const char *verb = v == IPSEC_INITNSS ? "initnss" : "checknss";
	struct crypto_err err = { 0 };
	struct nssdir db;

	if (!dir)
		dir = IPSEC_LSW_NSSDIR;
	if (has_db(dir)) {
		if (v == IPSEC_CHECKNSS)
			return CLI_OK;
		fprintf(stderr,
			"ipsec initnss: %s holds an NSS database already: "
			"nothing done\n",
			dir);
		return CLI_FAIL;
	}
	if (nssdir_open(&db, dir, NSSDIR_CREATE, &err)) {
		fprintf(stderr, "ipsec %s: %s\n", verb, err.msg);
		return CLI_FAIL;
	}
	nssdir_close(&db, NULL);
	printf("Initializing NSS database in %s\n", dir);
	return CLI_OK;
}
