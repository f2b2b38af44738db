// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FIPS mode: approved algorithms work end to end (softoken refuses raw key
 * import/export there, so this exercises the wrapped path), the others are
 * refused. Skipped when this NSS cannot enter FIPS mode.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <keyhi.h>
#include <pk11pub.h>
#include <secoid.h>

#include "crypto/algs.h"
#include "crypto/ke.h"
#include "crypto/nss_init.h"
#include "crypto/prf.h"
#include "crypto/rng.h"
#include "crypto/sig.h"
#include "crypto/sk.h"
#include "crypto/skeyseed.h"
#include "tutil.h"

static bool fips_ok;

static int setup(void **state)
{
	struct crypto_err err = { 0 };

	fips_ok = crypto_init(true, &err) == 0;
	if (!fips_ok)
		print_message("FIPS mode unavailable: %s\n", err.msg);
	return 0;
}

static void need_fips(void)
{
	if (!fips_ok)
		skip();
	assert_true(crypto_fips());
}

static void ke_agree(uint16_t group)
{
	struct crypto_err err = { 0 };
	struct ke *a = NULL, *b = NULL;
	struct secret s1, s2;

	if (ke_generate(&a, group, &err) || ke_generate(&b, group, &err) ||
	    ke_derive(a, ke_public(b), &s1, &err) ||
	    ke_derive(b, ke_public(a), &s2, &err))
		fail_msg("group %u: %s", group, err.msg);
	assert_int_equal(s1.len, s2.len);
	assert_memory_equal(s1.ptr, s2.ptr, s1.len);
	secret_free(&s1);
	secret_free(&s2);
	ke_free(a);
	ke_free(b);
}

static void fips_ke(void **state)
{
	struct crypto_err err = { 0 };
	struct ke *ke = NULL;

	need_fips();
	ke_agree(IKEV2_KE_MODP2048);
	ke_agree(IKEV2_KE_ECP256);
	ke_agree(IKEV2_KE_ECP384);
	assert_int_equal(ke_generate(&ke, IKEV2_KE_CURVE25519, &err), -EPERM);
	assert_non_null(strstr(err.msg, "FIPS"));
}

/* RFC 4231 case 1 must still hold with the key unwrapped into the token. */
static void fips_prf(void **state)
{
	struct tbuf k = fill(0x0b, 20), d = text("Hi There");
	struct tbuf w = hex("b0344c61d8db38535ca8afceaf0bf12b"
			    "881dc200c9833da726e9376c2e32cff7");
	uint8_t out[PRF_MAX_OUT];
	struct crypto_err err = { 0 };

	need_fips();
	assert_int_equal(
		prf_compute(IKEV2_PRF_HMAC_SHA2_256, tb(&k), tb(&d), out, &err),
		0);
	assert_memory_equal(out, w.b, 32);
	assert_int_equal(
		prf_compute(IKEV2_PRF_AES128_XCBC, tb(&k), tb(&d), out, &err),
		-EPERM);
}

static void sk_trip(uint16_t encr, unsigned bits, uint16_t integ)
{
	uint8_t ek[36], ik[64], aad[32] = { 9 }, pt[40] = { 7 };
	uint8_t body[200], back[200];
	const struct encr_desc *e = encr_desc_by_id(encr);
	const struct integ_desc *i = integ_desc_by_id(integ);
	struct crypto_err err = { 0 };
	struct sk_ctx *ctx = NULL;
	size_t len, got;

	assert_int_equal(rng_bytes(ek, sizeof(ek), NULL), 0);
	assert_int_equal(rng_bytes(ik, sizeof(ik), NULL), 0);
	if (sk_ctx_new(&ctx, encr, bits, integ,
		       CBYTES(ek, encr_keymat_len(e, bits)),
		       CBYTES(ik, i ? i->key_len : 0), &err))
		fail_msg("%s", err.msg);
	len = sk_sealed_len(ctx, sizeof(pt));
	if (sk_seal(ctx, CBYTES(aad, 32), CBYTES(pt, sizeof(pt)), body, len,
		    &err) ||
	    sk_open(ctx, CBYTES(aad, 32), CBYTES(body, len), back, &got, &err))
		fail_msg("%s: %s", e->name, err.msg);
	assert_int_equal(got, sizeof(pt));
	assert_memory_equal(back, pt, sizeof(pt));
	body[len - 1] ^= 1;
	assert_int_equal(sk_open(ctx, CBYTES(aad, 32), CBYTES(body, len), back,
				 &got, &err),
			 -EBADMSG);
	sk_ctx_free(ctx);
}

