// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Robustness without libFuzzer: every prefix of a valid configuration and
 * deterministic byte-level mutations of it must parse and check without a
 * crash (ASan and UBSan catch the rest), and a broken input must say so.
 */
#include "helpers.h"

static const char valid[] = "version 2\n"
			    "config setup\n"
			    "\tplugins=\"esp-proposals replay-window\"\n"
			    "\tnhelpers=2\n"
			    "conn %default\n"
			    "\tikelifetime=8h\n"
			    "\tauthby=secret\n"
			    "conn base\n"
			    "\tleft=192.0.2.1\n"
			    "\tleftid=@west\n"
			    "\tleftsubnet=10.0.1.0/24\n"
			    "conn west\n"
			    "\talso=base\n"
			    "\tright=\"192.0.2.2\"   # peer\n"
			    "\trightsubnet=10.0.2.0/24\n"
			    "\tmark=0x10/0xff\n"
			    "\tauto=start\n";

static unsigned run(const char *buf, size_t len)
{
	struct ikb_diag d;
	struct cfg *c = NULL;

	diag_init(&d);
	cfg_parse_buffer("f.conf", buf, len, &c, &d);
	assert_non_null(c);
	cfg_check_keys(c, NULL, NULL, &d);
	cfg_check_core(c, &d);
	for (size_t i = 0; i < c->nconns; i++)
		(void)cfg_get(&c->conns[i], "left");
	unsigned errors = d.errors;

	diag_free(&d);
	cfg_free(c);
	return errors;
}

static void test_valid_is_clean(void **state)
{
	assert_int_equal(run(valid, sizeof(valid) - 1), 0);
}

static void test_truncations(void **state)
{
	for (size_t len = 0; len < sizeof(valid); len++)
		run(valid, len);
	/* cut inside the quoted value: the quote is reported */
	const char *q = strstr(valid, "\"192.0.2.2");

	assert_true(run(valid, (size_t)(q - valid) + 4) > 0);
}

static void test_mutations(void **state)
{
	static const char junk[] = { '\0', '"', '=', '#', '\n', ' ',
				     '\t', '%', '/', '{', 0x7f, (char)0xff };
	char buf[sizeof(valid)];
	unsigned seed = 1, broken = 0;

	for (unsigned i = 0; i < 4000; i++) {
		memcpy(buf, valid, sizeof(valid));
		for (int k = 0; k < 3; k++) {
			seed = seed * 1103515245u + 12345u;
			size_t at = (seed >> 8) % (sizeof(valid) - 1);

			seed = seed * 1103515245u + 12345u;
			buf[at] = junk[(seed >> 8) % sizeof(junk)];
		}
		if (run(buf, sizeof(valid) - 1) > 0)
			broken++;
	}
	/* most garbled variants must be reported, not silently accepted */
	assert_true(broken > 2000);
}

static void test_garbage(void **state)
{
	static const char *const inputs[] = {
		"\"",
		"conn",
		"conn \"",
		"\t=",
		"\t\"\"=\"",
		"include \"",
		"conn a\n\talso=a\n\talso=a",
		"conn a\n\tleft=\"\0\"",
		"config setup setup",
		"\n\n\n\t\t\t",
		"####",
		"conn %default\n\talso=",
	};

	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		run(inputs[i], strlen(inputs[i]) + (i == 7 ? 3 : 0));
	assert_true(run("conn\n", 5) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_is_clean),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
