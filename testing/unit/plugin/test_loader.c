// SPDX-License-Identifier: GPL-2.0-or-later
/* The loader: real plugins, and every way a plugin set is refused. */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "build-config.h"
#include "config/diag.h"
#include "fake_host.h"
#include "kernel_mem.h"
#include "mixdir.h"
#include "plugin/plugin_set.h"

static struct ikb_diag d;
static const struct ikb_value at = { .key = "plugins",
				     .value = "...",
				     .file = "ikebana.conf",
				     .line = 3 };

static int setup(void **state)
{
	unsetenv("IKEBANA_PLUGIN_DIR");
	diag_init(&d);
	fake_reset();
	return 0;
}

static int teardown(void **state)
{
	diag_free(&d);
	mixdir_remove();
	return 0;
}

static int load(struct plugin_set **ps, const char *names, const char *dir)
{
	diag_free(&d);
	diag_init(&d);
	fake_reset();
	return plugin_set_load(ps, names, &at, dir, fake_host(), &d);
}

/* Exactly one error, with the plugins= file:line, and this text. */
static void only_error(const char *text)
{
	if (d.n != 1 || strcmp(d.msgs[0].text, text) != 0) {
		char buf[512];

		for (size_t i = 0; i < d.n; i++)
			print_message("diag: %s\n",
				      diag_format(&d, i, buf, sizeof(buf)));
		fail_msg("want exactly: %s", text);
	}
	assert_int_equal(d.msgs[0].sev, IKB_SEV_ERROR);
	assert_string_equal(d.msgs[0].file, "ikebana.conf");
	assert_int_equal(d.msgs[0].line, 3);
}

static bool has_error(const char *text)
{
	for (size_t i = 0; i < d.n; i++)
		if (strstr(d.msgs[i].text, text))
			return true;
	return false;
}

static void test_each_real_plugin(void **state)
{
	static const char *const sets[] = { "kernel-mem", "replay-window",
					    "kernel-xfrm", "esp-proposals",
					    "esp-proposals multi-sa" };
	struct plugin_set *ps;

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		if (load(&ps, sets[i], NULL) != 0)
			fail_msg("%s: %s", sets[i],
				 d.n ? d.msgs[0].text : "(no message)");
		assert_int_equal(d.n, 0);
		plugin_set_free(ps);
	}
}

static void test_default_set(void **state)
{
	struct plugin_set *ps;
	void *st = NULL;

	assert_int_equal(load(&ps, NULL, NULL), 0);
	assert_int_equal(plugin_set_count(ps), 4);
	assert_string_equal(plugin_set_get(ps, 0, NULL)->name, "esp-proposals");
	assert_string_equal(plugin_set_get(ps, 3, &st)->name, "kernel-xfrm");
	assert_null(plugin_set_get(ps, 4, NULL));
	assert_non_null(plugin_set_proposals(ps, &st));
	assert_non_null(plugin_set_kernel(ps, &st)); /* kernel-xfrm */
	assert_true(plugin_set_owns(ps, "replay-window", IKB_KEY_CONN));
	assert_false(plugin_set_owns(ps, "replay-window", IKB_KEY_SETUP));
	assert_true(plugin_set_owns(ps, "clones", IKB_KEY_CONN));
	assert_true(plugin_set_owns(ps, "nic-offload", IKB_KEY_CONN));
	assert_false(plugin_set_owns(ps, "no-such-key", IKB_KEY_CONN));
	plugin_set_free(ps);
}

static void test_lookups(void **state)
{
	struct plugin_set *ps;
	void *st = NULL, *kst = NULL;
	const char *names = "kernel-mem, replay-window";

	assert_int_equal(load(&ps, names, NULL), 0);
	assert_int_equal(plugin_set_count(ps), 2);
	assert_non_null(plugin_set_find(ps, "replay-window", &st));
	assert_non_null(st);
	assert_null(plugin_set_find(ps, "multi-sa", NULL));
	assert_non_null(plugin_set_kernel(ps, &kst));
	assert_ptr_not_equal(kst, st);
	assert_non_null(
		plugin_set_symbol(ps, "kernel-mem", IKB_KERNEL_MEM_INJECT));
	assert_null(plugin_set_symbol(ps, "kernel-mem", "mem_sa_add"));
	assert_null(plugin_set_symbol(ps, "nope", IKB_KERNEL_MEM_INJECT));
	plugin_set_free(ps);
}

