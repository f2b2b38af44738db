// SPDX-License-Identifier: GPL-2.0-or-later
/* replay-window: the values it accepts, and what child.tune does to an SA. */
#include <errno.h>
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
	return fake_plugin_open(state, &fx, "replay-window");
}

static void test_keys(void **state)
{
	assert_string_equal(fx.p->keys[0].name, "replay-window");
	assert_int_equal(fx.p->keys[0].scope, IKB_KEY_CONN);
	assert_string_equal(fx.p->keys[1].name, "esn");
	assert_null(fx.p->keys[2].name);
	assert_non_null(fx.p->child->tune);
	assert_null(fx.p->child->plan);
	assert_non_null(fx.p->child->offer);
}

static void test_window_values(void **state)
{
	static const char *const good[] = { "0",   "1",	   "32",
					    "128", "2048", "0064" };
	static const char *const bad[] = { "2049", "-1",  "+5",
					   " 5",   "5 ",  "0x80",
					   "",	   "abc", "99999999999" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const char *kv[] = { "replay-window", good[i], NULL };

		assert_int_equal(fake_check_conn(&fx, kv), 0);
		assert_int_equal(fake_nmsgs, 0);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *kv[] = { "replay-window", bad[i], NULL };
		char want[64];

		snprintf(want, sizeof(want),
			 "expected an integer 0..2048, got '%s'", bad[i]);
		assert_int_equal(fake_check_conn(&fx, kv), -1);
		assert_int_equal(fake_count(IKB_SEV_ERROR, want), 1);
		assert_string_equal(fake_msgs[0].key, "replay-window");
		assert_int_equal(fake_msgs[0].line, 10);
	}
}

static void test_window_kernel_range_hint(void **state)
{
	const char *kv[] = { "replay-window", "4096", NULL };

	assert_int_equal(fake_check_conn(&fx, kv), -1);
	assert_string_equal(
		fake_msgs[0].text,
		"expected an integer 0..2048, got '4096' (the kernel allows 4096, but ikebana caps the window at 2048 like libreswan)");
}

/*
 * libreswan 4.10 takes yes, no and either in any case, and refuses the
 * boolean spellings (true, on, y, ...) for esn=; so does the daemon's ESN
 * offer, which must not be told "true" and offer no ESN.
 */
static void test_esn_values(void **state)
{
	static const char *const good[] = { "yes", "no", "either",
					    "YES", "No", "Either" };
	static const char *const bad[] = { "maybe", "1",    "0",     "",
					   "yess",  "true", "false", "on",
					   "off",   "y",    "n" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const char *kv[] = { "esn", good[i], NULL };

		assert_int_equal(fake_check_conn(&fx, kv), 0);
		assert_int_equal(fake_nmsgs, 0);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *kv[] = { "esn", bad[i], NULL };
		char want[64];

		snprintf(want, sizeof(want),
			 "expected yes, no or either, got '%s'", bad[i]);
		assert_int_equal(fake_check_conn(&fx, kv), -1);
		assert_int_equal(fake_count(IKB_SEV_ERROR, want), 1);
		assert_string_equal(fake_msgs[0].key, "esn");
	}
}

static void test_esn_without_window_warns(void **state)
{
	const char *kv[] = { "replay-window", "0", "esn", "yes", NULL };
	const char *either[] = { "replay-window", "0", "esn", "either", NULL };

	assert_int_equal(fake_check_conn(&fx, kv), 0);
	assert_int_equal(fake_nmsgs, 1);
	assert_int_equal(
		fake_count(
			IKB_SEV_WARNING,
			"ESN is forced off because the kernel refuses ESN without a replay window"),
		1);
	assert_string_equal(fake_msgs[0].key, "esn");
	assert_int_equal(fake_msgs[0].line, 11);
	assert_int_equal(fake_check_conn(&fx, either), 0);
	assert_int_equal(fake_nmsgs, 0);
}

struct tune_case {
	const char *window, *esn; /* NULL: not set */
	enum ikb_dir dir;
	bool esn_in; /* what the ESN transform negotiated */
	uint32_t want_window;
	bool want_esn;
};

/* tune one SA of a conn with these keys; returns tune's status */
static int tune(const struct tune_case *c, struct ikb_sa *sa,
		struct ikb_error *err)
{
	const char *kv[5] = { NULL };
	struct ikb_section s;
	int n = 0, rc;

	if (c->window) {
		kv[n++] = "replay-window";
		kv[n++] = c->window;
	}
	if (c->esn) {
		kv[n++] = "esn";
		kv[n++] = c->esn;
	}
	*sa = (struct ikb_sa){ .dir = c->dir,
			       .esn = c->esn_in,
			       .replay_window = 77 };
	fake_conn(&s, "c", kv);
	rc = fx.p->child->tune(fx.st, &s, sa, err);
	fake_section_free(&s);
	return rc;
}

