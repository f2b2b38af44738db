// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>
#include <pk11pub.h>

#include "crypto/hash.h"

static const struct {
	SECOidTag oid;
	size_t len;
} algs[] = {
	[HASH_SHA1] = { SEC_OID_SHA1, 20 },
	[HASH_SHA2_256] = { SEC_OID_SHA256, 32 },
	[HASH_SHA2_384] = { SEC_OID_SHA384, 48 },
	[HASH_SHA2_512] = { SEC_OID_SHA512, 64 },
};

size_t hash_len(enum hash_alg alg)
{
	return (unsigned)alg < sizeof(algs) / sizeof(algs[0]) ? algs[alg].len :
								0;
}

static int digest(PK11Context *ctx, const struct cbytes *iov, size_t niov,
		  uint8_t *out, size_t len)
{
	unsigned got = 0;

	if (PK11_DigestBegin(ctx) != SECSuccess)
		return -1;
	for (size_t i = 0; i < niov; i++)
		if (iov[i].len &&
		    (iov[i].len > INT_MAX ||
		     PK11_DigestOp(ctx, iov[i].ptr, (unsigned)iov[i].len) !=
			     SECSuccess))
			return -1;
	if (PK11_DigestFinal(ctx, out, &got, (unsigned)len) != SECSuccess ||
	    got != len)
		return -1;
	return 0;
}

int hash_computev(enum hash_alg alg, const struct cbytes *iov, size_t niov,
		  uint8_t *out, struct crypto_err *err)
{
	size_t len = hash_len(alg);
	PK11Context *ctx;
	int rc;

	if (!len)
		return crypto_fail(err, -EINVAL, "hash: algorithm %d unknown",
				   (int)alg);
	ctx = PK11_CreateDigestContext(algs[alg].oid);
	if (!ctx)
		return crypto_fail_nss(err, -EIO, "hash: no digest context");
	rc = digest(ctx, iov, niov, out, len);
	PK11_DestroyContext(ctx, PR_TRUE);
	if (rc)
		return crypto_fail_nss(err, -EIO, "hash: digest failed");
	return 0;
}

int hash_sha1(struct cbytes data, uint8_t out[HASH_SHA1_LEN],
	      struct crypto_err *err)
{
	return hash_computev(HASH_SHA1, &data, 1, out, err);
}