static void test_abi_mismatch(void **state)
{
	struct plugin_set *ps = (void *)1;
	char want[512];

	assert_int_equal(load(&ps, "bad-abi", TEST_MODDIR), -1);
	assert_null(ps);
	snprintf(
		want, sizeof(want),
		"plugin bad-abi (%s/bad-abi.so): ABI version 999, ikebanad expects %d",
		TEST_MODDIR, IKB_PLUGIN_ABI);
	only_error(want);
}

static void test_bad_descriptors(void **state)
{
	struct plugin_set *ps;
	char want[512];

	assert_int_equal(load(&ps, "bad-size", TEST_MODDIR), -1);
	snprintf(
		want, sizeof(want),
		"plugin bad-size (%s/bad-size.so): descriptor is 8 bytes, ikebanad expects %zu for ABI %d",
		TEST_MODDIR, sizeof(struct ikb_plugin), IKB_PLUGIN_ABI);
	only_error(want);

	assert_int_equal(load(&ps, "misnamed", TEST_MODDIR), -1);
	snprintf(
		want, sizeof(want),
		"plugin misnamed (%s/misnamed.so): the descriptor names it 'other'; the file must be called after the plugin",
		TEST_MODDIR);
	only_error(want);

	assert_int_equal(load(&ps, "no-symbol", TEST_MODDIR), -1);
	snprintf(
		want, sizeof(want),
		"plugin no-symbol (%s/no-symbol.so): no 'ikb_plugin' symbol; not an ikebana plugin",
		TEST_MODDIR);
	only_error(want);
}

/*
 * Ops tables start with their size: one without it is refused by name;
 * one from newer headers (longer) loads, and the engine calls through
 * ikebanad's own zeroed copy of the part it knows.
 */
static void test_table_sizes(void **state)
{
	const struct ikb_kernel_ops *ops;
	const struct ikb_plugin *desc;
	struct plugin_set *ps;
	char want[512];
	uint32_t spi = 0;
	void *st, *h;

	assert_int_equal(load(&ps, "kernel-nosize", TEST_MODDIR), -1);
	snprintf(
		want, sizeof(want),
		"plugin kernel-nosize (%s/kernel-nosize.so): its kernel table is 0 bytes, ABI %d needs at least %zu (was .size = IKB_OPS_SIZE(...) left out?)",
		TEST_MODDIR, IKB_PLUGIN_ABI, (size_t)IKB_KERNEL_OPS_MIN);
	only_error(want);

	assert_int_equal(load(&ps, "kernel-newer", TEST_MODDIR), 0);
	ops = plugin_set_kernel(ps, &st);
	assert_non_null(ops);
	/* the plugin's own table, as the loader found it */
	h = dlopen(TEST_MODDIR "/kernel-newer.so", RTLD_NOW | RTLD_NOLOAD);
	assert_non_null(h);
	desc = dlsym(h, IKB_PLUGIN_SYMBOL);
	assert_non_null(desc);
	assert_ptr_not_equal(ops, desc->kernel);
	dlclose(h);
	assert_true(ops->size > sizeof(*ops));
	assert_int_equal(ops->spi_alloc(st, NULL, NULL, 50, 0, &spi, NULL), 0);
	assert_int_equal(spi, 0x1234);
	assert_null(ops->child_add);
	plugin_set_free(ps);
}

