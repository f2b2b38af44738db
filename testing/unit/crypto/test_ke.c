// SPDX-License-Identifier: GPL-2.0-or-later
/* Key exchange: RFC 5903 §8 and RFC 7748 §6.1 KATs, agreement, validation. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "crypto/algs.h"
#include "crypto/ke.h"
#include "crypto/modp.h"
#include "tutil.h"

struct kat {
	uint16_t group;
	const char *i, *gi, *r, *gr, *gir;
};

/*
 * The base point of each group (SEC 2 / RFC 7748 u = 9). ECDH with it
 * yields the x coordinate of the own public value, which checks that NSS
 * really uses the imported private scalar.
 */
static const struct {
	uint16_t group;
	const char *g;
} base_points[] = {
	{ IKEV2_KE_ECP256,
	  "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
	  "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5" },
	{ IKEV2_KE_ECP384,
	  "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a38"
	  "5502f25dbf55296c3a545e3872760ab73617de4a96262c6f5d9e98bf9292dc29"
	  "f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f" },
	{ IKEV2_KE_ECP521,
	  "00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d"
	  "3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5"
	  "bd66011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17"
	  "273e662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be9476"
	  "9fd16650" },
	{ IKEV2_KE_CURVE25519,
	  "0900000000000000000000000000000000000000000000000000000000000000" },
};

static const char *base_point(uint16_t group)
{
	for (size_t i = 0; i < sizeof(base_points) / sizeof(base_points[0]);
	     i++)
		if (base_points[i].group == group)
			return base_points[i].g;
	fail();
	return NULL;
}

/* RFC 5903 §8.1-8.3; g^i and g^r are x | y, the IKE wire format. */
static const struct kat rfc5903[] = {
	{ IKEV2_KE_ECP256,
	  "C88F01F510D9AC3F70A292DAA2316DE544E9AAB8AFE84049C62A9C57862D1433",
	  "DAD0B65394221CF9B051E1FECA5787D098DFE637FC90B9EF945D0C3772581180"
	  "5271A0461CDB8252D61F1C456FA3E59AB1F45B33ACCF5F58389E0577B8990BB3",
	  "C6EF9C5D78AE012A011164ACB397CE2088685D8F06BF9BE0B283AB46476BEE53",
	  "D12DFB5289C8D4F81208B70270398C342296970A0BCCB74C736FC7554494BF63"
	  "56FBF3CA366CC23E8157854C13C58D6AAC23F046ADA30F8353E74F33039872AB",
	  "D6840F6B42F6EDAFD13116E0E12565202FEF8E9ECE7DCE03812464D04B9442DE" },
	{ IKEV2_KE_ECP384,
	  "099F3C7034D4A2C699884D73A375A67F7624EF7C6B3C0F160647B67414DCE655"
	  "E35B538041E649EE3FAEF896783AB194",
	  "667842D7D180AC2CDE6F74F37551F55755C7645C20EF73E31634FE72B4C55EE6"
	  "DE3AC808ACB4BDB4C88732AEE95F41AA9482ED1FC0EEB9CAFC4984625CCFC23F"
	  "65032149E0E144ADA024181535A0F38EEB9FCFF3C2C947DAE69B4C634573A81C",
	  "41CB0779B4BDB85D47846725FBEC3C9430FAB46CC8DC5060855CC9BDA0AA2942"
	  "E0308312916B8ED2960E4BD55A7448FC",
	  "E558DBEF53EECDE3D3FCCFC1AEA08A89A987475D12FD950D83CFA41732BC509D"
	  "0D1AC43A0336DEF96FDA41D0774A3571DCFBEC7AACF3196472169E838430367F"
	  "66EEBE3C6E70C416DD5F0C68759DD1FFF83FA40142209DFF5EAAD96DB9E6386C",
	  "11187331C279962D93D604243FD592CB9D0A926F422E47187521287E7156C5C4"
	  "D603135569B9E9D09CF5D4A270F59746" },
	{ IKEV2_KE_ECP521,
	  "0037ADE9319A89F4DABDB3EF411AACCCA5123C61ACAB57B5393DCE47608172A0"
	  "95AA85A30FE1C2952C6771D937BA9777F5957B2639BAB072462F68C27A57382D"
	  "4A52",
	  "0015417E84DBF28C0AD3C278713349DC7DF153C897A1891BD98BAB4357C9ECBE"
	  "E1E3BF42E00B8E380AEAE57C2D107564941885942AF5A7F4601723C4195D176C"
	  "ED3E017CAE20B6641D2EEB695786D8C946146239D099E18E1D5A514C739D7CB4"
	  "A10AD8A788015AC405D7799DC75E7B7D5B6CF2261A6A7F1507438BF01BEB6CA3"
	  "926F9582",
	  "0145BA99A847AF43793FDD0E872E7CDFA16BE30FDC780F97BCCC3F078380201E"
	  "9C677D600B343757A3BDBF2A3163E4C2F869CCA7458AA4A4EFFC311F5CB15168"
	  "5EB9",
	  "00D0B3975AC4B799F5BEA16D5E13E9AF971D5E9B984C9F39728B5E5739735A21"
	  "9B97C356436ADC6E95BB0352F6BE64A6C2912D4EF2D0433CED2B6171640012D9"
	  "460F015C68226383956E3BD066E797B623C27CE0EAC2F551A10C2C724D985207"
	  "7B87220B6536C5C408A1D2AEBB8E86D678AE49CB57091F4732296579AB44FCD1"
	  "7F0FC56A",
	  "01144C7D79AE6956BC8EDB8E7C787C4521CB086FA64407F97894E5E6B2D79B04"
	  "D1427E73CA4BAA240A34786859810C06B3C715A3A8CC3151F2BEE417996D19F3"
	  "DDEA" },
	/* RFC 7748 §6.1: Alice is i, Bob is r; values are little-endian. */
	{ IKEV2_KE_CURVE25519,
	  "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
	  "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
	  "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
	  "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
	  "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742" },
};

