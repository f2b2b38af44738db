// SPDX-License-Identifier: GPL-2.0-or-later
/* kernel-xfrm: nic-offload= and pcrypt=, and how tune applies them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_host.h"

static struct fake_plugin fx;

static int setup(void **state)
{
	return fake_plugin_open(state, &fx, "kernel-xfrm");
}

static void test_descriptor(void **state)
{
	assert_string_equal(fx.p->keys[0].name, "nic-offload");
	assert_string_equal(fx.p->keys[1].name, "pcrypt");
	assert_null(fx.p->keys[2].name);
	/* The XFRM netlink backend: a full kernel table. */
	assert_non_null(fx.p->kernel);
	assert_non_null(fx.p->kernel->spi_alloc);
	assert_non_null(fx.p->kernel->sa_add);
	assert_non_null(fx.p->kernel->sa_update);
	assert_non_null(fx.p->kernel->policy_add);
	assert_non_null(fx.p->kernel->events_subscribe);
}

static void test_values(void **state)
{
	static const char *const off_good[] = { "no", "yes", "crypto",
						"packet" };
	const char *bad_off[] = { "nic-offload", "maybe", NULL };
	const char *bad_pc[] = { "pcrypt", "sometimes", NULL };

	for (size_t i = 0; i < 4; i++) {
		const char *kv[] = { "nic-offload", off_good[i], "pcrypt",
				     i % 2 ? "yes" : "no", NULL };

		assert_int_equal(fake_check_conn(&fx, kv), 0);
	}
	assert_int_equal(fake_check_conn(&fx, bad_off), -1);
	assert_string_equal(fake_msgs[0].text,
			    "expected no, yes, crypto or packet, got 'maybe'");
	assert_int_equal(fake_check_conn(&fx, bad_pc), -1);
	assert_string_equal(fake_msgs[0].text,
			    "expected yes or no, got 'sometimes'");
}

static void test_tune(void **state)
{
	const char *kv[] = { "nic-offload", "packet", "pcrypt", "yes", NULL };
	const char *none[] = { NULL };
	struct ikb_sa sa = { 0 };
	struct ikb_error err;
	struct ikb_section s;

	fake_conn(&s, "c", kv);
	assert_int_equal(fx.p->child->tune(fx.st, &s, &sa, &err), 0);
	fake_section_free(&s);
	assert_int_equal(sa.offload, IKB_OFFLOAD_PACKET);
	assert_true(sa.pcrypt);

	sa = (struct ikb_sa){ .offload = IKB_OFFLOAD_CRYPTO };
	fake_conn(&s, "c", none);
	assert_int_equal(fx.p->child->tune(fx.st, &s, &sa, &err), 0);
	fake_section_free(&s);
	assert_int_equal(sa.offload, IKB_OFFLOAD_CRYPTO);
	assert_false(sa.pcrypt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptor),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_tune),
	};

	return cmocka_run_group_tests_name("kernel-xfrm", tests, setup,
					   fake_plugin_close);
}