static void test_missing_plugin(void **state)
{
	struct plugin_set *ps;
	char want[512];

	assert_int_equal(load(&ps, "nosuch", TEST_MODDIR), -1);
	snprintf(
		want, sizeof(want),
		"plugin nosuch: cannot load %s/nosuch.so (searched the plugin directory given): ",
		TEST_MODDIR);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.msgs[0].text, want));
	assert_non_null(strstr(d.msgs[0].text, "No such file"));

	setenv("IKEBANA_PLUGIN_DIR", "/nonexistent", 1);
	assert_int_equal(load(&ps, "kernel-mem", NULL), -1);
	unsetenv("IKEBANA_PLUGIN_DIR");
	assert_true(has_error(
		"cannot load /nonexistent/kernel-mem.so (searched IKEBANA_PLUGIN_DIR)"));

	/* Every missing plugin is named, not just the first. */
	assert_int_equal(load(&ps, "kernel-mem nosuch1 nosuch2", NULL), -1);
	assert_int_equal(d.n, 2);
	assert_true(has_error(
		"plugin nosuch1: cannot load " IKB_BUILD_ROOT
		"/plugins/nosuch1/nosuch1.so (searched the build tree)"));
	assert_true(has_error("plugin nosuch2:"));
}

static void test_missing_requirement(void **state)
{
	struct plugin_set *ps;

	assert_int_equal(load(&ps, "multi-sa", NULL), -1);
	only_error(
		"plugin multi-sa requires esp-proposals, which plugins= does not list");
}

static void test_two_tables(void **state)
{
	const char *const k[] = { "kernel-mem", "kernel-fake", NULL };
	const char *const p[] = { "proposals-a", "proposals-b", NULL };
	struct plugin_set *ps;

	assert_int_equal(load(&ps, "kernel-mem kernel-fake", mixdir_make(k)),
			 -1);
	only_error(
		"two kernel backends: kernel-mem and kernel-fake; choose one in plugins=");
	assert_int_equal(load(&ps, "proposals-a proposals-b", mixdir_make(p)),
			 -1);
	only_error(
		"two proposals providers: proposals-a and proposals-b; choose one in plugins=");
}

static void test_key_owned_twice(void **state)
{
	const char *const names[] = { "replay-window", "dup-key", "core-key",
				      NULL };
	const char *dir = mixdir_make(names);
	struct plugin_set *ps;

	assert_int_equal(load(&ps, "replay-window dup-key", dir), -1);
	only_error(
		"key replay-window is owned by two plugins: replay-window and dup-key");
	assert_int_equal(load(&ps, "core-key", dir), -1);
	only_error(
		"key left (conn) is owned by both the core and plugin core-key");
	/* Nothing was initialised for a refused set. */
	assert_string_equal(fake_log, "");
}

static void test_names(void **state)
{
	struct plugin_set *ps;

	assert_int_equal(load(&ps, "../../tmp/evil", TEST_MODDIR), -1);
	only_error(
		"plugins=: '../../tmp/evil' is not a plugin name (expected lower-case letters, digits and '-')");
	assert_int_equal(load(&ps, "trace-a,trace-a", TEST_MODDIR), -1);
	only_error("plugins=: trace-a is listed twice");
	assert_int_equal(load(&ps, "", TEST_MODDIR), 0);
	assert_int_equal(plugin_set_count(ps), 0);
	plugin_set_free(ps);
}

/* What the modules log at init: the size of the host they were given. */
static const char *init_line(const char *mod)
{
	static char line[4][64];
	static unsigned k;
	char *l = line[k++ % 4];

	snprintf(l, sizeof(line[0]), "%s: init host %zu bytes\n", mod,
		 sizeof(struct ikb_host));
	return l;
}

static void test_init_order_and_fini(void **state)
{
	struct plugin_set *ps;
	char want[256];

	assert_int_equal(load(&ps, "trace-a trace-b", TEST_MODDIR), 0);
	snprintf(want, sizeof(want), "%s%s", init_line("trace-a"),
		 init_line("trace-b"));
	assert_string_equal(fake_log, want);
	plugin_set_free(ps);
	snprintf(want, sizeof(want),
		 "%s%strace-b: fini own state\ntrace-a: fini own state\n",
		 init_line("trace-a"), init_line("trace-b"));
	assert_string_equal(fake_log, want);
}

