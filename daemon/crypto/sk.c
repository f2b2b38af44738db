// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <secport.h>

#include "crypto/algs.h"
#include "crypto/cipher.h"
#include "crypto/mac.h"
#include "crypto/nss_init.h"
#include "crypto/rng.h"
#include "crypto/sk.h"

struct sk_ctx {
	const struct encr_desc *encr;
	const struct integ_desc *integ; /* NULL with AEAD */
	struct secret key; /* cipher key, without salt */
	struct secret integ_key;
	uint8_t salt[ENCR_MAX_SALT];
	uint64_t next_iv; /* AEAD: IVs must never repeat */
};

static int check_algs(const struct encr_desc *e, unsigned key_bits,
		      const struct integ_desc *i, uint16_t integ_id,
		      struct cbytes ek, struct cbytes ik,
		      struct crypto_err *err)
{
	if (crypto_fips() && (!e->fips || (i && !i->fips)))
		return crypto_fail(err, -EPERM,
				   "SK: %s%s%s is not allowed in FIPS mode",
				   e->name, i ? "+" : "", i ? i->name : "");
	if (!encr_key_bits_ok(e, key_bits))
		return crypto_fail(err, -EINVAL, "SK: %s with %u-bit key",
				   e->name, key_bits);
	if (e->aead && integ_id != IKEV2_INTEG_NONE)
		return crypto_fail(err, -EINVAL,
				   "SK: %s takes no integrity transform",
				   e->name);
	if (!e->aead && !i)
		return crypto_fail(err, -ENOTSUP, "SK: unknown integrity id %u",
				   integ_id);
	if (ek.len != encr_keymat_len(e, key_bits))
		return crypto_fail(
			err, -EINVAL,
			"SK: %s key material is %zu bytes, needs %zu", e->name,
			ek.len, encr_keymat_len(e, key_bits));
	if (i && ik.len != i->key_len)
		return crypto_fail(err, -EINVAL,
				   "SK: %s key is %zu bytes, needs %zu",
				   i->name, ik.len, i->key_len);
	return 0;
}

int sk_ctx_new(struct sk_ctx **out, uint16_t encr_id, unsigned key_bits,
	       uint16_t integ_id, struct cbytes encr_keymat,
	       struct cbytes integ_key, struct crypto_err *err)
{
	const struct encr_desc *e = encr_desc_by_id(encr_id);
	const struct integ_desc *i = integ_desc_by_id(integ_id);
	struct sk_ctx *ctx;
	size_t klen;
	int rc;

	*out = NULL;
	if (!e)
		return crypto_fail(err, -ENOTSUP, "SK: unknown cipher id %u",
				   encr_id);
	rc = check_algs(e, key_bits, i, integ_id, encr_keymat, integ_key, err);
	if (rc)
		return rc;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return crypto_fail(err, -ENOMEM, "SK: out of memory");
	ctx->encr = e;
	ctx->integ = e->aead ? NULL : i;
	klen = encr_keymat.len - e->salt_len;
	memcpy(ctx->salt, encr_keymat.ptr + klen, e->salt_len);
	if (secret_dup(&ctx->key, encr_keymat.ptr, klen) ||
	    secret_dup(&ctx->integ_key, integ_key.ptr, integ_key.len)) {
		sk_ctx_free(ctx);
		return crypto_fail(err, -ENOMEM, "SK: out of memory");
	}
	*out = ctx;
	return 0;
}

void sk_ctx_free(struct sk_ctx *ctx)
{
	if (!ctx)
		return;
	secret_free(&ctx->key);
	secret_free(&ctx->integ_key);
	secret_wipe(ctx, sizeof(*ctx));
	free(ctx);
}

static size_t icv_len(const struct sk_ctx *ctx)
{
	return ctx->integ ? ctx->integ->icv_len : ctx->encr->icv_len;
}

/* Encrypted part: payloads, padding and the pad length byte. */
static size_t padded_len(const struct sk_ctx *ctx, size_t pt_len)
{
	size_t bs = ctx->encr->block_size;

	return (pt_len + 1 + bs - 1) / bs * bs;
}

size_t sk_sealed_len(const struct sk_ctx *ctx, size_t pt_len)
{
	return ctx->encr->iv_len + padded_len(ctx, pt_len) + icv_len(ctx);
}

size_t sk_min_len(const struct sk_ctx *ctx)
{
	return sk_sealed_len(ctx, 0);
}

static void pad(uint8_t *buf, size_t pt_len, size_t total)
{
	memset(buf + pt_len, 0, total - pt_len);
	buf[total - 1] = (uint8_t)(total - pt_len - 1);
}

/* ICV over everything from the IKE header to the end of the ciphertext. */
static int integ_icv(const struct sk_ctx *ctx, struct cbytes aad,
		     struct cbytes body, uint8_t *icv, struct crypto_err *err)
{
	const struct cbytes iov[] = { aad, body };
	uint8_t full[PRF_MAX_OUT];
	int rc;

	rc = mac_computev(ctx->integ->mech, secret_view(&ctx->integ_key), iov,
			  2, full, ctx->integ->mac_len, err);
	if (rc == 0)
		memcpy(icv, full, ctx->integ->icv_len);
	secret_wipe(full, sizeof(full));
	return rc;
}

static void aead_nonce(const struct sk_ctx *ctx, const uint8_t *iv,
		       uint8_t nonce[AEAD_NONCE_LEN])
{
	memcpy(nonce, ctx->salt, ctx->encr->salt_len);
	memcpy(nonce + ctx->encr->salt_len, iv, ctx->encr->iv_len);
}

