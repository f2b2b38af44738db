// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What docs/SECURITY.md promises about secrets in the log and the status:
 * after a whole exchange logged at debug level, neither the PSK nor any
 * Child SA key appears in the log, and the engine's status (the part of
 * `ikebana status --json` that holds the SAs) carries none of them either.
 * The keys are read back from kernel-mem, which holds what the kernel
 * would have been given.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "harness.h"

/* Long and odd enough that no other line could contain it by chance. */
#define PSK "psk-3f9a-never-logged-7c21"

static void hex(const uint8_t *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

/*
 * The first 16 bytes of a key as lowercase hex: a leak in any of the
 * usual forms (keylog.c's, ip xfrm's 0x... without the prefix) has them.
 */
static bool key_hex(const struct ikb_alg *a, char *out)
{
	size_t n = a->key_bits / 8u;

	if (!a->name[0] || n < 16)
		return false;
	hex(a->key, 16, out);
	return true;
}

static void assert_absent(const char *where, const char *text,
			  const char *needle)
{
	if (text ? strstr(text, needle) != NULL : log_has(needle))
		fail_msg("%s contains %s", where, needle);
}

/* Every key of every SA in who's kernel-mem is in neither place. */
static void assert_keys_absent(struct net *n, int who, const char *status)
{
	struct kdump d;
	char h[40];
	unsigned checked = 0;

	kernel_dump(n, who, &d);
	assert_true(d.nsa > 0);
	for (unsigned i = 0; i < d.nsa; i++) {
		const struct ikb_alg *algs[] = { &d.sa[i].aead, &d.sa[i].encr,
						 &d.sa[i].integ };

		for (size_t k = 0; k < 3; k++) {
			if (!key_hex(algs[k], h))
				continue;
			assert_absent("the debug log", NULL, h);
			assert_absent("the status", status, h);
			checked++;
		}
	}
	/* a test that checks no key proves nothing */
	assert_true(checked >= 2);
}

static void check(const char *conn)
{
	struct net *n = net_new(conn, NULL, NULL, PSK, PSK);
	struct ikb_error err = { "" };
	char psk_hex[2 * sizeof(PSK)];

	hex((const uint8_t *)PSK, 12, psk_hex);
	log_reset();
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	/* the exchange was logged, at debug level: else this proves little */
	assert_true(log_has("established"));
	assert_true(log_has(": debug: "));
	assert_absent("the debug log", NULL, PSK);
	assert_absent("the debug log", NULL, psk_hex);
	for (int who = WEST; who <= EAST; who++) {
		struct json_object *st = ike_engine_status(n->p[who].e);
		const char *s = json_object_to_json_string(st);

		assert_absent("the status", s, PSK);
		assert_absent("the status", s, psk_hex);
		assert_keys_absent(n, who, s);
		json_object_put(st);
	}
	net_free(n);
}

static void test_psk_and_keys_gcm(void **state)
{
	check("\tesp=aes_gcm256\n");
}

/* encr and integ keys apart: both are checked */
static void test_psk_and_keys_cbc(void **state)
{
	check("\tesp=aes256-sha2_256\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_psk_and_keys_gcm, net_cleanup),
		cmocka_unit_test_teardown(test_psk_and_keys_cbc, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