static void run_kat(const struct kat *k)
{
	struct tbuf i = hex(k->i), gi = hex(k->gi), r = hex(k->r);
	struct tbuf gr = hex(k->gr), gir = hex(k->gir);
	struct crypto_err err = { 0 };
	struct ke *a = NULL, *b = NULL;
	struct secret s1, s2;

	if (ke_import(&a, k->group, tb(&i), tb(&gi), &err) ||
	    ke_import(&b, k->group, tb(&r), tb(&gr), &err))
		fail_msg("group %u import: %s", k->group, err.msg);
	assert_int_equal(ke_public(a).len, gi.len);
	assert_memory_equal(ke_public(a).ptr, gi.b, gi.len);
	/* i * G must be g^i: x for ECP, the whole u for X25519. */
	{
		struct tbuf g = hex(base_point(k->group));

		if (ke_derive(a, tb(&g), &s1, &err))
			fail_msg("group %u i*G: %s", k->group, err.msg);
		assert_memory_equal(s1.ptr, gi.b, s1.len);
		secret_free(&s1);
	}
	if (ke_derive(a, tb(&gr), &s1, &err) ||
	    ke_derive(b, tb(&gi), &s2, &err))
		fail_msg("group %u derive: %s", k->group, err.msg);
	assert_int_equal(s1.len, gir.len);
	assert_memory_equal(s1.ptr, gir.b, gir.len);
	assert_int_equal(s2.len, gir.len);
	assert_memory_equal(s2.ptr, gir.b, gir.len);
	secret_free(&s1);
	secret_free(&s2);
	ke_free(a);
	ke_free(b);
}

static void ecp_rfc5903(void **state)
{
	run_kat(&rfc5903[0]);
	run_kat(&rfc5903[1]);
	run_kat(&rfc5903[2]);
}

static void x25519_rfc7748(void **state)
{
	run_kat(&rfc5903[3]);
}

/* A KAT must be able to fail: a wrong peer value gives a different g^ir. */
static void kat_detects_wrong_peer(void **state)
{
	const struct kat *k = &rfc5903[0];
	struct tbuf i = hex(k->i), gi = hex(k->gi), gir = hex(k->gir);
	struct crypto_err err = { 0 };
	struct ke *a = NULL, *other = NULL;
	struct secret s;

	assert_int_equal(ke_import(&a, k->group, tb(&i), tb(&gi), &err), 0);
	assert_int_equal(ke_generate(&other, k->group, &err), 0);
	assert_int_equal(ke_derive(a, ke_public(other), &s, &err), 0);
	assert_memory_not_equal(s.ptr, gir.b, gir.len);
	secret_free(&s);
	ke_free(a);
	ke_free(other);
}

static void agree(uint16_t group)
{
	struct crypto_err err = { 0 };
	struct ke *a = NULL, *b = NULL;
	struct secret s1, s2;
	const struct ke_desc *d = ke_desc_by_id(group);

	if (ke_generate(&a, group, &err) || ke_generate(&b, group, &err))
		fail_msg("group %u generate: %s", group, err.msg);
	assert_int_equal(ke_group(a), group);
	assert_int_equal(ke_public(a).len, d->pub_len);
	if (ke_derive(a, ke_public(b), &s1, &err) ||
	    ke_derive(b, ke_public(a), &s2, &err))
		fail_msg("group %u derive: %s", group, err.msg);
	assert_int_equal(s1.len, d->secret_len);
	assert_int_equal(s2.len, d->secret_len);
	assert_memory_equal(s1.ptr, s2.ptr, s1.len);
	secret_free(&s1);
	secret_free(&s2);
	ke_free(a);
	ke_free(b);
}