static int seal_cbc(struct sk_ctx *ctx, struct cbytes aad, struct cbytes pt,
		    uint8_t *out, struct crypto_err *err)
{
	size_t ivl = ctx->encr->iv_len, len = padded_len(ctx, pt.len);
	uint8_t *ct = out + ivl;
	int rc;

	rc = rng_bytes(out, ivl, err);
	if (rc)
		return rc;
	memmove(ct, pt.ptr, pt.len);
	pad(ct, pt.len, len);
	rc = cbc_crypt(true, secret_view(&ctx->key), out, ct, len, ct, err);
	if (rc)
		return rc;
	return integ_icv(ctx, aad, CBYTES(out, ivl + len), ct + len, err);
}

static int seal_aead(struct sk_ctx *ctx, struct cbytes aad, struct cbytes pt,
		     uint8_t *out, struct crypto_err *err)
{
	size_t ivl = ctx->encr->iv_len, len = padded_len(ctx, pt.len);
	uint8_t nonce[AEAD_NONCE_LEN];
	struct secret buf;
	uint64_t iv = ctx->next_iv++;
	int rc;

	for (size_t i = 0; i < ivl; i++)
		out[i] = (uint8_t)(iv >> (8 * (ivl - 1 - i)));
	if (secret_alloc(&buf, len))
		return crypto_fail(err, -ENOMEM, "SK: out of memory");
	memcpy(buf.ptr, pt.ptr, pt.len);
	pad(buf.ptr, pt.len, len);
	aead_nonce(ctx, out, nonce);
	rc = aead_seal(ctx->encr, secret_view(&ctx->key), nonce, aad,
		       secret_view(&buf), out + ivl, err);
	secret_free(&buf);
	return rc;
}

int sk_seal(struct sk_ctx *ctx, struct cbytes aad, struct cbytes pt,
	    uint8_t *out, size_t out_len, struct crypto_err *err)
{
	if (out_len != sk_sealed_len(ctx, pt.len))
		return crypto_fail(err, -EINVAL,
				   "SK: output is %zu bytes, needs %zu",
				   out_len, sk_sealed_len(ctx, pt.len));
	if (ctx->encr->aead && ctx->next_iv == UINT64_MAX)
		return crypto_fail(err, -ERANGE, "SK: IV space exhausted");
	if (ctx->encr->aead)
		return seal_aead(ctx, aad, pt, out, err);
	return seal_cbc(ctx, aad, pt, out, err);
}

static int strip_pad(uint8_t *pt, size_t len, size_t *pt_len,
		     struct crypto_err *err)
{
	size_t padlen = pt[len - 1];

	if (padlen + 1 > len) {
		secret_wipe(pt, len);
		return crypto_fail(
			err, -EBADMSG,
			"SK payload: pad length %zu exceeds %zu bytes", padlen,
			len - 1);
	}
	*pt_len = len - padlen - 1;
	return 0;
}

static int open_cbc(const struct sk_ctx *ctx, struct cbytes aad,
		    struct cbytes body, uint8_t *pt, size_t *pt_len,
		    struct crypto_err *err)
{
	size_t ivl = ctx->encr->iv_len, icvl = ctx->integ->icv_len;
	size_t len = body.len - ivl - icvl;
	uint8_t icv[INTEG_MAX_ICV];
	int rc;

	if (len % ctx->encr->block_size)
		return crypto_fail(
			err, -EBADMSG,
			"SK payload: ciphertext length %zu is not a multiple of %zu",
			len, ctx->encr->block_size);
	rc = integ_icv(ctx, aad, CBYTES(body.ptr, ivl + len), icv, err);
	if (rc)
		return rc;
	if (NSS_SecureMemcmp(icv, body.ptr + ivl + len, icvl) != 0)
		return crypto_fail(err, -EBADMSG,
				   "SK payload: integrity check failed (%s)",
				   ctx->integ->name);
	rc = cbc_crypt(false, secret_view(&ctx->key), body.ptr, body.ptr + ivl,
		       len, pt, err);
	if (rc)
		return rc;
	return strip_pad(pt, len, pt_len, err);
}

static int open_aead(const struct sk_ctx *ctx, struct cbytes aad,
		     struct cbytes body, uint8_t *pt, size_t *pt_len,
		     struct crypto_err *err)
{
	size_t ivl = ctx->encr->iv_len;
	uint8_t nonce[AEAD_NONCE_LEN];
	int rc;

	aead_nonce(ctx, body.ptr, nonce);
	rc = aead_open(ctx->encr, secret_view(&ctx->key), nonce, aad,
		       CBYTES(body.ptr + ivl, body.len - ivl), pt, err);
	if (rc)
		return rc;
	return strip_pad(pt, body.len - ivl - ctx->encr->icv_len, pt_len, err);
}

int sk_open(const struct sk_ctx *ctx, struct cbytes aad, struct cbytes body,
	    uint8_t *pt, size_t *pt_len, struct crypto_err *err)
{
	*pt_len = 0;
	if (body.len < sk_min_len(ctx))
		return crypto_fail(
			err, -EBADMSG,
			"SK payload: body length %zu, %s needs at least %zu",
			body.len, ctx->encr->name, sk_min_len(ctx));
	if (ctx->encr->aead)
		return open_aead(ctx, aad, body, pt, pt_len, err);
	return open_cbc(ctx, aad, body, pt, pt_len, err);
}
