/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The password file of an NSS database, in libreswan's format (its
 * nsspassword): one "TOKEN:PASSWORD" a line, e.g.
 *
 *	NSS Certificate DB:secret
 *	NSS FIPS 140-2 Certificate DB:secret
 *
 * The token name is everything before the first ':', the password
 * everything after it up to the end of the line (a CR before the LF is
 * dropped; other spaces are part of it). Empty lines and lines starting
 * with '#' are ignored. The first line for a token wins.
 */
#ifndef IKB_CRYPTO_NSSDB_PW_H
#define IKB_CRYPTO_NSSDB_PW_H

#include <stddef.h>

#include "crypto/err.h"

/* The file's name inside an NSS database directory. */
#define NSS_PASSWORD_FILE "nsspassword"

/*
 * Copies the password for token, NUL-terminated, into out (cap bytes).
 * Returns 0 when found; -ENOENT when the file does not exist or has no
 * line for token; -EINVAL for a line without ':' (err names FILE:LINE;
 * no line is used then); -ENAMETOOLONG when the password does not fit
 * in out; another -errno when the file cannot be read. On failure out
 * holds "" and err says why. The password is never put in err.
 */
int nss_password_lookup(const char *file, const char *token, char *out,
			size_t cap, struct crypto_err *err);

#endif
