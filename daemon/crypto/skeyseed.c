// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/algs.h"
#include "crypto/prf.h"
#include "crypto/prfplus.h"
#include "crypto/skeyseed.h"

#define XCBC_NONCE_HALF 8

static int new_skeyseed(uint16_t prf_id, struct cbytes key,
			const struct cbytes *iov, size_t niov,
			struct secret *skeyseed, struct crypto_err *err)
{
	size_t len = prf_out_len(prf_id);
	int rc;

	if (len == 0)
		return crypto_fail(err, -ENOTSUP, "SKEYSEED: unknown PRF id %u",
				   prf_id);
	if (secret_alloc(skeyseed, len))
		return crypto_fail(err, -ENOMEM, "SKEYSEED: out of memory");
	rc = prf_computev(prf_id, key, iov, niov, skeyseed->ptr, err);
	if (rc)
		secret_free(skeyseed);
	return rc;
}

int skeyseed_initial(uint16_t prf_id, struct cbytes gir, struct cbytes ni,
		     struct cbytes nr, struct secret *skeyseed,
		     struct crypto_err *err)
{
	const struct prf_desc *p = prf_desc_by_id(prf_id);
	size_t ni_len = ni.len, nr_len = nr.len;
	struct secret key;
	int rc;

	if (!p)
		return crypto_fail(err, -ENOTSUP, "SKEYSEED: unknown PRF id %u",
				   prf_id);
	if (p->fixed_key) {
		if (ni_len < XCBC_NONCE_HALF || nr_len < XCBC_NONCE_HALF)
			return crypto_fail(err, -EINVAL,
					   "SKEYSEED: nonces %zu/%zu too short",
					   ni_len, nr_len);
		ni_len = nr_len = XCBC_NONCE_HALF;
	}
	if (secret_alloc(&key, ni_len + nr_len))
		return crypto_fail(err, -ENOMEM, "SKEYSEED: out of memory");
	memcpy(key.ptr, ni.ptr, ni_len);
	memcpy(key.ptr + ni_len, nr.ptr, nr_len);
	rc = new_skeyseed(prf_id, secret_view(&key), &gir, 1, skeyseed, err);
	secret_free(&key);
	return rc;
}

int skeyseed_rekey(uint16_t old_prf_id, struct cbytes old_sk_d,
		   struct cbytes gir, struct cbytes ni, struct cbytes nr,
		   struct secret *skeyseed, struct crypto_err *err)
{
	const struct cbytes iov[] = { gir, ni, nr };

	return new_skeyseed(old_prf_id, old_sk_d, iov, 3, skeyseed, err);
}

static int take(struct secret *dst, const uint8_t **pos, size_t len)
{
	if (secret_dup(dst, *pos, len))
		return -ENOMEM;
	*pos += len;
	return 0;
}

int ike_sa_keys_derive(uint16_t prf_id, struct cbytes skeyseed,
		       struct cbytes ni, struct cbytes nr,
		       const uint8_t spi_i[IKE_SPI_LEN],
		       const uint8_t spi_r[IKE_SPI_LEN], size_t integ_key_len,
		       size_t encr_keymat_len, struct ike_sa_keys *keys,
		       struct crypto_err *err)
{
	const struct prf_desc *p = prf_desc_by_id(prf_id);
	const struct cbytes seed[] = { ni, nr, CBYTES(spi_i, IKE_SPI_LEN),
				       CBYTES(spi_r, IKE_SPI_LEN) };
	struct secret all;
	const uint8_t *pos;
	size_t total;
	int rc;

	memset(keys, 0, sizeof(*keys));
	if (!p)
		return crypto_fail(err, -ENOTSUP, "IKE keys: unknown PRF id %u",
				   prf_id);
	total = 3 * p->key_len + 2 * integ_key_len + 2 * encr_keymat_len;
	if (secret_alloc(&all, total))
		return crypto_fail(err, -ENOMEM, "IKE keys: out of memory");
	rc = prfplus(prf_id, skeyseed, seed, 4, all.ptr, total, err);
	pos = all.ptr;
	if (rc == 0 && (take(&keys->sk_d, &pos, p->key_len) ||
			take(&keys->sk_ai, &pos, integ_key_len) ||
			take(&keys->sk_ar, &pos, integ_key_len) ||
			take(&keys->sk_ei, &pos, encr_keymat_len) ||
			take(&keys->sk_er, &pos, encr_keymat_len) ||
			take(&keys->sk_pi, &pos, p->key_len) ||
			take(&keys->sk_pr, &pos, p->key_len)))
		rc = crypto_fail(err, -ENOMEM, "IKE keys: out of memory");
	secret_free(&all);
	if (rc)
		ike_sa_keys_free(keys);
	return rc;
}

void ike_sa_keys_free(struct ike_sa_keys *keys)
{
	secret_free(&keys->sk_d);
	secret_free(&keys->sk_ai);
	secret_free(&keys->sk_ar);
	secret_free(&keys->sk_ei);
	secret_free(&keys->sk_er);
	secret_free(&keys->sk_pi);
	secret_free(&keys->sk_pr);
}
