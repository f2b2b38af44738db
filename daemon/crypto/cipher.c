// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>

#include <pk11pub.h>
#include <pkcs11n.h>

#include "crypto/cipher.h"
#include "crypto/symkey.h"

/* One PK11_Encrypt/PK11_Decrypt with a fresh key object. */
static SECStatus run(bool encrypt, CK_MECHANISM_TYPE mech, struct cbytes key,
		     SECItem *param, const uint8_t *in, size_t in_len,
		     uint8_t *out, size_t out_len)
{
	PK11SymKey *sym;
	unsigned int got = 0;
	SECStatus st;

	if (in_len > UINT_MAX || out_len > UINT_MAX || key.len > UINT_MAX)
		return SECFailure;
	sym = symkey_import(mech, encrypt ? CKA_ENCRYPT : CKA_DECRYPT, key);
	if (!sym)
		return SECFailure;
	if (encrypt)
		st = PK11_Encrypt(sym, mech, param, out, &got,
				  (unsigned)out_len, in, (unsigned)in_len);
	else
		st = PK11_Decrypt(sym, mech, param, out, &got,
				  (unsigned)out_len, in, (unsigned)in_len);
	PK11_FreeSymKey(sym);
	if (st == SECSuccess && got != out_len)
		st = SECFailure;
	return st;
}

int cbc_crypt(bool encrypt, struct cbytes key, const uint8_t iv[AES_BLOCK_LEN],
	      const uint8_t *in, size_t len, uint8_t *out,
	      struct crypto_err *err)
{
	SECItem param = { siBuffer, (unsigned char *)iv, AES_BLOCK_LEN };

	if (len % AES_BLOCK_LEN)
		return crypto_fail(
			err, -EINVAL,
			"AES-CBC: length %zu is not a multiple of 16", len);
	if (run(encrypt, CKM_AES_CBC, key, &param, in, len, out, len) !=
	    SECSuccess)
		return crypto_fail_nss(err, -EIO, "AES-CBC %s failed",
				       encrypt ? "encrypt" : "decrypt");
	return 0;
}

/*
 * PK11 wants mechanism-specific parameter blocks; both live on the
 * caller's stack for the duration of the call.
 */
union aead_params {
	CK_GCM_PARAMS_V3 gcm;
	CK_NSS_AEAD_PARAMS chacha;
};

static CK_MECHANISM_TYPE aead_params(const struct encr_desc *e,
				     const uint8_t *nonce, struct cbytes aad,
				     union aead_params *p, SECItem *item)
{
	item->type = siBuffer;
	item->data = (unsigned char *)p;
	if (e->id == IKEV2_ENCR_CHACHA20_POLY1305) {
		p->chacha = (CK_NSS_AEAD_PARAMS){
			.pNonce = (CK_BYTE_PTR)nonce,
			.ulNonceLen = AEAD_NONCE_LEN,
			.pAAD = (CK_BYTE_PTR)aad.ptr,
			.ulAADLen = aad.len,
			.ulTagLen = e->icv_len,
		};
		item->len = sizeof(p->chacha);
		return CKM_NSS_CHACHA20_POLY1305;
	}
	p->gcm = (CK_GCM_PARAMS_V3){
		.pIv = (CK_BYTE_PTR)nonce,
		.ulIvLen = AEAD_NONCE_LEN,
		.ulIvBits = AEAD_NONCE_LEN * 8,
		.pAAD = (CK_BYTE_PTR)aad.ptr,
		.ulAADLen = aad.len,
		.ulTagBits = e->icv_len * 8,
	};
	item->len = sizeof(p->gcm);
	return CKM_AES_GCM;
}

int aead_seal(const struct encr_desc *e, struct cbytes key,
	      const uint8_t nonce[AEAD_NONCE_LEN], struct cbytes aad,
	      struct cbytes pt, uint8_t *out, struct crypto_err *err)
{
	union aead_params p;
	SECItem item;
	CK_MECHANISM_TYPE mech;

	if (!e->aead)
		return crypto_fail(err, -EINVAL, "%s is not an AEAD", e->name);
	mech = aead_params(e, nonce, aad, &p, &item);
	if (run(true, mech, key, &item, pt.ptr, pt.len, out,
		pt.len + e->icv_len) != SECSuccess)
		return crypto_fail_nss(err, -EIO, "%s: encrypt failed",
				       e->name);
	return 0;
}

int aead_open(const struct encr_desc *e, struct cbytes key,
	      const uint8_t nonce[AEAD_NONCE_LEN], struct cbytes aad,
	      struct cbytes in, uint8_t *out, struct crypto_err *err)
{
	union aead_params p;
	SECItem item;
	CK_MECHANISM_TYPE mech;
	size_t out_len;

	if (!e->aead)
		return crypto_fail(err, -EINVAL, "%s is not an AEAD", e->name);
	if (in.len < e->icv_len)
		return crypto_fail(err, -EBADMSG,
				   "%s: %zu bytes cannot hold a %zu-byte ICV",
				   e->name, in.len, e->icv_len);
	out_len = in.len - e->icv_len;
	mech = aead_params(e, nonce, aad, &p, &item);
	/* softoken reports a bad tag as SEC_ERROR_BAD_DATA. */
	if (run(false, mech, key, &item, in.ptr, in.len, out, out_len) !=
	    SECSuccess) {
		secret_wipe(out, out_len);
		return crypto_fail_nss(err, -EBADMSG,
				       "%s: integrity check failed", e->name);
	}
	return 0;
}
