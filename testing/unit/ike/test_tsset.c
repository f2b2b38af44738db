// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Several selectors in one Child SA (leftsubnet=A,B, libreswan 5): one SA
 * pair with policies for every pair of prefixes, narrowed as RFC 7296
 * 2.9 says when the peer takes fewer, kept across a rekey.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/msg/msg.h"

#define WEST_NETS                                                    \
	"\ttype=tunnel\n\tleftsubnet=\"10.1.0.0/24, 10.3.0.0/24\"\n" \
	"\trightsubnet=10.2.0.0/24\n"

static struct net *up(const char *east)
{
	struct net *n = net_new(WEST_NETS, east, NULL, NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	return n;
}

static unsigned sas(struct net *n, int who)
{
	struct kdump d;

	kernel_dump(n, who, &d);
	return d.nsa;
}

static unsigned pols(struct net *n, int who)
{
	struct kdump d;

	kernel_dump(n, who, &d);
	return d.npol;
}

/* who's policy out of src/plen, or NULL */
static bool has_out(struct net *n, int who, const char *src, uint8_t plen)
{
	struct kdump d;
	char buf[64];

	kernel_dump(n, who, &d);
	for (unsigned i = 0; i < d.npol; i++)
		if (d.pol[i].dir == IKB_DIR_OUT &&
		    d.pol[i].sel.src_plen == plen &&
		    !strcmp(addr_str(&d.pol[i].sel.src, buf, sizeof(buf)), src))
			return true;
	return false;
}

static void test_two_subnets(void **state)
{
	struct net *n = up(WEST_NETS); /* the same conn: left is west */
	char buf[128];

	assert_true(net_run(n, both_up, 10000));
	/* one Child SA: two SAs per host, policies of both pairs */
	assert_int_equal(child_count(n, WEST), 1);
	assert_int_equal(sas(n, WEST), 2);
	assert_int_equal(sas(n, EAST), 2);
	assert_int_equal(pols(n, WEST), 6);
	assert_int_equal(pols(n, EAST), 6);
	assert_true(has_out(n, WEST, "10.1.0.0", 24));
	assert_true(has_out(n, WEST, "10.3.0.0", 24));
	assert_string_equal(
		status_str(n, WEST, true, "ts_local", buf, sizeof(buf)),
		"10.1.0.0/24,10.3.0.0/24");
	assert_string_equal(
		status_str(n, EAST, true, "ts_remote", buf, sizeof(buf)),
		"10.1.0.0/24,10.3.0.0/24");
	net_free(n);
}

/* east takes one of west's subnets: narrowed to it, one pair */
static void test_narrowed(void **state)
{
	struct net *n = up("\ttype=tunnel\n\tleftsubnet=10.3.0.0/24\n"
			   "\trightsubnet=10.2.0.0/24\n");
	char buf[128];

	assert_true(net_run(n, both_up, 10000));
	assert_int_equal(pols(n, WEST), 3);
	assert_true(has_out(n, WEST, "10.3.0.0", 24));
	assert_false(has_out(n, WEST, "10.1.0.0", 24));
	assert_string_equal(
		status_str(n, WEST, true, "ts_local", buf, sizeof(buf)),
		"10.3.0.0/24");
	net_free(n);
}

static bool rekeyed(struct net *n)
{
	return log_has("Child SA rekeyed") && child_count(n, WEST) == 1 &&
	       child_count(n, EAST) == 1 && sas(n, WEST) == 2;
}

/* the rekey keeps every pair's policies, and the set */
static void test_rekey_keeps_set(void **state)
{
	struct net *n = up(WEST_NETS); /* the same conn: left is west */
	struct kdump w;
	char buf[128];

	assert_true(net_run(n, both_up, 10000));
	log_reset();
	kernel_dump(n, WEST, &w);
	kernel_expire(n, WEST, kdump_sa(&w, IKB_DIR_IN), false);
	assert_true(net_run(n, rekeyed, 10000));
	assert_int_equal(pols(n, WEST), 6);
	assert_int_equal(pols(n, EAST), 6);
	assert_string_equal(
		status_str(n, WEST, true, "ts_local", buf, sizeof(buf)),
		"10.1.0.0/24,10.3.0.0/24");
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_two_subnets, net_cleanup),
		cmocka_unit_test_teardown(test_narrowed, net_cleanup),
		cmocka_unit_test_teardown(test_rekey_keeps_set, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
