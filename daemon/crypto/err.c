// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>

#include <prerror.h>
#include <secerr.h>
#include <secport.h>

#include "crypto/err.h"

static int vfail(struct crypto_err *err, int code, const char *suffix,
		 const char *fmt, va_list ap)
{
	int n;

	if (!err)
		return code;
	err->code = code;
	n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	if (suffix && n >= 0 && (size_t)n < sizeof(err->msg))
		snprintf(err->msg + n, sizeof(err->msg) - n, " (%s)", suffix);
	return code;
}

int crypto_fail(struct crypto_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(err, code, NULL, fmt, ap);
	va_end(ap);
	return code;
}

int crypto_fail_nss(struct crypto_err *err, int code, const char *fmt, ...)
{
	const char *name = PORT_ErrorToName(PORT_GetError());
	va_list ap;

	va_start(ap, fmt);
	vfail(err, code, name ? name : "unknown NSS error", fmt, ap);
	va_end(ap);
	return code;
}