static void modp14_agree(void **state)
{
	agree(IKEV2_KE_MODP2048);
}

static void all_groups_agree(void **state)
{
	static const uint16_t groups[] = {
		IKEV2_KE_MODP3072, IKEV2_KE_MODP4096, IKEV2_KE_ECP256,
		IKEV2_KE_ECP384,   IKEV2_KE_ECP521,   IKEV2_KE_CURVE25519,
	};

	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		agree(groups[i]);
}

static void expect_reject(struct ke *ke, const uint8_t *v, size_t len,
			  const char *msg_part)
{
	struct crypto_err err = { 0 };
	struct secret s = { 0 };

	assert_int_equal(ke_derive(ke, CBYTES(v, len), &s, &err), -EINVAL);
	assert_null(s.ptr);
	if (msg_part && !strstr(err.msg, msg_part))
		fail_msg("message \"%s\" lacks \"%s\"", err.msg, msg_part);
}

static void modp_bad_peer(void **state)
{
	struct crypto_err err = { 0 };
	struct ke *ke = NULL;
	uint8_t y[256];

	assert_int_equal(ke_generate(&ke, IKEV2_KE_MODP2048, &err), 0);
	memset(y, 0, sizeof(y));
	expect_reject(ke, y, sizeof(y), "out of range"); /* 0 */
	y[255] = 1;
	expect_reject(ke, y, sizeof(y), "out of range"); /* 1 */
	memcpy(y, modp2048_prime, sizeof(y));
	y[255] -= 1;
	expect_reject(ke, y, sizeof(y), "p-1"); /* p-1 */
	y[255] += 1;
	expect_reject(ke, y, sizeof(y), "p-1"); /* p */
	memset(y, 0xff, sizeof(y));
	expect_reject(ke, y, sizeof(y), "p-1"); /* > p */
	expect_reject(ke, y, 255,
		      "public value length 255, group 14 needs 256");
	/* 2 and p-2 are in range and must be accepted by the check. */
	memset(y, 0, sizeof(y));
	y[255] = 2;
	{
		struct secret s;

		assert_int_equal(ke_derive(ke, CBYTES(y, 256), &s, &err), 0);
		secret_free(&s);
	}
	ke_free(ke);
}

static void ecp_bad_peer(void **state)
{
	const struct kat *k = &rfc5903[0];
	struct tbuf gr = hex(k->gr);
	struct crypto_err err = { 0 };
	struct ke *ke = NULL;
	uint8_t zero[64] = { 0 };

	assert_int_equal(ke_generate(&ke, IKEV2_KE_ECP256, &err), 0);
	expect_reject(ke, gr.b, 63,
		      "public value length 63, group 19 needs 64");
	expect_reject(ke, gr.b, 65, "group 19 needs 64");
	gr.b[63] ^= 1; /* y no longer matches x: off the curve */
	expect_reject(ke, gr.b, 64, "rejected");
	expect_reject(ke, zero, sizeof(zero), NULL);
	ke_free(ke);
}

static void x25519_bad_peer(void **state)
{
	struct crypto_err err = { 0 };
	struct ke *ke = NULL;
	uint8_t u[32] = { 0 };

	assert_int_equal(ke_generate(&ke, IKEV2_KE_CURVE25519, &err), 0);
	expect_reject(ke, u, 31, "group 31 needs 32");
	/* u = 0 and u = 1 are small-order points: g^ir would be zero. */
	expect_reject(ke, u, 32, NULL);
	u[0] = 1;
	expect_reject(ke, u, 32, NULL);
	ke_free(ke);
}

static void unknown_group(void **state)
{
	struct crypto_err err = { 0 };
	struct ke *ke = (struct ke *)&err;

	assert_int_equal(ke_generate(&ke, 22, &err), -ENOTSUP);
	assert_null(ke);
	assert_non_null(strstr(err.msg, "22"));
	assert_int_equal(ke_import(&ke, IKEV2_KE_MODP2048, CBYTES("", 0),
				   CBYTES("", 0), &err),
			 -ENOTSUP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ecp_rfc5903),
		cmocka_unit_test(x25519_rfc7748),
		cmocka_unit_test(kat_detects_wrong_peer),
		cmocka_unit_test(modp14_agree),
		cmocka_unit_test(all_groups_agree),
		cmocka_unit_test(modp_bad_peer),
		cmocka_unit_test(ecp_bad_peer),
		cmocka_unit_test(x25519_bad_peer),
		cmocka_unit_test(unknown_group),
	};

	return cmocka_run_group_tests(tests, nss_setup, nss_teardown);
}
