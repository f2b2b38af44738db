// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AUTH signatures: every scheme signs and verifies with a key made here,
 * the AlgorithmIdentifiers we send decode (through NSS) to the algorithm
 * and PSS parameters RFC 7427 Appendix A gives them, a changed octet of
 * the data or the signature fails, malformed AUTH data is refused without
 * a crash, and the scheme choice follows the peer's hashes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <keyhi.h>
#include <pk11pub.h>
#include <nssb64.h>
#include <secoid.h>

#include "crypto/cred.h"
#include "crypto/sig.h"
#include "crypto/sig_priv.h"
#include "tutil.h"

struct pair {
	SECKEYPrivateKey *priv;
	SECKEYPublicKey *pub;
};

static struct pair rsa2048, p256, p384, p521;

static void gen_rsa(struct pair *p)
{
	PK11SlotInfo *slot = PK11_GetInternalSlot();
	PK11RSAGenParams rp = { 2048, 65537 };

	p->priv = PK11_GenerateKeyPair(slot, CKM_RSA_PKCS_KEY_PAIR_GEN, &rp,
				       &p->pub, PR_FALSE, PR_FALSE, NULL);
	PK11_FreeSlot(slot);
	assert_non_null(p->priv);
}

static void gen_ec(struct pair *p, SECOidTag curve)
{
	PK11SlotInfo *slot = PK11_GetInternalSlot();
	SECOidData *oid = SECOID_FindOIDByTag(curve);
	SECItem *params = SECITEM_AllocItem(NULL, NULL, 2 + oid->oid.len);

	params->data[0] = SEC_ASN1_OBJECT_ID;
	params->data[1] = (unsigned char)oid->oid.len;
	memcpy(params->data + 2, oid->oid.data, oid->oid.len);
	p->priv = PK11_GenerateKeyPair(slot, CKM_EC_KEY_PAIR_GEN, params,
				       &p->pub, PR_FALSE, PR_FALSE, NULL);
	SECITEM_FreeItem(params, PR_TRUE);
	PK11_FreeSlot(slot);
	assert_non_null(p->priv);
}

static int setup(void **state)
{
	if (nss_setup(state))
		return -1;
	gen_rsa(&rsa2048);
	gen_ec(&p256, SEC_OID_ANSIX962_EC_PRIME256V1);
	gen_ec(&p384, SEC_OID_SECG_EC_SECP384R1);
	gen_ec(&p521, SEC_OID_SECG_EC_SECP521R1);
	return 0;
}

static int teardown(void **state)
{
	struct pair *all[] = { &rsa2048, &p256, &p384, &p521 };

	for (size_t i = 0; i < 4; i++) {
		SECKEY_DestroyPrivateKey(all[i]->priv);
		SECKEY_DestroyPublicKey(all[i]->pub);
	}
	return nss_teardown(state);
}

static struct pair *key_for(enum sig_scheme s)
{
	const struct sig_scheme_info *i = sig_scheme(s);

	if (i->key == SIG_KEY_RSA)
		return &rsa2048;
	return i->ec_bits == 384 ? &p384 : i->ec_bits == 521 ? &p521 : &p256;
}

static const char msg1[] = "RealMessage", msg2[] = "Nonce|prf(SK_p, ID)";

static void sign_verify_all(void **state)
{
	struct cbytes iov[2] = { CBYTES(msg1, sizeof(msg1)),
				 CBYTES(msg2, sizeof(msg2)) };

	for (int s = 0; s < SIG_SCHEMES; s++) {
		const struct sig_scheme_info *i = sig_scheme(s);
		struct pair *k = key_for(s);
		uint8_t out[SIG_AUTH_MAX];
		size_t len;
		struct crypto_err err = { 0 };
		enum sig_scheme used = SIG_SCHEMES;

		assert_int_equal(sig_sign(k->priv, s, iov, 2, out, sizeof(out),
					  &len, &err),
				 0);
		assert_int_equal(sig_verify(k->pub, i->method, out, len, iov, 2,
					    &used, &err),
				 0);
		assert_int_equal(used, s);
		/* a changed octet of the data, then of the signature */
		iov[0] = CBYTES("RealMessagX", sizeof(msg1));
		assert_int_equal(sig_verify(k->pub, i->method, out, len, iov, 2,
					    &used, &err),
				 -EPERM);
		assert_non_null(strstr(err.msg, "does not verify"));
		iov[0] = CBYTES(msg1, sizeof(msg1));
		out[len - 1] ^= 1;
		assert_int_not_equal(sig_verify(k->pub, i->method, out, len,
						iov, 2, &used, &err),
				     0);
	}
	(void)state;
}

