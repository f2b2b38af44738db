// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pacing of our own initiations (daemon/ike/opening.c): of 40 conns
 * brought up at once against a peer that answers nothing, 32 send their
 * IKE_SA_INIT and 8 wait as "queued"; one going down lets the next
 * queued one start, a queued one going down starts nothing and leaves
 * the queue; and a first retransmit gives the place up, so that a dead
 * peer holds the others back for one retransmit-interval only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"

#define NCONNS 40 /* "test" and p1 .. p39 */
#define PACED 32 /* OPENING_MAX */

static unsigned inits; /* IKE_SA_INIT requests west sent (and we dropped) */

static unsigned drop_west_inits(struct net *n, int from, unsigned seq,
				const uint8_t *buf, size_t len)
{
	if (from == WEST && dgram_is(buf, len, 34, false)) {
		inits++;
		return 0;
	}
	return 1;
}

/* West's conns: "test" (the harness's) with interval, and p1 .. p39. */
static char *conns(const char *interval)
{
	size_t cap = 64 + NCONNS * 160, len;
	char *s = malloc(cap);

	assert_non_null(s);
	len = (size_t)snprintf(s, cap, "\tretransmit-interval=%s\n", interval);
	for (int i = 1; i < NCONNS; i++)
		len += (size_t)snprintf(
			s + len, cap - len,
			"\nconn p%d\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
			"\tleftid=@west\n\trightid=@east\n\tauthby=secret\n"
			"\tretransmit-interval=%s\n",
			i, interval);
	return s;
}

static struct net *all_up(const char *interval)
{
	char *c = conns(interval), name[16];
	struct net *n = net_new(c, NULL, NULL, NULL, NULL);
	struct ikb_error err = { "" };

	free(c);
	inits = 0;
	n->filter = drop_west_inits;
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	for (int i = 1; i < NCONNS; i++) {
		snprintf(name, sizeof(name), "p%d", i);
		assert_int_equal(ike_engine_up(n->p[WEST].e, name, &err), 0);
	}
	return n;
}

static bool inits_paced(struct net *n)
{
	return inits >= PACED;
}

static bool inits_33(struct net *n)
{
	return inits >= PACED + 1;
}

static bool inits_34(struct net *n)
{
	return inits >= PACED + 2;
}

static void test_paced(void **state)
{
	struct net *n = all_up("10000");
	struct ikb_error err = { "" };

	assert_true(net_run(n, inits_paced, 5000));
	/* nothing answers, nothing retransmits within 10 s: no more start */
	assert_false(net_run(n, inits_33, 300));
	assert_int_equal(inits, PACED);
	assert_int_equal(ike_sa_count(n, WEST, "queued"), NCONNS - PACED);
	assert_int_equal(ike_sa_count(n, WEST, NULL), NCONNS);

	/* "test" was first, so it is in flight: its place goes to p32 */
	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, inits_33, 5000));
	assert_int_equal(ike_sa_count(n, WEST, "queued"), NCONNS - PACED - 1);

	/* p39, the last queued, leaves the queue and starts nothing */
	assert_int_equal(ike_engine_down(n->p[WEST].e, "p39", &err), 0);
	assert_int_equal(ike_sa_count(n, WEST, "queued"), NCONNS - PACED - 2);
	assert_false(net_run(n, inits_34, 300));
	assert_int_equal(inits, PACED + 1);
	assert_int_equal(ike_sa_count(n, WEST, NULL), NCONNS - 2);
	net_free(n);
}

static bool none_queued(struct net *n)
{
	return ike_sa_count(n, WEST, "queued") == 0;
}

static void test_retransmit_frees(void **state)
{
	struct net *n = all_up("50");

	/* without giving places up at a retransmit, 8 would wait 60 s */
	assert_true(net_run(n, none_queued, 5000));
	assert_true(log_has("retransmitting message 0"));
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_paced, net_cleanup),
		cmocka_unit_test_teardown(test_retransmit_frees, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-opening", tests, NULL, NULL);
}
