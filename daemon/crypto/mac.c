// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>

#include <pk11pub.h>

#include "crypto/mac.h"
#include "crypto/symkey.h"

static int run_mac(PK11Context *ctx, const struct cbytes *iov, size_t niov,
		   uint8_t *out, size_t out_len)
{
	unsigned int got = 0;

	if (PK11_DigestBegin(ctx) != SECSuccess)
		return -EIO;
	for (size_t i = 0; i < niov; i++) {
		if (iov[i].len == 0)
			continue;
		if (iov[i].len > UINT_MAX ||
		    PK11_DigestOp(ctx, iov[i].ptr, (unsigned)iov[i].len) !=
			    SECSuccess)
			return -EIO;
	}
	if (PK11_DigestFinal(ctx, out, &got, (unsigned)out_len) != SECSuccess)
		return -EIO;
	return got == out_len ? 0 : -EIO;
}

int mac_computev(unsigned long mech, struct cbytes key,
		 const struct cbytes *iov, size_t niov, uint8_t *out,
		 size_t out_len, struct crypto_err *err)
{
	SECItem noparam = { siBuffer, NULL, 0 };
	PK11SymKey *sym;
	PK11Context *ctx;
	int rc;

	if (key.len == 0 || key.len > UINT_MAX)
		return crypto_fail(err, -EINVAL, "MAC key length %zu", key.len);
	sym = symkey_import(mech, CKA_SIGN, key);
	if (!sym)
		return crypto_fail_nss(err, -EIO, "MAC: key import failed");
	ctx = PK11_CreateContextBySymKey(mech, CKA_SIGN, sym, &noparam);
	if (!ctx) {
		PK11_FreeSymKey(sym);
		return crypto_fail_nss(err, -EIO, "MAC: no context");
	}
	rc = run_mac(ctx, iov, niov, out, out_len);
	PK11_DestroyContext(ctx, PR_TRUE);
	PK11_FreeSymKey(sym);
	if (rc)
		return crypto_fail_nss(err, rc, "MAC computation failed");
	return 0;
}
