// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prf+, SKEYSEED, IKE SA keys and Child SA KEYMAT. Each is checked against
 * an independent computation from plain prf calls written in this file,
 * and against a fixed vector computed outside NSS (Python hmac).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "crypto/algs.h"
#include "crypto/keymat.h"
#include "crypto/prf.h"
#include "crypto/prfplus.h"
#include "crypto/skeyseed.h"
#include "tutil.h"

static const uint8_t spi_i[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const uint8_t spi_r[8] = {
	0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18
};

static struct tbuf seq(uint8_t first, size_t len)
{
	struct tbuf t = { .len = len };

	for (size_t i = 0; i < len; i++)
		t.b[i] = (uint8_t)(first + i);
	return t;
}

/* RFC 7296 §2.13 spelt out with single prf calls on one flat seed. */
static void ref_prfplus(uint16_t prf, struct cbytes key, struct cbytes seed,
			uint8_t *out, size_t len)
{
	size_t blk = prf_out_len(prf), done = 0;
	uint8_t in[1200], t[PRF_MAX_OUT];
	size_t tlen = 0;

	for (unsigned n = 1; done < len; n++) {
		size_t inlen = 0, take;

		memcpy(in, t, tlen);
		inlen += tlen;
		memcpy(in + inlen, seed.ptr, seed.len);
		inlen += seed.len;
		in[inlen++] = (uint8_t)n;
		assert_int_equal(
			prf_compute(prf, key, CBYTES(in, inlen), t, NULL), 0);
		tlen = blk;
		take = len - done < blk ? len - done : blk;
		memcpy(out + done, t, take);
		done += take;
	}
}

static void prfplus_matches_reference(void **state)
{
	static const uint16_t prfs[] = {
		IKEV2_PRF_HMAC_SHA1,	 IKEV2_PRF_AES128_XCBC,
		IKEV2_PRF_HMAC_SHA2_256, IKEV2_PRF_HMAC_SHA2_384,
		IKEV2_PRF_HMAC_SHA2_512,
	};
	struct tbuf key = seq(0x30, 40), seed = seq(0x90, 70);
	struct cbytes parts[] = { CBYTES(seed.b, 10), CBYTES(seed.b + 10, 60) };
	uint8_t a[300], b[300];

	for (size_t i = 0; i < sizeof(prfs) / sizeof(prfs[0]); i++) {
		/* odd lengths cover a partial last block */
		for (size_t len = 1; len <= sizeof(a); len += 37) {
			ref_prfplus(prfs[i], tb(&key), tb(&seed), a, len);
			assert_int_equal(prfplus(prfs[i], tb(&key), parts, 2, b,
						 len, NULL),
					 0);
			assert_memory_equal(a, b, len);
		}
	}
}

static void prfplus_limit(void **state)
{
	struct tbuf key = seq(0, 20);
	struct crypto_err err = { 0 };
	static uint8_t out[255 * 20 + 1];

	assert_int_equal(prfplus(IKEV2_PRF_HMAC_SHA1, tb(&key), NULL, 0, out,
				 255 * 20, &err),
			 0);
	assert_int_equal(prfplus(IKEV2_PRF_HMAC_SHA1, tb(&key), NULL, 0, out,
				 255 * 20 + 1, &err),
			 -EINVAL);
	assert_int_equal(prfplus(77, tb(&key), NULL, 0, out, 1, &err),
			 -ENOTSUP);
}

static void skeyseed_fixed_vector(void **state)
{
	struct tbuf gir = seq(0, 32), ni = seq(0x40, 32), nr = seq(0x80, 32);
	struct tbuf want = hex("a029ff484dda9f568f428e65ce6ac71c"
			       "0d61797d8b01508a7ade0fbdaff717fa");
	struct tbuf sk_d = hex("5ae0fa5a058b359060d76c773d6b2c48"
			       "af22b22dad104da68698b4dc8cda28c8");
	struct tbuf sk_ai = hex("5e29cdae7726d20c4f4675f775694c13"
				"24dd3cede4330bc536c3a354425ae5c6");
	struct tbuf sk_er = hex("f933f6e33b45f26d9189343ab59113c6");
	struct tbuf sk_pr = hex("bd5e0caa594cfd5e4c836d9d645c9721"
				"6bcab7a3a423b8903772912dc26a30bd");
	struct crypto_err err = { 0 };
	struct secret s;
	struct ike_sa_keys k;

	assert_int_equal(skeyseed_initial(IKEV2_PRF_HMAC_SHA2_256, tb(&gir),
					  tb(&ni), tb(&nr), &s, &err),
			 0);
	assert_int_equal(s.len, 32);
	assert_memory_equal(s.ptr, want.b, 32);
	assert_int_equal(ike_sa_keys_derive(IKEV2_PRF_HMAC_SHA2_256,
					    secret_view(&s), tb(&ni), tb(&nr),
					    spi_i, spi_r, 32, 16, &k, &err),
			 0);
	assert_int_equal(k.sk_d.len, 32);
	assert_memory_equal(k.sk_d.ptr, sk_d.b, 32);
	assert_memory_equal(k.sk_ai.ptr, sk_ai.b, 32);
	assert_int_equal(k.sk_er.len, 16);
	assert_memory_equal(k.sk_er.ptr, sk_er.b, 16);
	assert_int_equal(k.sk_pr.len, 32);
	assert_memory_equal(k.sk_pr.ptr, sk_pr.b, 32);
	ike_sa_keys_free(&k);
	secret_free(&s);
}

static void check_ike_keys(uint16_t prf, size_t integ, size_t encr)
{
	struct tbuf gir = seq(9, 256), ni = seq(0x40, 32), nr = seq(0xa0, 48);
	size_t pk = prf_desc_by_id(prf)->key_len;
	size_t total = 3 * pk + 2 * integ + 2 * encr;
	uint8_t key[128], ss[PRF_MAX_OUT], km[600], seed[200];
	struct crypto_err err = { 0 };
	struct secret s;
	struct ike_sa_keys k;
	size_t key_len, n = 0;
	const struct secret *order[7];

	/* Independent SKEYSEED: prf(Ni | Nr, g^ir), XCBC uses 8+8 bytes. */
	key_len = prf == IKEV2_PRF_AES128_XCBC ? 8 : ni.len;
	memcpy(key, ni.b, key_len);
	memcpy(key + key_len, nr.b, prf == IKEV2_PRF_AES128_XCBC ? 8 : nr.len);
	key_len += prf == IKEV2_PRF_AES128_XCBC ? 8 : nr.len;
	assert_int_equal(
		prf_compute(prf, CBYTES(key, key_len), tb(&gir), ss, NULL), 0);
	assert_int_equal(
		skeyseed_initial(prf, tb(&gir), tb(&ni), tb(&nr), &s, &err), 0);
	assert_memory_equal(s.ptr, ss, prf_out_len(prf));

	memcpy(seed, ni.b, ni.len);
	memcpy(seed + ni.len, nr.b, nr.len);
	memcpy(seed + ni.len + nr.len, spi_i, 8);
	memcpy(seed + ni.len + nr.len + 8, spi_r, 8);
	ref_prfplus(prf, secret_view(&s), CBYTES(seed, ni.len + nr.len + 16),
		    km, total);
	assert_int_equal(ike_sa_keys_derive(prf, secret_view(&s), tb(&ni),
					    tb(&nr), spi_i, spi_r, integ, encr,
					    &k, &err),
			 0);
	order[0] = &k.sk_d;
	order[1] = &k.sk_ai;
	order[2] = &k.sk_ar;
	order[3] = &k.sk_ei;
	order[4] = &k.sk_er;
	order[5] = &k.sk_pi;
	order[6] = &k.sk_pr;
	for (int i = 0; i < 7; i++) {
		size_t want = i == 0 || i >= 5 ? pk : i <= 2 ? integ : encr;

		assert_int_equal(order[i]->len, want);
		assert_memory_equal(order[i]->ptr, km + n, want);
		n += want;
	}
	assert_int_equal(n, total);
	ike_sa_keys_free(&k);
	secret_free(&s);
}

static void ike_keys_all_prfs(void **state)
{
	check_ike_keys(IKEV2_PRF_HMAC_SHA1, 20, 16);
	check_ike_keys(IKEV2_PRF_AES128_XCBC, 16, 16);
	check_ike_keys(IKEV2_PRF_HMAC_SHA2_256, 32, 32);
	check_ike_keys(IKEV2_PRF_HMAC_SHA2_384, 0, 36); /* AES-GCM-256 */
	check_ike_keys(IKEV2_PRF_HMAC_SHA2_512, 64, 32);
}

/* XCBC SKEYSEED must ignore nonce bytes past the first 8 of each. */
static void skeyseed_xcbc_nonce_halves(void **state)
{
	struct tbuf gir = seq(1, 32), ni = seq(0x40, 32), nr = seq(0x80, 32);
	struct secret a, b;

	assert_int_equal(skeyseed_initial(IKEV2_PRF_AES128_XCBC, tb(&gir),
					  tb(&ni), tb(&nr), &a, NULL),
			 0);
	ni.b[20] ^= 0xff;
	nr.b[31] ^= 0xff;
	assert_int_equal(skeyseed_initial(IKEV2_PRF_AES128_XCBC, tb(&gir),
					  tb(&ni), tb(&nr), &b, NULL),
			 0);
	assert_memory_equal(a.ptr, b.ptr, 16);
	secret_free(&b);
	ni.b[3] ^= 1;
	assert_int_equal(skeyseed_initial(IKEV2_PRF_AES128_XCBC, tb(&gir),
					  tb(&ni), tb(&nr), &b, NULL),
			 0);
	assert_memory_not_equal(a.ptr, b.ptr, 16);
	secret_free(&a);
	secret_free(&b);
}

static void skeyseed_rekey_vector(void **state)
{
	struct tbuf sk_d = hex("5ae0fa5a058b359060d76c773d6b2c48"
			       "af22b22dad104da68698b4dc8cda28c8");
	struct tbuf gir = seq(0, 32), ni = seq(0x40, 32), nr = seq(0x80, 32);
	struct tbuf want = hex("6fd9f61ef51ed55c15c78a18e8c16fd7"
			       "a7a8a7ffadebb6b8ff11ecfb6bb14044");
	struct secret s;

	assert_int_equal(skeyseed_rekey(IKEV2_PRF_HMAC_SHA2_256, tb(&sk_d),
					tb(&gir), tb(&ni), tb(&nr), &s, NULL),
			 0);
	assert_int_equal(s.len, 32);
	assert_memory_equal(s.ptr, want.b, 32);
	secret_free(&s);
}

static void child_keymat_vector(void **state)
{
	struct tbuf sk_d = hex("5ae0fa5a058b359060d76c773d6b2c48"
			       "af22b22dad104da68698b4dc8cda28c8");
	struct tbuf gir = seq(0, 32), ni = seq(0x40, 32), nr = seq(0x80, 32);
	struct tbuf ei = hex("07138c1801a2092094856c5ad44aa7a5"
			     "281719be61d935e13a1c293003e35aae7d60aa8b");
	struct tbuf er = hex("bcb4a52fa569b84005500d4ac5d889e5"
			     "73ad6726cecdbdc7d8339f834853ebace5322085");
	struct child_keys k;

	assert_int_equal(child_keys_derive(IKEV2_PRF_HMAC_SHA2_256, tb(&sk_d),
					   tb(&gir), tb(&ni), tb(&nr), 36, 0,
					   &k, NULL),
			 0);
	assert_int_equal(k.encr_i.len, 36);
	assert_memory_equal(k.encr_i.ptr, ei.b, 36);
	assert_memory_equal(k.encr_r.ptr, er.b, 36);
	assert_int_equal(k.integ_i.len, 0);
	child_keys_free(&k);
}

/* Order: encr_i, integ_i, encr_r, integ_r; no g^ir without PFS. */
static void child_keymat_order(void **state)
{
	struct tbuf sk_d = seq(3, 48), ni = seq(0x40, 32), nr = seq(0x80, 32);
	uint8_t km[2 * (32 + 48)], seed[64];
	struct child_keys k;

	memcpy(seed, ni.b, 32);
	memcpy(seed + 32, nr.b, 32);
	ref_prfplus(IKEV2_PRF_HMAC_SHA2_384, tb(&sk_d), CBYTES(seed, 64), km,
		    sizeof(km));
	assert_int_equal(child_keys_derive(IKEV2_PRF_HMAC_SHA2_384, tb(&sk_d),
					   CBYTES(NULL, 0), tb(&ni), tb(&nr),
					   32, 48, &k, NULL),
			 0);
	assert_memory_equal(k.encr_i.ptr, km, 32);
	assert_memory_equal(k.integ_i.ptr, km + 32, 48);
	assert_memory_equal(k.encr_r.ptr, km + 80, 32);
	assert_memory_equal(k.integ_r.ptr, km + 112, 48);
	child_keys_free(&k);
}

static void secret_wipes(void **state)
{
	struct secret s = { 0 };

	secret_free(&s); /* zeroed: no-op */
	assert_int_equal(secret_dup(&s, "abc", 3), 0);
	assert_memory_equal(s.ptr, "abc", 3);
	secret_free(&s);
	assert_null(s.ptr);
	assert_int_equal(s.len, 0);
	secret_free(&s); /* twice: no-op */
	assert_int_equal(secret_alloc(&s, 0), 0);
	assert_non_null(s.ptr);
	secret_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(prfplus_matches_reference),
		cmocka_unit_test(prfplus_limit),
		cmocka_unit_test(skeyseed_fixed_vector),
		cmocka_unit_test(ike_keys_all_prfs),
		cmocka_unit_test(skeyseed_xcbc_nonce_halves),
		cmocka_unit_test(skeyseed_rekey_vector),
		cmocka_unit_test(child_keymat_vector),
		cmocka_unit_test(child_keymat_order),
		cmocka_unit_test(secret_wipes),
	};

	return cmocka_run_group_tests(tests, nss_setup, nss_teardown);
}