/* RFC 7427 Appendix A: what each AlgorithmIdentifier must decode to. */
static void algids_decode(void **state)
{
	static const struct {
		enum sig_scheme s;
		SECOidTag tag;
		int salt;
	} want[] = {
		{ SIG_RSA_PSS_SHA256, SEC_OID_PKCS1_RSA_PSS_SIGNATURE, 32 },
		{ SIG_RSA_PSS_SHA384, SEC_OID_PKCS1_RSA_PSS_SIGNATURE, 48 },
		{ SIG_RSA_PSS_SHA512, SEC_OID_PKCS1_RSA_PSS_SIGNATURE, 64 },
		{ SIG_RSA_PKCS1_SHA256,
		  SEC_OID_PKCS1_SHA256_WITH_RSA_ENCRYPTION, 0 },
		{ SIG_RSA_PKCS1_SHA384,
		  SEC_OID_PKCS1_SHA384_WITH_RSA_ENCRYPTION, 0 },
		{ SIG_RSA_PKCS1_SHA512,
		  SEC_OID_PKCS1_SHA512_WITH_RSA_ENCRYPTION, 0 },
		{ SIG_ECDSA_SHA256, SEC_OID_ANSIX962_ECDSA_SHA256_SIGNATURE,
		  0 },
		{ SIG_ECDSA_SHA384, SEC_OID_ANSIX962_ECDSA_SHA384_SIGNATURE,
		  0 },
		{ SIG_ECDSA_SHA512, SEC_OID_ANSIX962_ECDSA_SHA512_SIGNATURE,
		  0 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct sig_def *d = &sig_defs[want[i].s];
		PLArenaPool *arena = PORT_NewArena(512);
		SECAlgorithmID id;
		SECKEYRSAPSSParams pss;
		unsigned long salt = 0;

		assert_int_equal(
			sig_decode_algid(arena, d->algid, d->algid_len, &id),
			0);
		assert_int_equal(SECOID_GetAlgorithmTag(&id), want[i].tag);
		if (want[i].salt) {
			memset(&pss, 0, sizeof(pss));
			assert_int_equal(
				SEC_QuickDERDecodeItem(
					arena, &pss,
					SEC_ASN1_GET(
						SECKEY_RSAPSSParamsTemplate),
					&id.parameters),
				SECSuccess);
			assert_int_equal(SECOID_GetAlgorithmTag(pss.hashAlg),
					 d->hash);
			assert_int_equal(SECOID_GetAlgorithmTag(pss.maskAlg),
					 SEC_OID_PKCS1_MGF1);
			assert_int_equal(
				SEC_ASN1DecodeInteger(&pss.saltLength, &salt),
				SECSuccess);
			assert_int_equal(salt, want[i].salt);
		}
		PORT_FreeArena(arena, PR_FALSE);
	}
	(void)state;
}

/* Peer input: truncated, lying lengths, random octets. */
static void malformed(void **state)
{
	struct cbytes iov[1] = { CBYTES(msg1, sizeof(msg1)) };
	const struct sig_def *d = &sig_defs[SIG_RSA_PSS_SHA256];
	uint8_t b[200] = { 0 };
	struct crypto_err err = { 0 };
	enum sig_scheme used;

	assert_int_equal(sig_verify(rsa2048.pub, AUTH_DIGITAL_SIG, b, 0, iov, 1,
				    &used, &err),
			 -EBADMSG);
	b[0] = 200;
	assert_int_equal(sig_verify(rsa2048.pub, AUTH_DIGITAL_SIG, b, 10, iov,
				    1, &used, &err),
			 -EBADMSG);
	b[0] = (uint8_t)d->algid_len;
	memcpy(b + 1, d->algid, d->algid_len);
	assert_int_equal(sig_verify(rsa2048.pub, AUTH_DIGITAL_SIG, b,
				    1 + d->algid_len, iov, 1, &used, &err),
			 -EBADMSG);
	b[3] = 0x99; /* an OID that is nothing */
	assert_int_not_equal(sig_verify(rsa2048.pub, AUTH_DIGITAL_SIG, b,
					sizeof(b), iov, 1, &used, &err),
			     0);
	srand(7);
	for (int n = 0; n < 2000; n++) {
		size_t len = (size_t)(rand() % (int)sizeof(b));

		for (size_t i = 0; i < len; i++)
			b[i] = (uint8_t)rand();
		if (n % 2)
			b[0] = (uint8_t)(rand() % 80);
		assert_int_not_equal(
			sig_verify(n % 3 ? rsa2048.pub : p256.pub,
				   n % 5 ? AUTH_DIGITAL_SIG : AUTH_ECDSA_256, b,
				   len, iov, 1, &used, &err),
			0);
	}
	assert_int_equal(sig_verify(p256.pub, AUTH_ECDSA_256, b, 63, iov, 1,
				    &used, &err),
			 -EBADMSG);
	(void)state;
}

static void choose(void **state)
{
	enum sig_scheme s;
	unsigned all = SIG_HASHES_SHA2 | SIG_HASH_BIT(SIG_HASH_SHA1);

	assert_int_equal(sig_choose(SIG_KEY_RSA, 2048, all, 0, false, &s), 0);
	assert_int_equal(s, SIG_RSA_SHA1);
	assert_int_equal(
		sig_choose(SIG_KEY_RSA, 2048, SIG_HASHES_SHA2, 0, false, &s),
		-ENOTSUP);
	assert_int_equal(sig_choose(SIG_KEY_EC, 384, all, 0, false, &s), 0);
	assert_int_equal(s, SIG_ECDSA_P384_SHA384);
	assert_int_equal(
		sig_choose(SIG_KEY_RSA, 2048, all, SIG_HASHES_SHA2, false, &s),
		0);
	assert_int_equal(s, SIG_RSA_PSS_SHA256);
	assert_int_equal(sig_choose(SIG_KEY_RSA, 2048, all,
				    SIG_HASH_BIT(SIG_HASH_SHA2_512), true, &s),
			 0);
	assert_int_equal(s, SIG_RSA_PKCS1_SHA512);
	assert_int_equal(
		sig_choose(SIG_KEY_EC, 521, all, SIG_HASHES_SHA2, false, &s),
		0);
	assert_int_equal(s, SIG_ECDSA_SHA512);
	assert_int_equal(sig_choose(SIG_KEY_EC, 256,
				    SIG_HASH_BIT(SIG_HASH_SHA2_384),
				    SIG_HASH_BIT(SIG_HASH_SHA2_256), false, &s),
			 -ENOTSUP);
	(void)state;
}

static void key_types(void **state)
{
	unsigned bits;

	assert_int_equal(sig_priv_type(rsa2048.priv, &bits), SIG_KEY_RSA);
	assert_int_equal(bits, 2048);
	assert_int_equal(sig_pub_type(rsa2048.pub, &bits), SIG_KEY_RSA);
	assert_int_equal(bits, 2048);
	assert_int_equal(sig_priv_type(p521.priv, &bits), SIG_KEY_EC);
	assert_int_equal(bits, 521);
	assert_int_equal(sig_pub_type(p384.pub, &bits), SIG_KEY_EC);
	assert_int_equal(bits, 384);
	(void)state;
}

/* libreswan's rsasigkey=0s...: RFC 3110 in base64, as verifying keys. */
static void raw_keys(void **state)
{
	const SECItem *n = &rsa2048.pub->u.rsa.modulus;
	const SECItem *e = &rsa2048.pub->u.rsa.publicExponent;
	uint8_t blob[600], out[SIG_AUTH_MAX];
	struct cbytes iov = CBYTES(msg1, sizeof(msg1));
	struct crypto_err err = { 0 };
	SECItem item = { siBuffer, blob, 0 };
	struct cred *c = NULL;
	enum sig_scheme used;
	char text[900], *b64;
	size_t len;

	blob[0] = (uint8_t)e->len;
	memcpy(blob + 1, e->data, e->len);
	memcpy(blob + 1 + e->len, n->data + !n->data[0], n->len - !n->data[0]);
	item.len = 1 + e->len + n->len - !n->data[0];
	b64 = NSSBase64_EncodeItem(NULL, NULL, 0, &item);
	assert_non_null(b64);
	/* the encoder breaks lines; a conn's value has none */
	len = 0;
	for (char *p = b64; *p; p++)
		if (*p != '\r' && *p != '\n')
			text[2 + len++] = *p;
	text[0] = '0', text[1] = 's', text[2 + len] = '\0';
	PORT_Free(b64);
	assert_int_equal(cred_load_raw(text, NULL, false, &c, &err), 0);
	assert_int_equal(c->bits, 2048);
	assert_int_equal(c->key, SIG_KEY_RSA);
	/* what our key signs, the raw public key verifies */
	assert_int_equal(sig_sign(rsa2048.priv, SIG_RSA_PSS_SHA256, &iov, 1,
				  out, sizeof(out), &len, &err),
			 0);
	assert_int_equal(sig_verify(c->pub, AUTH_DIGITAL_SIG, out, len, &iov, 1,
				    &used, &err),
			 0);
	cred_put(c);
	/* refusals: not 0s, not base64, a length past the end */
	assert_int_equal(cred_load_raw("0x0103", NULL, false, &c, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "RFC 3110"));
	assert_int_equal(cred_load_raw("0s!!!!", NULL, false, &c, &err),
			 -EINVAL);
	assert_int_equal(cred_load_raw("0s/wEAAQ==", NULL, false, &c, &err),
			 -EINVAL);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sign_verify_all),
		cmocka_unit_test(algids_decode),
		cmocka_unit_test(malformed),
		cmocka_unit_test(choose),
		cmocka_unit_test(key_types),
		cmocka_unit_test(raw_keys),
	};

	return cmocka_run_group_tests_name("crypto-sig", tests, setup,
					   teardown);
}
