/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Moving key bytes into and out of the NSS token. In FIPS mode softoken
 * refuses plain PK11_ImportSymKey and PK11_ExtractKeyValue, so keys travel
 * wrapped under a throw-away AES key instead (the token still sees only
 * wrap and unwrap operations).
 */
#ifndef IKB_CRYPTO_SYMKEY_H
#define IKB_CRYPTO_SYMKEY_H

#include <pk11pub.h>

#include "crypto/secret.h"

/* A session key for mech usable for op (CKA_SIGN, CKA_ENCRYPT, ...). */
PK11SymKey *symkey_import(CK_MECHANISM_TYPE mech, CK_ATTRIBUTE_TYPE op,
			  struct cbytes key);
/* The key's value; out holds cap bytes; *len receives the length. */
SECStatus symkey_extract(PK11SymKey *sym, uint8_t *out, size_t cap,
			 size_t *len);

#endif
