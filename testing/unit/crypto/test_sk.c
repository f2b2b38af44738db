// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AES-GCM (GCM spec test cases 1-4 and 13-16), ChaCha20-Poly1305
 * (RFC 8439 §2.8.2) and SK payload round trips with tamper detection.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "crypto/algs.h"
#include "crypto/cipher.h"
#include "crypto/rng.h"
#include "crypto/sk.h"
#include "tutil.h"

#define K3 "feffe9928665731c6d6a8f9467308308"
#define IV3 "cafebabefacedbaddecaf888"
#define P3                                                                 \
	"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" \
	"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
#define P4                                                                 \
	"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" \
	"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
#define A4 "feedfacedeadbeeffeedfacedeadbeefabaddad2"

struct gcm_case {
	int n;
	const char *k, *iv, *p, *a, *c, *t;
};

static const struct gcm_case gcm[] = {
	{ 1, "00000000000000000000000000000000", "000000000000000000000000", "",
	  "", "", "58e2fccefa7e3061367f1d57a4e7455a" },
	{ 2, "00000000000000000000000000000000", "000000000000000000000000",
	  "00000000000000000000000000000000", "",
	  "0388dace60b6a392f328c2b971b2fe78",
	  "ab6e47d42cec13bdf53a67b21257bddf" },
	{ 3, K3, IV3, P3, "",
	  "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
	  "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
	  "4d5c2af327cd64a62cf35abd2ba6fab4" },
	{ 4, K3, IV3, P4, A4,
	  "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
	  "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
	  "5bc94fbc3221a5db94fae95ae7121a47" },
	{ 13,
	  "0000000000000000000000000000000000000000000000000000000000000000",
	  "000000000000000000000000", "", "", "",
	  "530f8afbc74536b9a963b4f1c4cb738b" },
	{ 14,
	  "0000000000000000000000000000000000000000000000000000000000000000",
	  "000000000000000000000000", "00000000000000000000000000000000", "",
	  "cea7403d4d606b6e074ec5d3baf39d18",
	  "d0d1c8a799996bf0265b98b5d48ab919" },
	{ 15, K3 K3, IV3, P3, "",
	  "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
	  "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
	  "b094dac5d93471bdec1a502270e3cc6c" },
	{ 16, K3 K3, IV3, P4, A4,
	  "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
	  "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
	  "76fc6ece0f4e1768cddf8853bb2d551b" },
};

/* Seal and open one vector; ICVs shorter than 16 are tag prefixes. */
static void run_aead(uint16_t encr, struct tbuf k, struct tbuf nonce,
		     struct tbuf p, struct tbuf a, struct tbuf c, struct tbuf t)
{
	const struct encr_desc *e = encr_desc_by_id(encr);
	uint8_t out[300], back[300];
	struct crypto_err err = { 0 };

	assert_int_equal(nonce.len, AEAD_NONCE_LEN);
	assert_int_equal(
		aead_seal(e, tb(&k), nonce.b, tb(&a), tb(&p), out, &err), 0);
	assert_memory_equal(out, c.b, c.len);
	assert_memory_equal(out + c.len, t.b, e->icv_len);
	assert_int_equal(aead_open(e, tb(&k), nonce.b, tb(&a),
				   CBYTES(out, c.len + e->icv_len), back, &err),
			 0);
	assert_memory_equal(back, p.b, p.len);
	out[c.len + e->icv_len - 1] ^= 0x01;
	assert_int_equal(aead_open(e, tb(&k), nonce.b, tb(&a),
				   CBYTES(out, c.len + e->icv_len), back, &err),
			 -EBADMSG);
}

static void gcm_spec_vectors(void **state)
{
	static const uint16_t ids[] = { IKEV2_ENCR_AES_GCM_16,
					IKEV2_ENCR_AES_GCM_12,
					IKEV2_ENCR_AES_GCM_8 };

	for (size_t i = 0; i < sizeof(gcm) / sizeof(gcm[0]); i++)
		for (size_t j = 0; j < 3; j++)
			run_aead(ids[j], hex(gcm[i].k), hex(gcm[i].iv),
				 hex(gcm[i].p), hex(gcm[i].a), hex(gcm[i].c),
				 hex(gcm[i].t));
}

