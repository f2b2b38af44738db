/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Errors from the crypto layer: a negative errno plus a message for the log. */
#ifndef IKB_CRYPTO_ERR_H
#define IKB_CRYPTO_ERR_H

struct crypto_err {
	int code; /* negative errno, 0 when no error was recorded */
	char msg[224];
};

/* Records code and message in err (which may be NULL); returns code. */
int crypto_fail(struct crypto_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Same, with NSS's name for the current PR_GetError() appended. */
int crypto_fail_nss(struct crypto_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
