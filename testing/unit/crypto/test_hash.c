// SPDX-License-Identifier: GPL-2.0-or-later
/* Plain digests (FIPS 180-4 examples): the NAT detection hash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "crypto/hash.h"
#include "tutil.h"

static void check(enum hash_alg alg, const char *want)
{
	struct tbuf w = hex(want);
	struct cbytes iov[] = { CBYTES("a", 1), CBYTES("", 0),
				CBYTES("bc", 2) };
	uint8_t out[HASH_MAX_LEN];
	struct crypto_err err = { 0 };

	assert_int_equal(hash_len(alg), w.len);
	assert_int_equal(hash_computev(alg, iov, 3, out, &err), 0);
	assert_memory_equal(out, w.b, w.len);
}

static void test_abc(void **state)
{
	check(HASH_SHA1, "a9993e364706816aba3e25717850c26c9cd0d89d");
	check(HASH_SHA2_256, "ba7816bf8f01cfea414140de5dae2223"
			     "b00361a396177a9cb410ff61f20015ad");
	check(HASH_SHA2_512,
	      "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	      "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
}

static void test_sha1_empty(void **state)
{
	struct tbuf w = hex("da39a3ee5e6b4b0d3255bfef95601890afd80709");
	uint8_t out[HASH_SHA1_LEN];
	struct crypto_err err = { 0 };

	assert_int_equal(hash_sha1(CBYTES(NULL, 0), out, &err), 0);
	assert_memory_equal(out, w.b, w.len);
	assert_int_equal(hash_computev((enum hash_alg)99, NULL, 0, out, &err),
			 -22);
	assert_non_null(strstr(err.msg, "unknown"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abc),
		cmocka_unit_test(test_sha1_empty),
	};

	return cmocka_run_group_tests_name("crypto-hash", tests, nss_setup,
					   nss_teardown);
}
