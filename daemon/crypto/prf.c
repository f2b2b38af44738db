// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "crypto/algs.h"
#include "crypto/mac.h"
#include "crypto/nss_init.h"
#include "crypto/prf.h"

#define XCBC_KEY_LEN 16

size_t prf_out_len(uint16_t prf_id)
{
	const struct prf_desc *p = prf_desc_by_id(prf_id);

	return p ? p->out_len : 0;
}

/*
 * RFC 4434 §2: a 16-byte key is used as is, a shorter one is zero-padded,
 * a longer one is replaced by AES-XCBC-PRF-128 of it under a zero key.
 */
static int xcbc_key(const struct prf_desc *p, struct cbytes key,
		    uint8_t out[XCBC_KEY_LEN], struct crypto_err *err)
{
	static const uint8_t zero[XCBC_KEY_LEN];

	memset(out, 0, XCBC_KEY_LEN);
	if (key.len <= XCBC_KEY_LEN) {
		if (key.len)
			memcpy(out, key.ptr, key.len);
		return 0;
	}
	return mac_computev(p->mech, CBYTES(zero, sizeof(zero)), &key, 1, out,
			    XCBC_KEY_LEN, err);
}

int prf_computev(uint16_t prf_id, struct cbytes key, const struct cbytes *iov,
		 size_t niov, uint8_t *out, struct crypto_err *err)
{
	const struct prf_desc *p = prf_desc_by_id(prf_id);
	uint8_t k[XCBC_KEY_LEN];
	int rc;

	if (!p)
		return crypto_fail(err, -ENOTSUP, "prf: unknown PRF id %u",
				   prf_id);
	if (!p->fips && crypto_fips())
		return crypto_fail(err, -EPERM,
				   "prf %s is not allowed in FIPS mode",
				   p->name);
	if (!p->fixed_key) {
		if (key.len == 0)
			return crypto_fail(err, -EINVAL, "prf %s: empty key",
					   p->name);
		return mac_computev(p->mech, key, iov, niov, out, p->out_len,
				    err);
	}
	rc = xcbc_key(p, key, k, err);
	if (rc == 0)
		rc = mac_computev(p->mech, CBYTES(k, sizeof(k)), iov, niov, out,
				  p->out_len, err);
	secret_wipe(k, sizeof(k));
	return rc;
}

int prf_compute(uint16_t prf_id, struct cbytes key, struct cbytes data,
		uint8_t *out, struct crypto_err *err)
{
	return prf_computev(prf_id, key, &data, 1, out, err);
}
