// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The built plugin against the host kernel, in a private network
 * namespace. That kernel has XFRM policies but no ESP, which is just what
 * the refusal tests need: the kernel's own words must reach the caller,
 * and nothing may stay behind.
 */
#include <dlfcn.h>
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "build-config.h"
#include "netns.h"
#include "test_host.h"

static void *handle;
static const struct ikb_plugin *p;
static const struct ikb_kernel_ops *k;

static int setup(void **state)
{
	netns_setup(state);
	handle = dlopen(IKB_BUILD_ROOT "/plugins/kernel-xfrm/kernel-xfrm.so",
			RTLD_NOW);
	if (!handle) {
		fprintf(stderr, "%s\n", dlerror());
		return -1;
	}
	p = dlsym(handle, "ikb_plugin");
	k = p ? p->kernel : NULL;
	return k ? 0 : -1;
}

static int teardown(void **state)
{
	dlclose(handle);
	return 0;
}

static void *fresh(void)
{
	void *st;

	assert_int_equal(p->init(test_host(), &st), 0);
	return st;
}

static unsigned npols, nsas;
static void count_pol(void *ctx, const struct ikb_policy *pol)
{
	npols++;
}

static void count_sa(void *ctx, const struct ikb_sa *sa)
{
	nsas++;
}

/* Host to host, TCP to port 443, transport mode, no mark. */
static struct ikb_policy https_policy(void)
{
	struct ikb_policy pol =
		test_esp_policy(IKB_DIR_OUT, IKB_MODE_TRANSPORT, 9);

	test_v4(&pol.sel.src, "192.0.2.1");
	test_v4(&pol.sel.dst, "192.0.2.2");
	pol.sel.src_plen = pol.sel.dst_plen = 32;
	pol.sel.proto = IPPROTO_TCP;
	pol.sel.dport = 443;
	return pol;
}

static void test_policy_round_trip(void **state)
{
	static const enum ikb_dir dirs[] = { IKB_DIR_IN, IKB_DIR_OUT,
					     IKB_DIR_FWD };
	struct ikb_error err = { "" };
	void *st;
	const char *out;

	NEED_NETNS();
	st = fresh();
	for (int i = 0; i < 3; i++) {
		struct ikb_policy pol =
			test_esp_policy(dirs[i], IKB_MODE_TUNNEL, 9);

		if (k->policy_add(st, &pol, &err))
			fail_msg("policy_add: %s", err.msg);
	}
	{
		struct ikb_policy pol = https_policy();

		pol.mark = 7;
		if (k->policy_add(st, &pol, &err))
			fail_msg("policy_add: %s", err.msg);
	}
	out = sh("ip xfrm policy list");
	assert_non_null(
		strstr(out, "src 10.1.0.0/16 dst 10.2.0.0/24 \n\tdir out"));
	assert_non_null(strstr(out, "dir fwd"));
	assert_non_null(strstr(out, "dir in"));
	assert_non_null(strstr(out, "tmpl src 192.0.2.1 dst 192.0.2.2"));
	assert_non_null(
		strstr(out, "reqid 1229062153 mode tunnel")); /* 0x49420009 */
	assert_non_null(strstr(out, "proto tcp dport 443"));
	assert_non_null(strstr(out, "mark 0x7/0xffffffff"));
	assert_non_null(strstr(out, "mode transport"));
	npols = 0;
	assert_int_equal(k->dump(st, NULL, count_pol, NULL), 0);
	assert_int_equal(npols, 4);

	/* Adding the same again is the kernel's EEXIST, in its words. */
	{
		struct ikb_policy pol =
			test_esp_policy(IKB_DIR_IN, IKB_MODE_TUNNEL, 9);

		assert_int_equal(k->policy_add(st, &pol, &err), -EEXIST);
		assert_non_null(strstr(err.msg, "kernel: "));
	}
	for (int i = 0; i < 3; i++) {
		struct ikb_policy pol =
			test_esp_policy(dirs[i], IKB_MODE_TUNNEL, 9);

		if (k->policy_del(st, &pol, &err))
			fail_msg("policy_del: %s", err.msg);
	}
	{
		struct ikb_policy pol = https_policy();

		/* Without its mark it is another policy. */
		assert_int_equal(k->policy_del(st, &pol, &err), -ENOENT);
		pol.mark = 7;
		if (k->policy_del(st, &pol, &err))
			fail_msg("policy_del: %s", err.msg);
	}
	assert_string_equal(sh("ip xfrm policy list"), "");
	p->fini(st);
}

static void test_sa_refused(void **state)
{
	struct ikb_sa sa = { .spi = 0x1001,
			     .proto = IPPROTO_ESP,
			     .dir = IKB_DIR_IN,
			     .reqid = 1,
			     .cpu = -1,
			     .replay_window = 2048,
			     .esn = true };
	struct ikb_error err = { "" };
	struct ikb_sa_counters c;
	void *st;
	int rc;

	NEED_NETNS();
	st = fresh();
	test_v4(&sa.src, "192.0.2.1");
	test_v4(&sa.dst, "192.0.2.2");
	strcpy(sa.aead.name, "rfc4106(gcm(aes))");
	sa.aead.key_bits = 160;
	sa.aead.icv_bits = 128;
	rc = k->sa_add(st, &sa, &err);
	/* This kernel has no ESP (or no such cipher): it says which. */
	assert_true(rc < 0);
	assert_true(strncmp(err.msg, "kernel: ", 8) == 0);
	assert_non_null(strchr(err.msg, '('));
	fprintf(stderr, "# sa_add refused: %s\n", err.msg);
	assert_string_equal(sh("ip xfrm state list"), "");
	assert_string_equal(sh("ip xfrm policy list"), "");

	/* Refusals of ours come before the kernel is asked. */
	strcpy(sa.aead.name, "no-such-alg");
	sa.esn = true;
	sa.replay_window = 0;
	assert_int_equal(k->sa_add(st, &sa, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "ESN needs a replay window"));

	assert_int_equal(
		k->sa_query(st, &sa.dst, 0x1001, IPPROTO_ESP, &c, &err),
		-ESRCH);
	assert_true(strncmp(err.msg, "kernel: ", 8) == 0);
	assert_int_equal(k->sa_del(st, &sa.dst, 0x1001, IPPROTO_ESP, &err),
			 -ESRCH);
	p->fini(st);
}

