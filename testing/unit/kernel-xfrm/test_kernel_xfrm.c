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
	assert_non_null(fx.p->kernel->events_unsubscribe);
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

/*
 * check_sa on conn kv: the SA as kernel-xfrm's tune leaves it, with the
 * window the replay-window plugin exported; fake_msgs get the reports.
 */
static int check_sa(const char *const *kv, uint32_t window)
{
	struct ikb_sa sa = { .dir = IKB_DIR_IN, .cpu = -1 };
	struct ikb_error err;
	struct ikb_section s;
	int rc;

	fake_reset();
	fake_conn(&s, "c", kv);
	assert_int_equal(fx.p->child->tune(fx.st, &s, &sa, &err), 0);
	sa.replay_window = window;
	rc = fx.p->child->check_sa(fx.st, &s, &sa, NULL);
	fake_section_free(&s);
	return rc;
}

/*
 * pcrypt=yes with a window it overruns: a warning at the window's line.
 * The window is the one the replay-window plugin exported in the SA, not
 * kernel-xfrm's reading of replay-window=, which it no longer parses.
 */
static void test_pcrypt_window(void **state)
{
	const char *narrow[] = { "pcrypt", "yes", "replay-window", "64", NULL };
	const char *written[] = { "pcrypt", "yes", "replay-window", "512",
				  NULL };
	const char *unset[] = { "pcrypt", "yes", NULL };
	const char *no[] = { "pcrypt", "no", "replay-window", "64", NULL };

	assert_non_null(fx.p->child->check_sa);
	assert_int_equal(check_sa(narrow, 64), 0);
	assert_int_equal(fake_nmsgs, 1);
	assert_int_equal(fake_msgs[0].sev, IKB_SEV_WARNING);
	assert_string_equal(fake_msgs[0].key, "replay-window");
	assert_int_equal(fake_msgs[0].line, 11);
	assert_string_equal(
		fake_msgs[0].text,
		"pcrypt=yes reorders packets, and a window of 64 drops those that arrive later than that as replays: set replay-window=256 or more");
	/* check_conn leaves it to check_sa: it reads no replay-window= */
	assert_int_equal(fake_check_conn(&fx, narrow), 0);
	assert_int_equal(fake_nmsgs, 0);

	/* the exported value counts, not what the key says */
	assert_int_equal(check_sa(written, 64), 0);
	assert_int_equal(fake_nmsgs, 1);
	assert_non_null(strstr(fake_msgs[0].text, "a window of 64 drops"));
	assert_int_equal(check_sa(narrow, 512), 0);
	assert_int_equal(fake_nmsgs, 0);

	/* Unset is the replay-window plugin's default of 128. */
	assert_int_equal(check_sa(unset, 128), 0);
	assert_int_equal(fake_nmsgs, 1);
	assert_string_equal(fake_msgs[0].key, "pcrypt");
	assert_non_null(
		strstr(fake_msgs[0].text, "the default replay window of 128"));

	/* Wide enough, no anti-replay (or no replay-window plugin), or no
	 * pcrypt. */
	assert_int_equal(check_sa(unset, 256), 0);
	assert_int_equal(fake_nmsgs, 0);
	assert_int_equal(check_sa(unset, 0), 0);
	assert_int_equal(fake_nmsgs, 0);
	assert_int_equal(check_sa(no, 64), 0);
	assert_int_equal(fake_nmsgs, 0);
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
		cmocka_unit_test(test_pcrypt_window),
		cmocka_unit_test(test_tune),
	};

	return cmocka_run_group_tests_name("kernel-xfrm", tests, setup,
					   fake_plugin_close);
}
