// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * keyingtries= (daemon/ike/retry.c): an auto=start conn whose initiation
 * fails is tried again, up to the limit or forever; `ikebana up` is not,
 * and `ikebana down` ends the retries.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "harness.h"

#define FAST \
	"\tauto=start\n\tretransmit-interval=10\n\tretransmit-timeout=100ms\n"

/* drops everything while *(bool *)n->filter_ctx */
static unsigned blackhole(struct net *n, int from, unsigned seq,
			  const uint8_t *buf, size_t len)
{
	return *(bool *)n->filter_ctx ? 0 : 1;
}

static struct net *dead_peer(const char *conn, bool *drop)
{
	struct net *n = net_new(conn, NULL, NULL, NULL, NULL);

	*drop = true;
	n->filter = blackhole;
	n->filter_ctx = drop;
	return n;
}

static bool gave_up(struct net *n)
{
	return log_has("giving up after 3 attempts");
}

static void test_limit(void **state)
{
	bool drop;
	struct net *n = dead_peer(FAST "\tkeyingtries=3\n", &drop);

	ike_engine_start_auto(n->p[WEST].e);
	assert_true(net_run(n, gave_up, 5000));
	assert_true(log_has("attempt 2 of 3 in 10 ms"));
	assert_true(log_has("attempt 3 of 3 in 20 ms"));
	assert_false(log_has("attempt 4"));
	assert_int_equal(ike_sa_count(n, WEST, NULL), 0);
	assert_int_equal(kernel_objects(n, WEST), 0);
	net_free(n);
}

static bool second_attempt(struct net *n)
{
	return log_has("attempt 2 of %forever");
}

/* the default, as libreswan's: a peer that comes up later is reached */
static void test_forever_recovers(void **state)
{
	bool drop;
	struct net *n = dead_peer(FAST, &drop);

	ike_engine_start_auto(n->p[WEST].e);
	assert_true(net_run(n, second_attempt, 5000));
	drop = false;
	assert_true(net_run(n, both_up, 5000));
	net_free(n);
}

/* `ikebana up` fails once: the caller was told */
static void test_up_not_retried(void **state)
{
	bool drop;
	struct net *n = dead_peer(FAST, &drop);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_false(net_run(n, second_attempt, 1000));
	assert_true(log_has("no response to message 0"));
	assert_int_equal(ike_sa_count(n, WEST, NULL), 0);
	net_free(n);
}

static bool third_attempt(struct net *n)
{
	return log_has("attempt 3 of %forever");
}

/* `ikebana down` between two attempts ends them */
static void test_down_cancels(void **state)
{
	bool drop;
	struct net *n = dead_peer(FAST, &drop);
	struct ikb_error err = { "" };

	ike_engine_start_auto(n->p[WEST].e);
	assert_true(net_run(n, second_attempt, 5000));
	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_false(net_run(n, third_attempt, 1000));
	assert_int_equal(ike_sa_count(n, WEST, NULL), 0);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_limit, net_cleanup),
		cmocka_unit_test_teardown(test_forever_recovers, net_cleanup),
		cmocka_unit_test_teardown(test_up_not_retried, net_cleanup),
		cmocka_unit_test_teardown(test_down_cancels, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
