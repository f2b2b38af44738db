// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/nssdb_pw.h"

/* Finds token's line; the file is read whole, so that a bad line fails. */
static int scan(FILE *f, const char *file, const char *token, char *out,
		size_t cap, struct crypto_err *err)
{
	size_t toklen = strlen(token), n = 0, len;
	char *line = NULL, *colon;
	ssize_t got;
	unsigned lineno = 0;
	int rc = -ENOENT;

	while ((got = getline(&line, &n, f)) >= 0) {
		lineno++;
		len = (size_t)got;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		colon = memchr(line, ':', len);
		if (!colon) {
			rc = crypto_fail(err, -EINVAL,
					 "%s:%u: not TOKEN:PASSWORD", file,
					 lineno);
			break;
		}
		if (rc == 0 || (size_t)(colon - line) != toklen ||
		    memcmp(line, token, toklen))
			continue;
		if (len - toklen - 1 >= cap) {
			rc = crypto_fail(
				err, -ENAMETOOLONG,
				"%s:%u: password longer than %zu bytes", file,
				lineno, cap ? cap - 1 : 0);
			break;
		}
		memcpy(out, colon + 1, len - toklen - 1);
		out[len - toklen - 1] = '\0';
		rc = 0;
	}
	if (rc == -ENOENT && ferror(f))
		rc = crypto_fail(err, -EIO, "%s: read error", file);
	else if (rc == -ENOENT)
		crypto_fail(err, -ENOENT, "%s: no line for token '%s'", file,
			    token);
	if (line) {
		explicit_bzero(line, n);
		free(line);
	}
	return rc;
}

int nss_password_lookup(const char *file, const char *token, char *out,
			size_t cap, struct crypto_err *err)
{
	FILE *f;
	int rc;

	if (cap)
		out[0] = '\0';
	f = fopen(file, "re");
	if (!f) {
		rc = -errno;
		return crypto_fail(err, rc, "%s: %s", file, strerror(-rc));
	}
	rc = scan(f, file, token, out, cap, err);
	fclose(f);
	if (rc && cap)
		explicit_bzero(out, cap);
	return rc;
}
