// SPDX-License-Identifier: GPL-2.0-or-later
/* multi-sa: clones=, protoports and subnets lists, and the plan they make. */
#include <errno.h>
#include <netinet/in.h>
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
	return fake_plugin_open(state, &fx, "multi-sa");
}

static void test_descriptor(void **state)
{
	assert_string_equal(fx.p->requires[0], "esp-proposals");
	assert_null(fx.p->requires[1]);
	assert_string_equal(fx.p->keys[0].name, "clones");
	assert_string_equal(fx.p->keys[1].name, "leftprotoports");
	assert_string_equal(fx.p->keys[2].name, "rightprotoports");
	assert_string_equal(fx.p->keys[3].name, "leftsubnets");
	assert_string_equal(fx.p->keys[4].name, "rightsubnets");
	assert_null(fx.p->keys[5].name);
	assert_null(fx.p->kernel);
	assert_non_null(fx.p->child->plan);
}

static void test_clones(void **state)
{
	static const char *const good[] = { "1", "4", "256", "yes", "YES" };
	static const char *const bad[] = { "0", "257", "-1", "no", "", "2x" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const char *kv[] = { "clones", good[i], NULL };

		assert_int_equal(fake_check_conn(&fx, kv), 0);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *kv[] = { "clones", bad[i], NULL };
		char want[96];

		snprintf(
			want, sizeof(want),
			"expected an integer 1..256 or yes (one per online CPU), got '%s'",
			bad[i]);
		assert_int_equal(fake_check_conn(&fx, kv), -1);
		assert_int_equal(fake_count(IKB_SEV_ERROR, want), 1);
	}
}

/* clones= with protoports lists is refused, naming both keys. */
static void test_clones_protoports(void **state)
{
	const char *kv[] = { "clones", "2", "rightprotoports", "tcp/80", NULL };

	assert_int_equal(fake_check_conn(&fx, kv), -1);
	assert_int_equal(
		fake_count(IKB_SEV_ERROR,
			   "per-CPU clones of several protoports entries"),
		1);
}

static void test_protoports_values(void **state)
{
	static const char *const good[] = {
		"tcp/443",	  "tcp/443,udp/53",
		"tcp/443 udp/53", "tcp/443, udp/53",
		"17/%any",	  "icmp",
		"tcp/0",	  "tcp/65535",
		"sctp/9",	  "%any",
		"udp/domain",
	};
	static const struct {
		const char *v, *why;
	} bad[] = {
		{ "tcp/99999", "port 99999 is not 0..65535" },
		{ "tcp/-1", "unknown port or service '-1'" },
		{ "bogus/80", "unknown protocol 'bogus'" },
		{ "256/80", "protocol 256 is not 0..255" },
		{ "tcp/80,,udp/x-no-such",
		  "unknown port or service 'x-no-such'" },
		{ " , ", "the list is empty" },
		{ "%any/80", "a port needs a protocol" },
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const char *kv[] = { "leftprotoports", good[i], NULL };

		if (fake_check_conn(&fx, kv) != 0)
			fail_msg("'%s' refused: %s", good[i],
				 fake_msgs[0].text);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *kv[] = { "rightprotoports", bad[i].v, NULL };

		assert_int_equal(fake_check_conn(&fx, kv), -1);
		assert_int_equal(fake_nmsgs, 1);
		assert_non_null(strstr(fake_msgs[0].text, bad[i].why));
		assert_non_null(
			strstr(fake_msgs[0].text, "expected PROTO/PORT"));
		assert_string_equal(fake_msgs[0].key, "rightprotoports");
	}
}

static void test_protoport_and_protoports(void **state)
{
	const char *kv[] = { "leftprotoport", "tcp/80", "leftprotoports",
			     "tcp/443", NULL };

	assert_int_equal(fake_check_conn(&fx, kv), -1);
	assert_string_equal(
		fake_msgs[0].text,
		"leftprotoport and leftprotoports cannot both be set (leftprotoport at test.conf:10)");
	assert_int_equal(fake_msgs[0].line, 11);
}

/*
 * Every left entry with every right entry: a one-entry list pairs with
 * all of the other side's, lists of any lengths pair up.
 */