static void fips_sk(void **state)
{
	uint8_t k[36] = { 0 };
	struct crypto_err err = { 0 };
	struct sk_ctx *ctx = NULL;

	need_fips();
	sk_trip(IKEV2_ENCR_AES_GCM_16, 256, IKEV2_INTEG_NONE);
	sk_trip(IKEV2_ENCR_AES_CBC, 128, IKEV2_INTEG_HMAC_SHA2_256_128);
	assert_int_equal(sk_ctx_new(&ctx, IKEV2_ENCR_CHACHA20_POLY1305, 0, 0,
				    CBYTES(k, 36), CBYTES(k, 0), &err),
			 -EPERM);
	assert_int_equal(sk_ctx_new(&ctx, IKEV2_ENCR_AES_CBC, 128,
				    IKEV2_INTEG_AES_XCBC_96, CBYTES(k, 16),
				    CBYTES(k, 16), &err),
			 -EPERM);
}

static void fips_skeyseed(void **state)
{
	static const uint8_t spi[8] = { 1 };
	struct tbuf gir = fill(5, 256), ni = fill(1, 32), nr = fill(2, 32);
	struct ike_sa_keys k;
	struct secret s;

	need_fips();
	assert_int_equal(skeyseed_initial(IKEV2_PRF_HMAC_SHA2_512, tb(&gir),
					  tb(&ni), tb(&nr), &s, NULL),
			 0);
	assert_int_equal(ike_sa_keys_derive(IKEV2_PRF_HMAC_SHA2_512,
					    secret_view(&s), tb(&ni), tb(&nr),
					    spi, spi, 0, 36, &k, NULL),
			 0);
	assert_int_equal(k.sk_er.len, 36);
	ike_sa_keys_free(&k);
	secret_free(&s);
}

/*
 * Signatures: ECDSA with SHA-2 and RSA-PSS sign and verify; SHA-1 (AUTH
 * method 1) is refused both ways, and never chosen.
 */
static SECKEYPrivateKey *fips_key(CK_MECHANISM_TYPE mech, void *params,
				  SECKEYPublicKey **pub)
{
	PK11SlotInfo *slot = PK11_GetInternalKeySlot();
	SECKEYPrivateKey *k;

	/* a FIPS token makes sensitive keys only */
	k = PK11_GenerateKeyPair(slot, mech, params, pub, PR_FALSE, PR_TRUE,
				 NULL);
	PK11_FreeSlot(slot);
	if (!k)
		fail_msg("FIPS key generation failed");
	return k;
}

static void fips_sig(void **state)
{
	static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48,
					0xce, 0x3d, 0x03, 0x01, 0x07 };
	SECItem ec = { siBuffer, (unsigned char *)p256, sizeof(p256) };
	PK11RSAGenParams rp = { 2048, 65537 };
	struct cbytes iov = CBYTES("SignedOctets", 12);
	struct crypto_err err = { 0 };
	SECKEYPublicKey *epub, *rpub;
	SECKEYPrivateKey *ek, *rk;
	uint8_t out[SIG_AUTH_MAX];
	enum sig_scheme used, s;
	size_t len;

	need_fips();
	ek = fips_key(CKM_EC_KEY_PAIR_GEN, &ec, &epub);
	rk = fips_key(CKM_RSA_PKCS_KEY_PAIR_GEN, &rp, &rpub);
	assert_int_equal(sig_sign(ek, SIG_ECDSA_SHA256, &iov, 1, out,
				  sizeof(out), &len, &err),
			 0);
	assert_int_equal(sig_verify(epub, AUTH_DIGITAL_SIG, out, len, &iov, 1,
				    &used, &err),
			 0);
	assert_int_equal(sig_sign(rk, SIG_RSA_PSS_SHA256, &iov, 1, out,
				  sizeof(out), &len, &err),
			 0);
	assert_int_equal(sig_verify(rpub, AUTH_DIGITAL_SIG, out, len, &iov, 1,
				    &used, &err),
			 0);
	assert_int_equal(sig_sign(rk, SIG_RSA_SHA1, &iov, 1, out, sizeof(out),
				  &len, &err),
			 -EPERM);
	assert_non_null(strstr(err.msg, "FIPS"));
	/* without RFC 7427 from the peer, RSA has nothing left to sign */
	assert_int_equal(
		sig_choose(SIG_KEY_RSA, 2048,
			   SIG_HASHES_SHA2 | SIG_HASH_BIT(SIG_HASH_SHA1), 0,
			   false, &s),
		-ENOTSUP);
	SECKEY_DestroyPrivateKey(ek);
	SECKEY_DestroyPrivateKey(rk);
	SECKEY_DestroyPublicKey(epub);
	SECKEY_DestroyPublicKey(rpub);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fips_ke),  cmocka_unit_test(fips_prf),
		cmocka_unit_test(fips_sk),  cmocka_unit_test(fips_skeyseed),
		cmocka_unit_test(fips_sig),
	};

	return cmocka_run_group_tests(tests, setup, nss_teardown);
}