static void chacha20_poly1305_rfc8439(void **state)
{
	run_aead(IKEV2_ENCR_CHACHA20_POLY1305,
		 hex("808182838485868788898a8b8c8d8e8f"
		     "909192939495969798999a9b9c9d9e9f"),
		 hex("070000004041424344454647"),
		 text("Ladies and Gentlemen of the class of '99: If I could "
		      "offer you only one tip for the future, sunscreen would "
		      "be it."),
		 hex("50515253c0c1c2c3c4c5c6c7"),
		 hex("d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a7"
		     "36ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b29"
		     "05d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4"
		     "fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b"
		     "6116"),
		 hex("1ae10b594f09e26a7e902ecbd0600691"));
}

struct sk_alg {
	uint16_t encr;
	unsigned bits;
	uint16_t integ;
};

static const struct sk_alg sk_algs[] = {
	{ IKEV2_ENCR_AES_CBC, 128, IKEV2_INTEG_HMAC_SHA1_96 },
	{ IKEV2_ENCR_AES_CBC, 128, IKEV2_INTEG_AES_XCBC_96 },
	{ IKEV2_ENCR_AES_CBC, 192, IKEV2_INTEG_HMAC_SHA2_256_128 },
	{ IKEV2_ENCR_AES_CBC, 256, IKEV2_INTEG_HMAC_SHA2_384_192 },
	{ IKEV2_ENCR_AES_CBC, 256, IKEV2_INTEG_HMAC_SHA2_512_256 },
	{ IKEV2_ENCR_AES_GCM_8, 128, IKEV2_INTEG_NONE },
	{ IKEV2_ENCR_AES_GCM_12, 192, IKEV2_INTEG_NONE },
	{ IKEV2_ENCR_AES_GCM_16, 256, IKEV2_INTEG_NONE },
	{ IKEV2_ENCR_CHACHA20_POLY1305, 0, IKEV2_INTEG_NONE },
};

static struct sk_ctx *new_ctx(const struct sk_alg *a, uint8_t *ek, uint8_t *ik)
{
	const struct encr_desc *e = encr_desc_by_id(a->encr);
	const struct integ_desc *i = integ_desc_by_id(a->integ);
	size_t eklen = encr_keymat_len(e, a->bits), iklen = i ? i->key_len : 0;
	struct crypto_err err = { 0 };
	struct sk_ctx *ctx = NULL;

	if (sk_ctx_new(&ctx, a->encr, a->bits, a->integ, CBYTES(ek, eklen),
		       CBYTES(ik, iklen), &err))
		fail_msg("sk_ctx_new %u/%u: %s", a->encr, a->integ, err.msg);
	return ctx;
}

static void expect_bad(const struct sk_ctx *rx, const uint8_t *aad,
		       const uint8_t *body, size_t len)
{
	uint8_t pt[400];
	size_t pt_len = 99;
	struct crypto_err err = { 0 };

	assert_int_equal(sk_open(rx, CBYTES(aad, 32), CBYTES(body, len), pt,
				 &pt_len, &err),
			 -EBADMSG);
	assert_int_equal(pt_len, 0);
	assert_true(err.msg[0] != '\0');
}