static void test_pairs(void **state)
{
	const char *one_n[] = { "leftprotoports", "tcp", "rightprotoports",
				"tcp/1 tcp/2 tcp/3 tcp/4", NULL };
	const char *n_one[] = { "leftprotoports", "tcp/1 udp/2 %any",
				"rightprotoports", "%any", NULL };
	const char *n_m[] = { "leftprotoports", "tcp/1 tcp/2",
			      "rightprotoports", "tcp/3 tcp/4 tcp", NULL };
	const char *proto[] = { "leftprotoports", "tcp/1 %any",
				"rightprotoports", "tcp/3 udp/4", NULL };

	assert_int_equal(fake_check_conn(&fx, one_n), 0);
	assert_int_equal(fake_check_conn(&fx, n_one), 0);
	assert_int_equal(fake_check_conn(&fx, n_m), 0);
	/* tcp/1 with udp/4 would be a selector of two protocols */
	assert_int_equal(fake_check_conn(&fx, proto), -1);
	assert_int_equal(fake_nmsgs, 1);
	assert_string_equal(fake_msgs[0].key, "rightprotoports");
	assert_non_null(strstr(
		fake_msgs[0].text,
		"leftprotoports entry 1 and rightprotoports entry 2 cannot be one Child SA: protocols 6 and 17 differ"));
}

/* "PRE1POST PRE2POST ... PREnPOST " into buf. */
static void many(char *buf, size_t len, const char *pre, const char *post,
		 unsigned n)
{
	size_t at = 0;

	for (unsigned i = 0; i < n; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%u%s ", pre,
				       i + 1, post);
}

/* A cross product over IKB_CHILD_PLAN_MAX is a config error, not cut. */
static void test_pairs_limit(void **state)
{
	static char l[4096], r[4096];
	const char *pp[] = { "leftprotoports", l, "rightprotoports", r, NULL };
	const char *nets[] = { "leftsubnets", l, "rightsubnets", r, NULL };

	many(l, sizeof(l), "tcp/", "", 2);
	many(r, sizeof(r), "tcp/", "", 128);
	assert_int_equal(fake_check_conn(&fx, pp), 0);
	many(r, sizeof(r), "tcp/", "", 129);
	assert_int_equal(fake_check_conn(&fx, pp), -1);
	assert_int_equal(fake_nmsgs, 1);
	assert_string_equal(fake_msgs[0].key, "rightprotoports");
	assert_non_null(strstr(
		fake_msgs[0].text,
		"leftprotoports (2) and rightprotoports (129) make 258 Child SAs, more than 256: every left entry pairs with every right entry"));

	many(l, sizeof(l), "10.1.", ".0/24", 16);
	many(r, sizeof(r), "10.2.", ".0/24", 16);
	assert_int_equal(fake_check_conn(&fx, nets), 0);
	many(r, sizeof(r), "10.2.", ".0/24", 17);
	assert_int_equal(fake_check_conn(&fx, nets), -1);
	assert_int_equal(
		fake_count(
			IKB_SEV_ERROR,
			"leftsubnets (16) and rightsubnets (17) make 272 Child SAs, more than 256"),
		1);
}

/* IPv4 subnets do not pair with IPv6 ones, in the lists or the core's. */
static void test_pairs_family(void **state)
{
	const char *mixed[] = { "leftsubnets", "10.0.1.0/24", "rightsubnets",
				"2001:db8::/32", NULL };
	const char *left6[] = { "leftsubnets",
				"2001:db8:1::/48 2001:db8:2::/48", NULL };
	static struct ikb_child_plan plan;
	struct ikb_error err = { { 0 } };
	struct ikb_section s;

	assert_int_equal(fake_check_conn(&fx, mixed), -1);
	assert_int_equal(
		fake_count(
			IKB_SEV_ERROR,
			"leftsubnets entry 1 and rightsubnets entry 1 cannot be one Child SA: they mix IPv4 and IPv6"),
		1);
	/* the core's selector for right is IPv4: known when planning */
	memset(&plan, 0, sizeof(plan));
	plan.n = 1;
	plan.left_is_local = true;
	plan.c[0].ts.src = (struct ikb_addr){ AF_INET, { 192, 0, 2, 1 } };
	plan.c[0].ts.dst = (struct ikb_addr){ AF_INET, { 192, 0, 2, 2 } };
	plan.c[0].ts.src_plen = plan.c[0].ts.dst_plen = 32;
	fake_conn(&s, "c", left6);
	assert_int_equal(fake_check_conn(&fx, left6), 0);
	assert_int_equal(fx.p->child->plan(fx.st, &s, &plan, &err), -EINVAL);
	fake_section_free(&s);
	assert_string_equal(
		err.msg,
		"leftsubnets entry 1 and the conn's own right side (no rightsubnets) cannot be one Child SA: they mix IPv4 and IPv6");
}

