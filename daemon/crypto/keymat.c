// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "crypto/keymat.h"
#include "crypto/prfplus.h"

static int take(struct secret *dst, const uint8_t **pos, size_t len)
{
	if (secret_dup(dst, *pos, len))
		return -ENOMEM;
	*pos += len;
	return 0;
}

int child_keys_derive(uint16_t prf_id, struct cbytes sk_d,
		      struct cbytes gir_new, struct cbytes ni, struct cbytes nr,
		      size_t encr_keymat_len, size_t integ_key_len,
		      struct child_keys *keys, struct crypto_err *err)
{
	const struct cbytes seed[] = { gir_new, ni, nr };
	size_t total = 2 * (encr_keymat_len + integ_key_len);
	struct secret all;
	const uint8_t *pos;
	int rc;

	memset(keys, 0, sizeof(*keys));
	if (secret_alloc(&all, total))
		return crypto_fail(err, -ENOMEM, "KEYMAT: out of memory");
	rc = prfplus(prf_id, sk_d, seed, 3, all.ptr, total, err);
	pos = all.ptr;
	if (rc == 0 && (take(&keys->encr_i, &pos, encr_keymat_len) ||
			take(&keys->integ_i, &pos, integ_key_len) ||
			take(&keys->encr_r, &pos, encr_keymat_len) ||
			take(&keys->integ_r, &pos, integ_key_len)))
		rc = crypto_fail(err, -ENOMEM, "KEYMAT: out of memory");
	secret_free(&all);
	if (rc)
		child_keys_free(keys);
	return rc;
}

void child_keys_free(struct child_keys *keys)
{
	secret_free(&keys->encr_i);
	secret_free(&keys->integ_i);
	secret_free(&keys->encr_r);
	secret_free(&keys->integ_r);
}