static void test_init_failure(void **state)
{
	struct plugin_set *ps;
	char want[256];

	assert_int_equal(load(&ps, "trace-a init-fail trace-b", TEST_MODDIR),
			 -1);
	only_error("plugin init-fail: init failed: Operation not permitted");
	/* trace-a was initialised, so it is finalised; trace-b never ran. */
	snprintf(want, sizeof(want), "%s%strace-a: fini own state\n",
		 init_line("trace-a"), init_line("init-fail"));
	assert_string_equal(fake_log, want);
}

static void test_path(void **state)
{
	char buf[256];

	assert_string_equal(
		plugin_set_path("/x", "kernel-mem", buf, sizeof(buf)),
		"the plugin directory given");
	assert_string_equal(buf, "/x/kernel-mem.so");
	setenv("IKEBANA_PLUGIN_DIR", "/y", 1);
	assert_string_equal(
		plugin_set_path(NULL, "kernel-mem", buf, sizeof(buf)),
		"IKEBANA_PLUGIN_DIR");
	assert_string_equal(buf, "/y/kernel-mem.so");
	unsetenv("IKEBANA_PLUGIN_DIR");
	/* This test runs from the build tree. */
	assert_string_equal(
		plugin_set_path(NULL, "kernel-mem", buf, sizeof(buf)),
		"the build tree");
	assert_string_equal(buf,
			    IKB_BUILD_ROOT "/plugins/kernel-mem/kernel-mem.so");
	assert_null(plugin_set_path("/x", "kernel-mem", buf, 8));
	assert_true(plugin_name_valid("kernel-mem"));
	assert_false(plugin_name_valid("Kernel"));
	assert_false(plugin_name_valid("a/b"));
	assert_false(plugin_name_valid(""));
}

/* child.offer runs in plugins= order; the first failure stops, said. */
static void test_dispatch_offer(void **state)
{
	static struct ikb_proposal_list l;
	struct ikb_section conn;
	struct ikb_error err;
	struct plugin_set *ps;
	char want[256];

	fake_conn(&conn, "c", (const char *const[]){ NULL });
	assert_int_equal(load(&ps, "trace-b trace-a", TEST_MODDIR), 0);
	memset(&l, 0, sizeof(l));
	l.n = 1;
	fake_log[0] = '\0';
	assert_int_equal(plugin_set_child_offer(ps, &conn, &l, &err), 0);
	assert_string_equal(fake_log,
			    "trace-b: offer after 0\ntrace-a: offer after 1\n");
	assert_int_equal(l.p[0].n, 2);
	assert_int_equal(l.p[0].xf[0].id, 2);
	assert_int_equal(l.p[0].xf[1].id, 1);
	plugin_set_free(ps);

	assert_int_equal(load(&ps, "trace-a offer-fails trace-b", TEST_MODDIR),
			 0);
	memset(&l, 0, sizeof(l));
	l.n = 1;
	fake_log[0] = '\0';
	assert_int_equal(plugin_set_child_offer(ps, &conn, &l, &err), -E2BIG);
	snprintf(want, sizeof(want),
		 "plugin offer-fails: child.offer failed: %s", strerror(E2BIG));
	assert_string_equal(err.msg, want);
	assert_string_equal(
		fake_log,
		"trace-a: offer after 0\noffer-fails: offer after 1\n");
	assert_int_equal(l.p[0].n, 1);
	plugin_set_free(ps);
	fake_section_free(&conn);
}

/*
 * check_sa sees what the owners' tune exported: kernel-xfrm's pcrypt
 * warning takes its window from replay-window, and only once every key
 * is valid.
 */