static void round_trip(const struct sk_alg *a, size_t pt_len)
{
	uint8_t ek[ENCR_MAX_KEY + ENCR_MAX_SALT], ik[INTEG_MAX_KEY];
	uint8_t aad[32], pt[200], body[400], back[400];
	struct crypto_err err = { 0 };
	struct sk_ctx *tx, *rx;
	size_t len, got = 0;

	assert_int_equal(rng_bytes(ek, sizeof(ek), NULL), 0);
	assert_int_equal(rng_bytes(ik, sizeof(ik), NULL), 0);
	assert_int_equal(rng_bytes(aad, sizeof(aad), NULL), 0);
	assert_int_equal(rng_bytes(pt, sizeof(pt), NULL), 0);
	tx = new_ctx(a, ek, ik);
	rx = new_ctx(a, ek, ik);
	len = sk_sealed_len(tx, pt_len);
	assert_true(len <= sizeof(body));
	if (sk_seal(tx, CBYTES(aad, 32), CBYTES(pt, pt_len), body, len, &err))
		fail_msg("seal %u: %s", a->encr, err.msg);
	if (sk_open(rx, CBYTES(aad, 32), CBYTES(body, len), back, &got, &err))
		fail_msg("open %u/%u: %s", a->encr, a->integ, err.msg);
	assert_int_equal(got, pt_len);
	assert_memory_equal(back, pt, pt_len);

	/* One flipped bit anywhere must fail authentication. */
	for (size_t bit = 0; bit < len * 8; bit += 37) {
		body[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		expect_bad(rx, aad, body, len);
		body[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	aad[5] ^= 0x10;
	expect_bad(rx, aad, body, len);
	aad[5] ^= 0x10;
	expect_bad(rx, aad, body, len - 1);
	expect_bad(rx, aad, body, sk_min_len(rx) - 1);
	sk_ctx_free(tx);
	sk_ctx_free(rx);
}

static void sk_round_trips(void **state)
{
	static const size_t lens[] = { 0, 1, 15, 16, 17, 100 };

	for (size_t i = 0; i < sizeof(sk_algs) / sizeof(sk_algs[0]); i++)
		for (size_t j = 0; j < sizeof(lens) / sizeof(lens[0]); j++)
			round_trip(&sk_algs[i], lens[j]);
}

/* A different key on the receiving side is an authentication failure. */
static void sk_wrong_key(void **state)
{
	uint8_t ek[36] = { 1 }, ik[64] = { 2 }, aad[32] = { 3 }, body[200];
	uint8_t pt[16] = { 4 };
	struct sk_ctx *tx, *rx;
	size_t len;

	for (size_t i = 0; i < sizeof(sk_algs) / sizeof(sk_algs[0]); i++) {
		tx = new_ctx(&sk_algs[i], ek, ik);
		ek[0] ^= 1;
		ik[0] ^= 1;
		rx = new_ctx(&sk_algs[i], ek, ik);
		ek[0] ^= 1;
		ik[0] ^= 1;
		len = sk_sealed_len(tx, sizeof(pt));
		assert_int_equal(sk_seal(tx, CBYTES(aad, 32),
					 CBYTES(pt, sizeof(pt)), body, len,
					 NULL),
				 0);
		expect_bad(rx, aad, body, len);
		sk_ctx_free(tx);
		sk_ctx_free(rx);
	}
}

/* AEAD IVs come from a per-key counter and never repeat. */
static void sk_aead_iv_unique(void **state)
{
	uint8_t ek[36] = { 0 }, aad[32] = { 0 }, a[64], b[64];
	struct sk_ctx *tx = new_ctx(&sk_algs[7], ek, NULL);
	size_t len = sk_sealed_len(tx, 8);

	assert_int_equal(
		sk_seal(tx, CBYTES(aad, 32), CBYTES(aad, 8), a, len, NULL), 0);
	assert_int_equal(
		sk_seal(tx, CBYTES(aad, 32), CBYTES(aad, 8), b, len, NULL), 0);
	assert_memory_not_equal(a, b, 8);
	assert_memory_not_equal(a + 8, b + 8, len - 8);
	sk_ctx_free(tx);
}

static void sk_bad_setup(void **state)
{
	uint8_t k[64] = { 0 };
	struct crypto_err err = { 0 };
	struct sk_ctx *ctx = NULL;

	assert_int_equal(
		sk_ctx_new(&ctx, 3, 0, 0, CBYTES(k, 16), CBYTES(k, 0), &err),
		-ENOTSUP);
	assert_int_equal(sk_ctx_new(&ctx, IKEV2_ENCR_AES_CBC, 128, 0,
				    CBYTES(k, 16), CBYTES(k, 0), &err),
			 -ENOTSUP);
	assert_int_equal(sk_ctx_new(&ctx, IKEV2_ENCR_AES_CBC, 100,
				    IKEV2_INTEG_HMAC_SHA1_96, CBYTES(k, 16),
				    CBYTES(k, 20), &err),
			 -EINVAL);
	assert_int_equal(sk_ctx_new(&ctx, IKEV2_ENCR_AES_CBC, 128,
				    IKEV2_INTEG_HMAC_SHA1_96, CBYTES(k, 15),
				    CBYTES(k, 20), &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "15 bytes, needs 16"));
	assert_int_equal(sk_ctx_new(&ctx, IKEV2_ENCR_AES_GCM_16, 128,
				    IKEV2_INTEG_HMAC_SHA1_96, CBYTES(k, 20),
				    CBYTES(k, 20), &err),
			 -EINVAL);
	assert_int_equal(sk_ctx_new(&ctx, IKEV2_ENCR_AES_GCM_16, 128, 0,
				    CBYTES(k, 16), CBYTES(k, 0), &err),
			 -EINVAL); /* salt missing */
	assert_null(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gcm_spec_vectors),
		cmocka_unit_test(chacha20_poly1305_rfc8439),
		cmocka_unit_test(sk_round_trips),
		cmocka_unit_test(sk_wrong_key),
		cmocka_unit_test(sk_aead_iv_unique),
		cmocka_unit_test(sk_bad_setup),
	};

	return cmocka_run_group_tests(tests, nss_setup, nss_teardown);
}