static void base_plan(struct ikb_child_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	plan->n = 1;
	plan->left_is_local = true;
	/* 192.0.2.0/24 === 10.0.0.0/16 */
	plan->c[0].ts.src = (struct ikb_addr){ AF_INET, { 192, 0, 2, 0 } };
	plan->c[0].ts.dst = (struct ikb_addr){ AF_INET, { 10, 0, 0, 0 } };
	plan->c[0].ts.src_plen = 24;
	plan->c[0].ts.dst_plen = 16;
	plan->c[0].cpu = -1;
}

/* The plan's n entries: tcp, sport and dport each, and no CPU id. */
static void assert_pp(const struct ikb_child_plan *plan, unsigned n,
		      const uint16_t (*ports)[2])
{
	assert_int_equal(plan->n, n);
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(plan->c[i].ts.proto, IPPROTO_TCP);
		assert_int_equal(plan->c[i].ts.sport, ports[i][0]);
		assert_int_equal(plan->c[i].ts.dport, ports[i][1]);
		assert_int_equal(plan->c[i].ts.dst_plen, 16);
		assert_int_equal(plan->c[i].cpu, -1);
	}
}

static void test_plan(void **state)
{
	const char *none[] = { "clones", "4", NULL };
	const char *left[] = { "leftprotoports", "tcp/443 udp/53", NULL };
	const char *both[] = { "leftprotoports", "tcp/1,tcp/2",
			       "rightprotoports", "tcp/3,%any", NULL };
	const char *rest[] = { "rightprotoports", "tcp/5201 udp %any", NULL };
	static struct ikb_child_plan plan;
	struct ikb_error err = { { 0 } };
	struct ikb_section s;

	base_plan(&plan);
	fake_conn(&s, "c", none);
	assert_int_equal(fx.p->child->plan(fx.st, &s, &plan, &err), 0);
	fake_section_free(&s);
	/* the fallback, then clones for CPUs 0..3, all on c[0]'s selectors */
	assert_int_equal(plan.n, 5);
	assert_int_equal(plan.c[0].cpu, -1);
	for (int i = 1; i < 5; i++) {
		assert_int_equal(plan.c[i].cpu, i - 1);
		assert_int_equal(plan.c[i].ts.dst_plen, 16);
	}

	base_plan(&plan);

	fake_conn(&s, "c", left);
	assert_int_equal(fx.p->child->plan(fx.st, &s, &plan, &err), 0);
	fake_section_free(&s);
	assert_int_equal(plan.n, 2);
	assert_int_equal(plan.c[0].ts.proto, IPPROTO_TCP);
	assert_int_equal(plan.c[0].ts.sport, 443);
	assert_int_equal(plan.c[1].ts.proto, IPPROTO_UDP);
	assert_int_equal(plan.c[1].ts.sport, 53);
	assert_int_equal(plan.c[1].ts.dport, 0);
	assert_int_equal(plan.c[1].ts.dst_plen, 16);
	assert_int_equal(plan.c[1].cpu, -1);

	/* 2 x 2: this host's (left's) entries in the outer loop */
	base_plan(&plan);
	fake_conn(&s, "c", both);
	assert_int_equal(fx.p->child->plan(fx.st, &s, &plan, &err), 0);
	fake_section_free(&s);
	assert_pp(&plan, 4,
		  (const uint16_t[][2]){
			  { 1, 3 }, { 1, 0 }, { 2, 3 }, { 2, 0 } });

	/* each entry narrows the core's selector, not the one before */
	base_plan(&plan);
	fake_conn(&s, "c", rest);
	assert_int_equal(fx.p->child->plan(fx.st, &s, &plan, &err), 0);
	fake_section_free(&s);
	assert_int_equal(plan.n, 3);
	assert_int_equal(plan.c[0].ts.proto, IPPROTO_TCP);
	assert_int_equal(plan.c[0].ts.dport, 5201);
	assert_int_equal(plan.c[1].ts.proto, IPPROTO_UDP);
	assert_int_equal(plan.c[1].ts.dport, 0);
	assert_int_equal(plan.c[2].ts.proto, 0);
	assert_int_equal(plan.c[2].ts.sport, 0);
	assert_int_equal(plan.c[2].ts.dport, 0);
	assert_int_equal(plan.c[2].ts.dst_plen, 16);

	/* this host is right: right's ports are src, left's dst */
	base_plan(&plan);
	plan.left_is_local = false;
	fake_conn(&s, "c", both);
	assert_int_equal(fx.p->child->plan(fx.st, &s, &plan, &err), 0);
	fake_section_free(&s);
	/* right's entries in the outer loop, as src */
	assert_pp(&plan, 4,
		  (const uint16_t[][2]){
			  { 3, 1 }, { 3, 2 }, { 0, 1 }, { 0, 2 } });
}