static void test_tune_table(void **state)
{
	static const struct tune_case cases[] = {
		/* libreswan's default window */
		{ NULL, NULL, IKB_DIR_IN, false, 128, false },
		{ NULL, NULL, IKB_DIR_IN, true, 128, true },
		{ "2048", NULL, IKB_DIR_IN, false, 2048, false },
		{ "0064", NULL, IKB_DIR_IN, false, 64, false },
		{ "32", "yes", IKB_DIR_IN, true, 32, true },
		{ "32", "either", IKB_DIR_IN, true, 32, true },
		{ "32", "either", IKB_DIR_IN, false, 32, false },
		/*
		 * The ESN flag is what was negotiated, whatever esn= says: a
		 * flag that differs from the peer's fails every packet's ICV.
		 */
		{ "32", "yes", IKB_DIR_IN, false, 32, false },
		{ "32", "no", IKB_DIR_IN, true, 32, true },
		/* window 0: no anti-replay (ESN was not offered) */
		{ "0", NULL, IKB_DIR_IN, false, 0, false },
		{ "0", "yes", IKB_DIR_IN, false, 0, false },
		{ "0", "yes", IKB_DIR_OUT, false, 0, false },
		/* outbound checks no replays: window 0 unless ESN */
		{ NULL, NULL, IKB_DIR_OUT, false, 0, false },
		{ "2048", NULL, IKB_DIR_OUT, false, 0, false },
		{ "1024", "no", IKB_DIR_OUT, false, 0, false },
		{ "1024", "yes", IKB_DIR_OUT, true, 1024, true },
		{ NULL, "either", IKB_DIR_OUT, true, 128, true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tune_case *c = &cases[i];
		struct ikb_error err = { { 0 } };
		struct ikb_sa sa;

		assert_int_equal(tune(c, &sa, &err), 0);
		if (sa.replay_window != c->want_window || sa.esn != c->want_esn)
			fail_msg(
				"case %zu: window=%s esn=%s dir=%d esn_in=%d: got window %u esn %d, want %u %d",
				i, c->window ? c->window : "-",
				c->esn ? c->esn : "-", (int)c->dir, c->esn_in,
				sa.replay_window, sa.esn, c->want_window,
				c->want_esn);
	}
}

/*
 * ESN negotiated on a conn with window 0 (an esp= that lists esn): the
 * kernel refuses that, and dropping the flag would break the SA silently.
 */
static void test_tune_refuses_esn_without_window(void **state)
{
	static const struct tune_case cases[] = {
		{ "0", NULL, IKB_DIR_IN, true, 0, true },
		{ "0", "yes", IKB_DIR_OUT, true, 0, true },
		{ "0", "no", IKB_DIR_IN, true, 0, true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ikb_error err = { { 0 } };
		struct ikb_sa sa;

		assert_int_equal(tune(&cases[i], &sa, &err), -EINVAL);
		assert_non_null(strstr(
			err.msg,
			"ESN was negotiated, but replay-window=0: the kernel refuses ESN without a replay window"));
		assert_true(sa.esn);
	}
}

/*
 * child.offer on two proposals from kv: the ESN ids each ends with, as
 * text ("1 0,1 0"); the second proposal has ESN from esp= already.
 */
static const char *offer(const char *const *kv, int *rc)
{
	static struct ikb_proposal_list l;
	static char out[64];
	struct ikb_error err = { "" };
	struct ikb_section s;
	size_t o = 0;

	memset(&l, 0, sizeof(l));
	l.n = 2;
	l.p[0].n = 1;
	l.p[0].xf[0] = (struct ikb_transform){ IKB_XF_ENCR, 20, 128 };
	l.p[1].n = 2;
	l.p[1].xf[0] = (struct ikb_transform){ IKB_XF_ENCR, 20, 256 };
	l.p[1].xf[1] = (struct ikb_transform){ IKB_XF_ESN, 1, 0 };
	fake_conn(&s, "c", kv);
	*rc = fx.p->child->offer(fx.st, &s, &l, &err);
	fake_section_free(&s);
	out[0] = '\0';
	for (unsigned i = 0; i < l.n; i++)
		for (unsigned j = 0; j < l.p[i].n; j++)
			if (l.p[i].xf[j].type == IKB_XF_ESN)
				o += (size_t)snprintf(out + o, sizeof(out) - o,
						      "%s%u", o ? " " : "",
						      l.p[i].xf[j].id);
	return out;
}

/* esn= and replay-window= decide the ESN transforms offered. */
static void test_offer(void **state)
{
	static const struct {
		const char *esn, *window, *ids;
	} rows[] = {
		{ NULL, NULL, "0 1" },	     { "no", NULL, "0 1" },
		{ "yes", NULL, "1 1" },	     { "either", NULL, "1 0 1" },
		{ "YES", "64", "1 1" },	     { "yes", "0", "0 1" },
		{ "either", "0", "0 1" },    { NULL, "0", "0 1" },
		{ "either", "08", "1 0 1" },
	};
	int rc;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *kv[5] = { NULL };
		size_t k = 0;

		if (rows[i].esn)
			kv[k++] = "esn", kv[k++] = rows[i].esn;
		if (rows[i].window)
			kv[k++] = "replay-window", kv[k++] = rows[i].window;
		assert_string_equal(offer(kv, &rc), rows[i].ids);
		assert_int_equal(rc, 0);
	}
}

/* A full proposal: E2BIG, naming the key and the proposal. */
static void test_offer_full(void **state)
{
	static struct ikb_proposal_list l;
	const char *kv[] = { "esn", "either", NULL };
	struct ikb_error err = { "" };
	struct ikb_section s;

	l.n = 1;
	l.p[0].n = IKB_PROPOSAL_MAX_XFORMS - 1;
	fake_conn(&s, "c", kv);
	assert_int_equal(fx.p->child->offer(fx.st, &s, &l, &err), -E2BIG);
	fake_section_free(&s);
	assert_string_equal(
		err.msg,
		"esn: ESP proposal 1 has 64 transforms, the most there can be: no room for its ESN transform");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_window_values),
		cmocka_unit_test(test_window_kernel_range_hint),
		cmocka_unit_test(test_esn_values),
		cmocka_unit_test(test_esn_without_window_warns),
		cmocka_unit_test(test_tune_table),
		cmocka_unit_test(test_tune_refuses_esn_without_window),
		cmocka_unit_test(test_offer),
		cmocka_unit_test(test_offer_full),
	};

	return cmocka_run_group_tests_name("replay-window", tests, setup,
					   fake_plugin_close);
}