static void test_spi_alloc(void **state)
{
	struct ikb_addr s, d;
	struct ikb_error err = { "" };
	uint32_t spi1 = 0, spi2 = 0;
	void *st;

	NEED_NETNS();
	st = fresh();
	test_v4(&s, "192.0.2.1");
	test_v4(&d, "192.0.2.2");
	if (k->spi_alloc(st, &s, &d, IPPROTO_ESP, 3, &spi1, &err))
		fail_msg("spi_alloc: %s", err.msg);
	assert_int_equal(k->spi_alloc(st, &s, &d, IPPROTO_ESP, 3, &spi2, &err),
			 0);
	assert_true(spi1 >= 0x100 && spi2 >= 0x100 && spi1 != spi2);
	nsas = 0;
	assert_int_equal(k->dump(st, count_sa, NULL, NULL), 0);
	assert_int_equal(nsas, 2);
	assert_int_equal(
		k->spi_alloc(st, &s, &d, IPPROTO_ESP, 0x10000, &spi1, &err),
		-ERANGE);
	assert_int_equal(k->sa_del(st, &d, spi2, IPPROTO_ESP, &err), 0);
	nsas = 0;
	assert_int_equal(k->dump(st, count_sa, NULL, NULL), 0);
	assert_int_equal(nsas, 1);
	p->fini(st); /* not subscribed: leaves the larval SA */
	assert_non_null(strstr(sh("ip xfrm state"), "reqid 1229062147"));
	assert_int_equal(system("ip xfrm state flush"), 0);
}

static void ignore(void *ctx, const struct ikb_kernel_event *ev)
{
}

static void test_owner_flush(void **state)
{
	struct ikb_error err = { "" };
	struct ikb_policy pol =
		test_esp_policy(IKB_DIR_OUT, IKB_MODE_TUNNEL, 9);
	struct ikb_addr s, d;
	uint32_t spi;
	const char *out;
	void *st;

	NEED_NETNS();
	assert_int_equal(
		system("ip xfrm policy add src 10.9.0.0/16 dst 10.8.0.0/16 dir out"
		       " tmpl src 192.0.2.1 dst 192.0.2.2 proto esp reqid 100 mode tunnel &&"
		       " ip xfrm policy add src 10.9.0.0/16 dst 10.7.0.0/16 dir out"
		       " tmpl src 192.0.2.1 dst 192.0.2.2 proto esp reqid 16384 mode tunnel &&"
		       " ip xfrm state allocspi src 192.0.2.1 dst 192.0.2.2 proto esp reqid 5 >/dev/null"),
		0);
	/* A predecessor's leftovers. */
	st = fresh();
	test_v4(&s, "192.0.2.1");
	test_v4(&d, "192.0.2.2");
	assert_int_equal(k->policy_add(st, &pol, &err), 0);
	assert_int_equal(k->spi_alloc(st, &s, &d, IPPROTO_ESP, 1, &spi, &err),
			 0);
	p->fini(st);
	assert_non_null(strstr(sh("ip xfrm policy"), "10.2.0.0/24"));

	/* The next run takes charge: ours go, the foreign ones stay. */
	test_log[0] = '\0';
	st = fresh();
	assert_int_equal(k->events_subscribe(st, ignore, NULL, &err), 0);
	assert_non_null(strstr(test_log, "removed 1 SAs and 1 policies"));
	out = sh("ip xfrm policy; ip xfrm state");
	assert_null(strstr(out, "10.2.0.0/24"));
	assert_non_null(strstr(out, "10.8.0.0/16"));
	assert_non_null(strstr(out, "10.7.0.0/16"));
	assert_non_null(strstr(out, "reqid 5 "));

	/* And at its end it removes what it installed, only that. */
	pol.dir = IKB_DIR_IN;
	assert_int_equal(k->policy_add(st, &pol, &err), 0);
	p->fini(st);
	out = sh("ip xfrm policy; ip xfrm state");
	assert_null(strstr(out, "10.2.0.0/24"));
	assert_non_null(strstr(out, "10.8.0.0/16"));
	assert_non_null(strstr(out, "reqid 5 "));
	assert_int_equal(system("ip xfrm policy flush; ip xfrm state flush"), 0);
}

/* checkconfig loads the plugin with no loop: it must not touch the kernel. */
static void test_no_loop_no_kernel(void **state)
{
	void *st;

	NEED_NETNS();
	assert_int_equal(
		system("ip xfrm policy add src 10.9.0.0/16 dst 10.8.0.0/16 dir out"
		       " tmpl proto esp reqid 1229062145 mode transport"),
		0);
	st = fresh();
	p->fini(st);
	assert_non_null(strstr(sh("ip xfrm policy"), "10.8.0.0/16"));
	assert_int_equal(system("ip xfrm policy flush"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_round_trip),
		cmocka_unit_test(test_sa_refused),
		cmocka_unit_test(test_spi_alloc),
		cmocka_unit_test(test_owner_flush),
		cmocka_unit_test(test_no_loop_no_kernel),
	};

	return cmocka_run_group_tests_name("kernel-xfrm netns", tests, setup,
					   teardown);
}
