// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>

#include <pk11pub.h>

#include "crypto/rng.h"

int rng_bytes(void *buf, size_t len, struct crypto_err *err)
{
	if (len > INT_MAX)
		return crypto_fail(err, -EINVAL, "rng: request of %zu bytes",
				   len);
	if (len == 0)
		return 0;
	if (PK11_GenerateRandom(buf, (int)len) != SECSuccess)
		return crypto_fail_nss(err, -EIO, "rng: no random bytes");
	return 0;
}
