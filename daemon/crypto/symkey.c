// SPDX-License-Identifier: GPL-2.0-or-later
#include <limits.h>
#include <string.h>

#include "crypto/symkey.h"

#define WRAP_MECH CKM_AES_CBC_PAD
#define WRAP_KEY_LEN 32
#define WRAP_MAX 1040 /* largest key (MODP 4096 g^ir) plus padding */

static const uint8_t wrap_iv[16];

static PK11SymKey *wrapping_key(PK11SlotInfo *slot)
{
	return PK11_KeyGen(slot, CKM_AES_KEY_GEN, NULL, WRAP_KEY_LEN, NULL);
}

static PK11SymKey *import_wrapped(PK11SlotInfo *slot, CK_MECHANISM_TYPE mech,
				  CK_ATTRIBUTE_TYPE op, struct cbytes key)
{
	SECItem iv = { siBuffer, (unsigned char *)wrap_iv, sizeof(wrap_iv) };
	uint8_t buf[WRAP_MAX];
	unsigned int len = 0;
	PK11SymKey *wk = wrapping_key(slot), *sym = NULL;

	if (!wk)
		return NULL;
	if (key.len + 16 <= sizeof(buf) &&
	    PK11_Encrypt(wk, WRAP_MECH, &iv, buf, &len, sizeof(buf), key.ptr,
			 (unsigned)key.len) == SECSuccess) {
		SECItem wrapped = { siBuffer, buf, len };

		sym = PK11_UnwrapSymKey(wk, WRAP_MECH, &iv, &wrapped, mech, op,
					(int)key.len);
	}
	secret_wipe(buf, sizeof(buf));
	PK11_FreeSymKey(wk);
	return sym;
}

PK11SymKey *symkey_import(CK_MECHANISM_TYPE mech, CK_ATTRIBUTE_TYPE op,
			  struct cbytes key)
{
	SECItem item = { siBuffer, (unsigned char *)key.ptr,
			 (unsigned int)key.len };
	PK11SlotInfo *slot;
	PK11SymKey *sym;

	if (key.len == 0 || key.len > UINT_MAX)
		return NULL;
	slot = PK11_GetBestSlot(mech, NULL);
	if (!slot)
		return NULL;
	if (PK11_IsFIPS())
		sym = import_wrapped(slot, mech, op, key);
	else
		sym = PK11_ImportSymKey(slot, mech, PK11_OriginUnwrap, op,
					&item, NULL);
	PK11_FreeSlot(slot);
	return sym;
}

/* CBC_PAD decryption needs room for the padded length, hence plain[]. */
static SECStatus extract_wrapped(PK11SymKey *sym, uint8_t *out, size_t cap,
				 size_t *len)
{
	SECItem iv = { siBuffer, (unsigned char *)wrap_iv, sizeof(wrap_iv) };
	uint8_t buf[WRAP_MAX], plain[WRAP_MAX];
	SECItem wrapped = { siBuffer, buf, sizeof(buf) };
	PK11SlotInfo *slot = PK11_GetSlotFromKey(sym);
	PK11SymKey *wk = slot ? wrapping_key(slot) : NULL;
	unsigned int got = 0;
	SECStatus st = SECFailure;

	if (wk &&
	    PK11_WrapSymKey(WRAP_MECH, &iv, wk, sym, &wrapped) == SECSuccess)
		st = PK11_Decrypt(wk, WRAP_MECH, &iv, plain, &got,
				  sizeof(plain), wrapped.data, wrapped.len);
	if (st == SECSuccess && got > cap)
		st = SECFailure;
	if (st == SECSuccess) {
		memcpy(out, plain, got);
		*len = got;
	}
	secret_wipe(buf, sizeof(buf));
	secret_wipe(plain, sizeof(plain));
	if (wk)
		PK11_FreeSymKey(wk);
	if (slot)
		PK11_FreeSlot(slot);
	return st;
}

SECStatus symkey_extract(PK11SymKey *sym, uint8_t *out, size_t cap, size_t *len)
{
	const SECItem *v;

	*len = 0;
	if (PK11_IsFIPS())
		return extract_wrapped(sym, out, cap, len);
	if (PK11_ExtractKeyValue(sym) != SECSuccess)
		return SECFailure;
	v = PK11_GetKeyData(sym);
	if (!v || v->len > cap)
		return SECFailure;
	memcpy(out, v->data, v->len);
	*len = v->len;
	return SECSuccess;
}