/* 1 x N and N x 1: the one entry (or no list) pairs with every entry. */
static void test_plan_one(void **state)
{
	const char *one_n[] = { "leftprotoports", "tcp/7", "rightprotoports",
				"tcp/1 tcp/2 tcp", NULL };
	const char *n_one[] = { "leftprotoports", "tcp/1 tcp/2",
				"rightprotoports", "tcp/9", NULL };
	const char *nets[] = { "leftsubnets", "10.0.1.0/24", "rightsubnets",
			       "10.0.3.0/24 10.0.4.0/24", NULL };
	static struct ikb_child_plan plan;
	struct ikb_error err = { { 0 } };
	struct ikb_section s;

	base_plan(&plan);
	fake_conn(&s, "c", one_n);
	assert_int_equal(fx.p->child->plan(fx.st, &s, &plan, &err), 0);
	fake_section_free(&s);
	assert_pp(&plan, 3,
		  (const uint16_t[][2]){ { 7, 1 }, { 7, 2 }, { 7, 0 } });

	base_plan(&plan);
	fake_conn(&s, "c", n_one);
	assert_int_equal(fx.p->child->plan(fx.st, &s, &plan, &err), 0);
	fake_section_free(&s);
	assert_pp(&plan, 2, (const uint16_t[][2]){ { 1, 9 }, { 2, 9 } });

	base_plan(&plan);
	fake_conn(&s, "c", nets);
	assert_int_equal(fx.p->child->plan(fx.st, &s, &plan, &err), 0);
	fake_section_free(&s);
	assert_int_equal(plan.n, 2);
	assert_int_equal(plan.c[0].ts.src.bytes[2], 1);
	assert_int_equal(plan.c[0].ts.dst.bytes[2], 3);
	assert_int_equal(plan.c[1].ts.src.bytes[2], 1);
	assert_int_equal(plan.c[1].ts.dst.bytes[2], 4);
}

static void test_subnets_values(void **state)
{
	static const char *const good[] = {
		"10.0.1.0/24 10.0.2.0/24",
		"{10.0.1.0/24,10.0.2.0/24}",
		"{ 10.0.1.0/24, 10.0.2.1 }",
		"2001:db8::/32",
	};
	static const struct {
		const char *v, *why;
	} bad[] = {
		{ "10.0.1.1/24", "10.0.1.1/24: host bits are set" },
		{ "10.0.1.0/33", "10.0.1.0/33: expected a subnet" },
		{ "10.0.0.0/8 2001:db8::/32",
		  "2001:db8::/32: mixes IPv4 and IPv6" },
		{ "west", "west: expected a subnet" },
		{ "{}", "expected a list of subnets" },
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const char *kv[] = { "rightsubnets", good[i], NULL };

		assert_int_equal(fake_check_conn(&fx, kv), 0);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *kv[] = { "leftsubnets", bad[i].v, NULL };

		assert_int_equal(fake_check_conn(&fx, kv), -1);
		assert_int_equal(fake_count(IKB_SEV_ERROR, bad[i].why), 1);
	}
}

