// SPDX-License-Identifier: GPL-2.0-or-later
/* HMAC (RFC 2202, RFC 4231) and AES-XCBC (RFC 3566, RFC 4434) KATs. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <pkcs11t.h>

#include "crypto/algs.h"
#include "crypto/mac.h"
#include "crypto/prf.h"
#include "tutil.h"

enum kkind { K_FILL, K_SEQ, K_TEXT };

struct hmac_case {
	int n;
	enum kkind kk;
	uint8_t kbyte;
	size_t klen;
	const char *ktext;
	enum kkind dk;
	uint8_t dbyte;
	size_t dlen;
	const char *dtext;
};

static struct tbuf seq(uint8_t first, size_t len)
{
	struct tbuf t = { .len = len };

	for (size_t i = 0; i < len; i++)
		t.b[i] = (uint8_t)(first + i);
	return t;
}

static struct tbuf make(enum kkind k, uint8_t byte, size_t len, const char *s)
{
	if (k == K_TEXT)
		return text(s);
	if (k == K_SEQ)
		return seq(byte, len);
	return fill(byte, len);
}

static void check_prf(uint16_t prf, const struct hmac_case *c, const char *want)
{
	struct tbuf k = make(c->kk, c->kbyte, c->klen, c->ktext);
	struct tbuf d = make(c->dk, c->dbyte, c->dlen, c->dtext);
	struct tbuf w = hex(want);
	uint8_t out[PRF_MAX_OUT];
	struct crypto_err err = { 0 };

	assert_int_equal(prf_compute(prf, tb(&k), tb(&d), out, &err), 0);
	/* RFC 4231 case 5 and RFC 2202 case 5 publish a truncated value. */
	assert_true(w.len <= prf_out_len(prf));
	if (memcmp(out, w.b, w.len) != 0)
		fail_msg("prf %u case %d mismatch", prf, c->n);
}

/* RFC 2202 §3 and RFC 4231 §4 share their inputs for cases 1-5. */
static const struct hmac_case cases_2202[] = {
	{ 1, K_FILL, 0x0b, 20, NULL, K_TEXT, 0, 0, "Hi There" },
	{ 2, K_TEXT, 0, 0, "Jefe", K_TEXT, 0, 0,
	  "what do ya want for nothing?" },
	{ 3, K_FILL, 0xaa, 20, NULL, K_FILL, 0xdd, 50, NULL },
	{ 4, K_SEQ, 0x01, 25, NULL, K_FILL, 0xcd, 50, NULL },
	{ 5, K_FILL, 0x0c, 20, NULL, K_TEXT, 0, 0, "Test With Truncation" },
	{ 6, K_FILL, 0xaa, 80, NULL, K_TEXT, 0, 0,
	  "Test Using Larger Than Block-Size Key - Hash Key First" },
	{ 7, K_FILL, 0xaa, 80, NULL, K_TEXT, 0, 0,
	  "Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data" },
};

static const char *const want_2202[] = {
	"b617318655057264e28bc0b6fb378c8ef146be00",
	"effcdf6ae5eb2fa2d27416d5f184df9c259a7c79",
	"125d7342b9ac11cd91a39af48aa17b4f63f175d3",
	"4c9007f4026250c6bc8414f9bf50c86c2d7235da",
	"4c1a03424b55e07fe7f27be1",
	"aa4ae5e15272d00e95705637ce8a3b55ed402112",
	"e8e99d0f45237d786d6bbaa7965c7808bbff1a91",
};

static void hmac_sha1_rfc2202(void **state)
{
	for (size_t i = 0; i < 7; i++)
		check_prf(IKEV2_PRF_HMAC_SHA1, &cases_2202[i], want_2202[i]);
}

static const struct hmac_case cases_4231[] = {
	{ 1, K_FILL, 0x0b, 20, NULL, K_TEXT, 0, 0, "Hi There" },
	{ 2, K_TEXT, 0, 0, "Jefe", K_TEXT, 0, 0,
	  "what do ya want for nothing?" },
	{ 3, K_FILL, 0xaa, 20, NULL, K_FILL, 0xdd, 50, NULL },
	{ 4, K_SEQ, 0x01, 25, NULL, K_FILL, 0xcd, 50, NULL },
	{ 5, K_FILL, 0x0c, 20, NULL, K_TEXT, 0, 0, "Test With Truncation" },
	{ 6, K_FILL, 0xaa, 131, NULL, K_TEXT, 0, 0,
	  "Test Using Larger Than Block-Size Key - Hash Key First" },
	{ 7, K_FILL, 0xaa, 131, NULL, K_TEXT, 0, 0,
	  "This is a test using a larger than block-size key and a larger "
	  "than block-size data. The key needs to be hashed before being "
	  "used by the HMAC algorithm." },
};

static const char *const want_4231_256[] = {
	"b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
	"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
	"773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
	"82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
	"a3b6167473100ee06e0c796c2955552b",
	"60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
	"9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
};

static const char *const want_4231_384[] = {
	"afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59c"
	"faea9ea9076ede7f4af152e8b2fa9cb6",
	"af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e"
	"8e2240ca5e69e2c78b3239ecfab21649",
	"88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b"
	"2a5ab39dc13814b94e3ab6e101a34f27",
	"3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e"
	"6801dd23c4a7d679ccf8a386c674cffb",
	"3abf34c3503b2a23a46efc619baef897",
	"4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c6"
	"0c2ef6ab4030fe8296248df163f44952",
	"6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5"
	"a678cc31e799176d3860e6110c46523e",
};

