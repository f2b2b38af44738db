// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "crypto/algs.h"
#include "crypto/prf.h"
#include "crypto/prfplus.h"

/* Tn-1, the seed parts, and the counter byte. */
#define PRFPLUS_MAX_SEED 6

int prfplus(uint16_t prf_id, struct cbytes key, const struct cbytes *seed,
	    size_t nseed, uint8_t *out, size_t out_len, struct crypto_err *err)
{
	size_t blk = prf_out_len(prf_id);
	struct cbytes iov[PRFPLUS_MAX_SEED + 2];
	uint8_t t[PRF_MAX_OUT];
	uint8_t counter;
	size_t done = 0, n;
	int rc = 0;

	if (blk == 0)
		return crypto_fail(err, -ENOTSUP, "prf+: unknown PRF id %u",
				   prf_id);
	if (nseed > PRFPLUS_MAX_SEED)
		return crypto_fail(err, -EINVAL, "prf+: %zu seed parts", nseed);
	if (out_len > 255 * blk)
		return crypto_fail(err, -EINVAL,
				   "prf+: %zu bytes requested, at most %zu",
				   out_len, 255 * blk);
	for (counter = 1; done < out_len; counter++) {
		n = 0;
		if (counter > 1)
			iov[n++] = CBYTES(t, blk);
		for (size_t i = 0; i < nseed; i++)
			iov[n++] = seed[i];
		iov[n++] = CBYTES(&counter, 1);
		rc = prf_computev(prf_id, key, iov, n, t, err);
		if (rc)
			break;
		n = out_len - done < blk ? out_len - done : blk;
		memcpy(out + done, t, n);
		done += n;
	}
	secret_wipe(t, sizeof(t));
	if (rc)
		secret_wipe(out, out_len);
	return rc;
}
