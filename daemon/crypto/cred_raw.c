// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Raw RSA keys as libreswan writes them (ckaid= alone: the key in the
 * database and its public half): leftrsasigkey=0s... is an RFC
 * 3110 RSA public key (exponent length, exponent, modulus) in base64;
 * the private key of the local end is found in the NSS database by its
 * CKA_ID, leftckaid=, or, without it, by NSS's own CKA_ID of an RSA key,
 * the SHA-1 of its modulus (what `ipsec newhostkey` makes). No
 * certificate: the ID is the conn's, and no CERT payload goes out.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <keyhi.h>
#include <nssb64.h>
#include <pk11pub.h>

#include "crypto/cred.h"
#include "crypto/nssdb.h"

/* RFC 3110 §2: a length octet, or 0 and two octets, then the exponent. */
static int rfc3110(const SECItem *b, SECItem *e, SECItem *n)
{
	size_t off = 1, elen;

	if (b->len < 3)
		return -EINVAL;
	elen = b->data[0];
	if (!elen) {
		elen = (size_t)b->data[1] << 8 | b->data[2];
		off = 3;
	}
	if (!elen || off + elen >= b->len)
		return -EINVAL;
	*e = (SECItem){ siUnsignedInteger, b->data + off, (unsigned)elen };
	*n = (SECItem){ siUnsignedInteger, b->data + off + elen,
			(unsigned)(b->len - off - elen) };
	return n->data[0] ? 0 : -EINVAL; /* no leading zero octet */
}

static SECKEYPublicKey *rsa_pub(const SECItem *e, const SECItem *n)
{
	PLArenaPool *arena = PORT_NewArena(DER_DEFAULT_CHUNKSIZE);
	SECKEYPublicKey *k =
		arena ? PORT_ArenaZNew(arena, SECKEYPublicKey) : NULL;

	if (!k || SECITEM_CopyItem(arena, &k->u.rsa.modulus, n) != SECSuccess ||
	    SECITEM_CopyItem(arena, &k->u.rsa.publicExponent, e) !=
		    SECSuccess) {
		if (arena)
			PORT_FreeArena(arena, PR_FALSE);
		return NULL;
	}
	k->arena = arena;
	k->keyType = rsaKey;
	k->pkcs11ID = CK_INVALID_HANDLE;
	return k;
}

static int parse_hex(const char *t, uint8_t *out, size_t cap, size_t *len)
{
	size_t n = strlen(t);

	if (n % 2 || n / 2 > cap || !n)
		return -EINVAL;
	for (size_t i = 0; i < n; i += 2) {
		unsigned v;

		if (!isxdigit((unsigned char)t[i]) ||
		    !isxdigit((unsigned char)t[i + 1]) ||
		    sscanf(t + i, "%2x", &v) != 1)
			return -EINVAL;
		out[i / 2] = (uint8_t)v;
	}
	*len = n / 2;
	return 0;
}

static int find_key(struct cred *c, const char *ckaid, const SECItem *n,
		    struct crypto_err *err)
{
	uint8_t id[64];
	size_t len = 20;
	SECItem item = { siBuffer, id, 0 };

	if (!nssdb_slot())
		return crypto_fail(err, -ENOENT, "%s", nssdb_why_closed());
	if (ckaid && parse_hex(ckaid, id, sizeof(id), &len))
		return crypto_fail(err, -EINVAL,
				   "ckaid=%.60s: expected hex digits", ckaid);
	if (!ckaid && !n)
		return crypto_fail(err, -EINVAL, "no ckaid= and no rsasigkey=");
	if (!ckaid && PK11_HashBuf(SEC_OID_SHA1, id, n->data,
				   (PRInt32)n->len) != SECSuccess)
		return crypto_fail_nss(err, -EIO, "SHA-1");
	item.len = (unsigned)len;
	c->priv = cred_session_key(
		PK11_FindKeyByKeyID(nssdb_slot(), &item, NULL));
	if (!c->priv)
		return crypto_fail(
			err, -ENOENT,
			"no private key with CKA_ID %s%.60s in the NSS database %s (certutil -K lists them)",
			ckaid ? "" : "(the SHA-1 of the modulus) ",
			ckaid ? ckaid : "", nssdb_dir());
	return 0;
}

static void named(struct cred *c, const char *ckaid)
{
	c->refs = 1;
	c->key = SIG_KEY_RSA;
	snprintf(c->nickname, sizeof(c->nickname), "%s",
		 ckaid ? ckaid : "(raw RSA key)");
	snprintf(c->subject, sizeof(c->subject), "raw RSA %u-bit key", c->bits);
}

static int by_ckaid(struct cred *c, const char *ckaid, struct cred **out,
		    struct crypto_err *err)
{
	int rc = find_key(c, ckaid, NULL, err);

	if (!rc && SECKEY_GetPrivateKeyType(c->priv) != rsaKey)
		rc = crypto_fail(err, -EINVAL, "ckaid=%.60s: not an RSA key",
				 ckaid);
	if (!rc && !(c->pub = SECKEY_ConvertToPublicKey(c->priv)))
		rc = crypto_fail_nss(err, -EIO, "ckaid=%.60s", ckaid);
	if (rc) {
		c->refs = 1;
		cred_put(c);
		return rc;
	}
	c->bits = SECKEY_PublicKeyStrengthInBits(c->pub);
	named(c, ckaid);
	*out = c;
	return 0;
}

int cred_load_raw(const char *rsasigkey, const char *ckaid, bool key,
		  struct cred **out, struct crypto_err *err)
{
	struct cred *c = calloc(1, sizeof(*c));
	SECItem *b = NULL, e, n;
	int rc = c ? 0 : -ENOMEM;

	if (!rc && !rsasigkey) /* ckaid= alone: the key's own public half */
		return by_ckaid(c, ckaid, out, err);
	if (!rc && (strncmp(rsasigkey, "0s", 2) ||
		    !(b = NSSBase64_DecodeBuffer(NULL, NULL, rsasigkey + 2,
						 strlen(rsasigkey + 2))) ||
		    rfc3110(b, &e, &n)))
		rc = crypto_fail(
			err, -EINVAL,
			"rsasigkey=%.20s...: not an RFC 3110 RSA key in base64 (0s...)",
			rsasigkey);
	if (!rc && !(c->pub = rsa_pub(&e, &n)))
		rc = crypto_fail(err, -ENOMEM, "out of memory");
	if (!rc && key)
		rc = find_key(c, ckaid, &n, err);
	if (!rc) {
		c->bits = 8 * n.len;
		named(c, ckaid);
		*out = c;
	} else if (c) {
		c->refs = 1;
		cred_put(c);
	}
	if (b)
		SECITEM_FreeItem(b, PR_TRUE);
	return rc;
}