static const char *const want_4231_512[] = {
	"87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
	"daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854",
	"164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
	"9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
	"fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
	"bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb",
	"b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
	"a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd",
	"415fad6271580a531d4179bc891d87a6",
	"80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
	"6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598",
	"e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
	"b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58",
};

static void hmac_sha2_rfc4231(void **state)
{
	for (size_t i = 0; i < 7; i++) {
		check_prf(IKEV2_PRF_HMAC_SHA2_256, &cases_4231[i],
			  want_4231_256[i]);
		check_prf(IKEV2_PRF_HMAC_SHA2_384, &cases_4231[i],
			  want_4231_384[i]);
		check_prf(IKEV2_PRF_HMAC_SHA2_512, &cases_4231[i],
			  want_4231_512[i]);
	}
}

/* RFC 3566 §4.6: key 000102..0f, message 00 01 02 ... of the given length. */
static void xcbc_mac_rfc3566(void **state)
{
	static const struct {
		size_t len;
		const char *mac96;
	} v[] = {
		{ 0, "75f0251d528ac01c4573dfd5" },
		{ 3, "5b376580ae2f19afe7219cee" },
		{ 16, "d2a246fa349b68a79998a439" },
		{ 20, "47f51b4564966215b8985c63" },
		{ 32, "f54f0ec8d2b9f3d36807734b" },
		{ 34, "becbb3bccdb518a30677d548" },
	};
	struct tbuf key = seq(0, 16);
	struct crypto_err err = { 0 };
	uint8_t out[16];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct tbuf m = seq(0, v[i].len), w = hex(v[i].mac96);
		struct cbytes iov = tb(&m);

		assert_int_equal(mac_computev(CKM_AES_XCBC_MAC, tb(&key), &iov,
					      1, out, 16, &err),
				 0);
		assert_memory_equal(out, w.b, 12);
	}
	{
		static uint8_t zeros[1000];
		struct tbuf w = hex("f0dafee895db30253761103b");
		struct cbytes iov = CBYTES(zeros, sizeof(zeros));

		assert_int_equal(mac_computev(CKM_AES_XCBC_MAC, tb(&key), &iov,
					      1, out, 16, &err),
				 0);
		assert_memory_equal(out, w.b, 12);
	}
}

/* RFC 4434 §4: message 00..13, keys of 16, 10 and 18 bytes. */
static void xcbc_prf_rfc4434(void **state)
{
	struct tbuf m = seq(0, 20);
	struct tbuf k16 = seq(0, 16), k10 = seq(0, 10);
	struct tbuf k18 = hex("000102030405060708090a0b0c0d0e0fedcb");
	struct tbuf w16 = hex("47f51b4564966215b8985c63055ed308");
	struct tbuf w10 = hex("0fa087af7d866e7653434e602fdde835");
	struct tbuf w18 = hex("8cd3c93ae598a9803006ffb67c40e9e4");
	struct crypto_err err = { 0 };
	uint8_t out[16];

	assert_int_equal(prf_out_len(IKEV2_PRF_AES128_XCBC), 16);
	assert_int_equal(
		prf_compute(IKEV2_PRF_AES128_XCBC, tb(&k16), tb(&m), out, &err),
		0);
	assert_memory_equal(out, w16.b, 16);
	assert_int_equal(
		prf_compute(IKEV2_PRF_AES128_XCBC, tb(&k10), tb(&m), out, &err),
		0);
	assert_memory_equal(out, w10.b, 16);
	assert_int_equal(
		prf_compute(IKEV2_PRF_AES128_XCBC, tb(&k18), tb(&m), out, &err),
		0);
	assert_memory_equal(out, w18.b, 16);
}

static void prf_bad_input(void **state)
{
	struct tbuf k = fill(1, 16), m = fill(2, 4);
	struct crypto_err err = { 0 };
	uint8_t out[PRF_MAX_OUT];

	assert_int_equal(prf_compute(99, tb(&k), tb(&m), out, &err), -ENOTSUP);
	assert_non_null(strstr(err.msg, "99"));
	assert_int_equal(prf_compute(IKEV2_PRF_HMAC_SHA2_256, CBYTES(k.b, 0),
				     tb(&m), out, &err),
			 -EINVAL);
	assert_int_equal(prf_out_len(99), 0);
}

/* The multi-part interface gives the same answer as one buffer. */
static void prf_iov_equals_flat(void **state)
{
	struct tbuf k = fill(7, 32), all = text("abcdefghijklmnopqrstuvwxyz");
	struct cbytes iov[] = { CBYTES(all.b, 3), CBYTES(all.b + 3, 0),
				CBYTES(all.b + 3, 23) };
	struct crypto_err err = { 0 };
	uint8_t a[PRF_MAX_OUT], b[PRF_MAX_OUT];

	assert_int_equal(
		prf_compute(IKEV2_PRF_HMAC_SHA2_512, tb(&k), tb(&all), a, &err),
		0);
	assert_int_equal(
		prf_computev(IKEV2_PRF_HMAC_SHA2_512, tb(&k), iov, 3, b, &err),
		0);
	assert_memory_equal(a, b, 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hmac_sha1_rfc2202),
		cmocka_unit_test(hmac_sha2_rfc4231),
		cmocka_unit_test(xcbc_mac_rfc3566),
		cmocka_unit_test(xcbc_prf_rfc4434),
		cmocka_unit_test(prf_bad_input),
		cmocka_unit_test(prf_iov_equals_flat),
	};

	return cmocka_run_group_tests(tests, nss_setup, nss_teardown);
}