static void test_check_sa(void **state)
{
	const char *narrow[] = { "pcrypt", "yes", "replay-window", "64", NULL };
	const char *wide[] = { "pcrypt", "yes", "replay-window", "2048", NULL };
	const char *bad[] = { "pcrypt", "yes", "replay-window", "lots", NULL };
	struct ikb_section conns[1];
	struct cfg c = { .path = "test.conf", .nconns = 1, .conns = conns };
	struct plugin_set *ps;

	assert_int_equal(load(&ps, "kernel-xfrm replay-window", NULL), 0);
	fake_conn(&conns[0], "c", narrow);
	fake_reset();
	assert_int_equal(plugin_set_check(ps, &c, &d), 0);
	assert_int_equal(fake_nmsgs, 1);
	assert_int_equal(fake_msgs[0].sev, IKB_SEV_WARNING);
	assert_string_equal(fake_msgs[0].key, "replay-window");
	assert_non_null(strstr(fake_msgs[0].text, "a window of 64 drops"));
	fake_section_free(&conns[0]);

	fake_conn(&conns[0], "c", wide);
	fake_reset();
	assert_int_equal(plugin_set_check(ps, &c, &d), 0);
	assert_int_equal(fake_nmsgs, 0);
	fake_section_free(&conns[0]);

	/* the error only: no check on a value that is not one */
	fake_conn(&conns[0], "c", bad);
	fake_reset();
	assert_int_equal(plugin_set_check(ps, &c, &d), -1);
	assert_int_equal(fake_nmsgs, 1);
	assert_int_equal(fake_msgs[0].sev, IKB_SEV_ERROR);
	fake_section_free(&conns[0]);
	plugin_set_free(ps);

	/* no replay-window plugin: no window, nothing dropped, no warning */
	assert_int_equal(load(&ps, "kernel-xfrm", NULL), 0);
	fake_conn(&conns[0], "c",
		  (const char *const[]){ "pcrypt", "yes", NULL });
	fake_reset();
	assert_int_equal(plugin_set_check(ps, &c, &d), 0);
	assert_int_equal(fake_nmsgs, 0);
	fake_section_free(&conns[0]);
	plugin_set_free(ps);
}

static void test_dispatch_tune_and_check(void **state)
{
	const char *kv[] = { "replay-window", "512", "nic-offload", "crypto",
			     NULL };
	const char *bad[] = { "replay-window", "9999", NULL };
	struct ikb_section conns[2];
	struct cfg c = { .path = "test.conf", .nconns = 2, .conns = conns };
	struct ikb_sa sa = { .dir = IKB_DIR_IN };
	static struct ikb_child_plan plan = { .n = 1 };
	struct ikb_error err;
	struct plugin_set *ps;

	assert_int_equal(load(&ps, "replay-window kernel-xfrm", NULL), 0);
	fake_conn(&conns[0], "good", kv);
	fake_conn(&conns[1], "bad", bad);
	assert_int_equal(plugin_set_child_tune(ps, &conns[0], &sa, &err), 0);
	assert_int_equal(sa.replay_window, 512);
	assert_int_equal(sa.offload, IKB_OFFLOAD_CRYPTO);
	assert_int_equal(plugin_set_child_plan(ps, &conns[0], &plan, &err), 0);
	assert_int_equal(plan.n, 1);

	fake_reset();
	assert_int_equal(plugin_set_check(ps, &c, &d), -1);
	assert_int_equal(fake_nmsgs, 1);
	assert_non_null(strstr(fake_msgs[0].text, "got '9999'"));
	c.nconns = 1;
	assert_int_equal(plugin_set_check(ps, &c, &d), 0);
	fake_section_free(&conns[0]);
	fake_section_free(&conns[1]);
	plugin_set_free(ps);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_each_real_plugin),
		T(test_default_set),
		T(test_lookups),
		T(test_abi_mismatch),
		T(test_bad_descriptors),
		T(test_table_sizes),
		T(test_missing_plugin),
		T(test_missing_requirement),
		T(test_two_tables),
		T(test_key_owned_twice),
		T(test_names),
		T(test_init_order_and_fini),
		T(test_init_failure),
		T(test_path),
		T(test_dispatch_tune_and_check),
		T(test_dispatch_offer),
		T(test_check_sa),
	};

	return cmocka_run_group_tests_name("plugin loader", tests, NULL, NULL);
}