/* leftsubnets= goes with neither leftsubnet= nor another multi-SA key */
static void test_subnets_conflicts(void **state)
{
	const char *single[] = { "leftsubnet", "10.0.1.0/24", "leftsubnets",
				 "10.0.2.0/24", NULL };
	const char *pp[] = { "rightsubnets", "10.0.2.0/24", "leftprotoports",
			     "tcp/80", NULL };
	const char *cl[] = { "leftsubnets", "10.0.2.0/24", "clones", "2",
			     NULL };

	assert_int_equal(fake_check_conn(&fx, single), -1);
	assert_int_equal(
		fake_count(IKB_SEV_ERROR,
			   "leftsubnet and leftsubnets cannot both be set"),
		1);
	assert_int_equal(fake_check_conn(&fx, pp), -1);
	assert_int_equal(fake_count(IKB_SEV_ERROR,
				    "cannot be combined with leftprotoports"),
			 1);
	assert_int_equal(fake_check_conn(&fx, cl), -1);
	assert_int_equal(
		fake_count(IKB_SEV_ERROR, "cannot be combined with clones"), 1);
}

static void ip4(struct ikb_addr *a, uint8_t x, uint8_t y, uint8_t z)
{
	*a = (struct ikb_addr){ AF_INET, { x, y, z, 0 } };
}

static void assert_net(const struct ikb_addr *a, uint8_t plen, uint8_t want,
		       uint8_t third)
{
	assert_int_equal(a->family, AF_INET);
	assert_int_equal(a->bytes[2], third);
	assert_int_equal(plen, want);
}

static void test_plan_subnets(void **state)
{
	const char *both[] = { "leftsubnets", "{10.0.1.0/24 10.0.2.0/24}",
			       "rightsubnets", "10.0.3.0/24,10.0.4.0/25",
			       NULL };
	const char *left[] = { "leftsubnets", "10.0.1.0/24 10.0.2.0/24", NULL };
	static struct ikb_child_plan plan;
	struct ikb_error err = { { 0 } };
	struct ikb_section s;

	/* one Child SA per pair, this host's subnets as src */
	base_plan(&plan);
	fake_conn(&s, "c", both);
	assert_int_equal(fx.p->child->plan(fx.st, &s, &plan, &err), 0);
	assert_int_equal(plan.n, 4);
	assert_net(&plan.c[0].ts.src, plan.c[0].ts.src_plen, 24, 1);
	assert_net(&plan.c[0].ts.dst, plan.c[0].ts.dst_plen, 24, 3);
	assert_net(&plan.c[1].ts.src, plan.c[1].ts.src_plen, 24, 1);
	assert_net(&plan.c[1].ts.dst, plan.c[1].ts.dst_plen, 25, 4);
	assert_net(&plan.c[3].ts.src, plan.c[3].ts.src_plen, 24, 2);
	assert_net(&plan.c[3].ts.dst, plan.c[3].ts.dst_plen, 25, 4);
	assert_int_equal(plan.c[3].cpu, -1);
	/* on the right-hand host, rightsubnets are src */
	base_plan(&plan);
	plan.left_is_local = false;
	assert_int_equal(fx.p->child->plan(fx.st, &s, &plan, &err), 0);
	fake_section_free(&s);
	assert_int_equal(plan.n, 4);
	assert_net(&plan.c[1].ts.src, plan.c[1].ts.src_plen, 24, 3);
	assert_net(&plan.c[1].ts.dst, plan.c[1].ts.dst_plen, 24, 2);

	/* the side without a list keeps the core's selector */
	base_plan(&plan);
	ip4(&plan.c[0].ts.src, 192, 0, 2);
	ip4(&plan.c[0].ts.dst, 10, 9, 9);
	plan.c[0].ts.dst_plen = 16;
	plan.left_is_local = false;
	fake_conn(&s, "c", left);
	assert_int_equal(fx.p->child->plan(fx.st, &s, &plan, &err), 0);
	fake_section_free(&s);
	assert_int_equal(plan.n, 2);
	assert_net(&plan.c[0].ts.src, plan.c[0].ts.src_plen, 24, 2);
	assert_net(&plan.c[0].ts.dst, plan.c[0].ts.dst_plen, 24, 1);
	assert_net(&plan.c[1].ts.dst, plan.c[1].ts.dst_plen, 24, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptor),
		cmocka_unit_test(test_clones),
		cmocka_unit_test(test_clones_protoports),
		cmocka_unit_test(test_protoports_values),
		cmocka_unit_test(test_protoport_and_protoports),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_pairs_limit),
		cmocka_unit_test(test_pairs_family),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_plan_one),
		cmocka_unit_test(test_subnets_values),
		cmocka_unit_test(test_subnets_conflicts),
		cmocka_unit_test(test_plan_subnets),
	};

	return cmocka_run_group_tests_name("multi-sa", tests, setup,
					   fake_plugin_close);
}
