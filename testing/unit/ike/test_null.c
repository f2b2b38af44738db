// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NULL authentication (RFC 7619) between two engines: authby=null with
 * ID_NULL (leftid=%null, or no leftid= at all); one end anonymous and the
 * other proving itself with a PSK (leftauth=null, rightauth=secret); and
 * the refusal of a NULL AUTH by a conn that wants a PSK, with no SA in
 * either kernel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"

#define ENDS "\tleft=192.0.2.1\n\tright=192.0.2.2\n"

static void up(struct net *n, const char *conn)
{
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, conn, &err), 0);
}

static bool null_up(struct net *n)
{
	return ike_sa_count(n, WEST, "established") == 1 &&
	       ike_sa_count(n, EAST, "established") == 1 &&
	       child_count(n, WEST) == 1 && child_count(n, EAST) == 1;
}

static void want_str(struct net *n, int who, const char *key, const char *want)
{
	char buf[256];

	assert_string_equal(status_str(n, who, false, key, buf, sizeof(buf)),
			    want);
}

static void want_kernel_sas(struct net *n)
{
	struct kdump d;

	for (int who = WEST; who <= EAST; who++) {
		kernel_dump(n, who, &d);
		assert_int_equal(kdump_count(&d, IKB_DIR_IN), 1);
		assert_int_equal(kdump_count(&d, IKB_DIR_OUT), 1);
	}
}

/* Both anonymous: ID_NULL either way, and SAs like any others. */
static void both_null(const char *body)
{
	struct net *n = net_new(body, NULL, NULL, NULL, NULL);

	up(n, "anon");
	assert_true(net_run(n, null_up, 10000));
	for (int who = WEST; who <= EAST; who++) {
		want_str(n, who, "local_id", "%null");
		want_str(n, who, "remote_id", "%null");
		want_str(n, who, "peer_auth", "NULL");
	}
	want_kernel_sas(n);
	assert_true(log_has("IKE SA established with %null (NULL)"));
	net_free(n);
}

static void test_null_explicit_ids(void **state)
{
	both_null("conn anon\n" ENDS "\tleftid=%null\n\trightid=%null\n"
		  "\tauthby=null\n");
}

/* No leftid=: an end that proves nothing sends ID_NULL, not its address. */
static void test_null_default_ids(void **state)
{
	both_null("conn anon\n" ENDS "\tauthby=null\n");
}

/*
 * West anonymous (leftauth=null), east proves itself with the PSK: each
 * AUTH payload has its own method, and each end checks the other's.
 */
static void test_null_one_way(void **state)
{
	struct net *n = net_new("conn anon\n" ENDS "\tleftid=@west\n"
				"\trightid=@east\n\tleftauth=null\n"
				"\trightauth=secret\n",
				NULL, NULL, NULL, NULL);

	up(n, "anon");
	assert_true(net_run(n, null_up, 10000));
	want_str(n, WEST, "peer_auth", "PSK");
	want_str(n, EAST, "peer_auth", "NULL");
	want_str(n, EAST, "remote_id", "@west");
	want_kernel_sas(n);
	net_free(n);
}

static bool west_gave_up(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0;
}

/* East wants west's PSK: a NULL AUTH is refused, and no SA goes in. */
static void test_null_refused(void **state)
{
	struct net *n = net_new("conn anon\n" ENDS "\tauthby=null\n",
				"conn anon\n" ENDS "\tleftid=%any\n"
				"\tleftauth=secret\n\trightauth=null\n",
				NULL, NULL, NULL);

	up(n, "anon");
	assert_true(net_run(n, west_gave_up, 10000));
	assert_true(log_has(
		"peer %null used NULL authentication (AUTH method 13, RFC 7619), "
		"which proves no identity, but the conn wants a PSK (authby=secret)"));
	assert_true(log_has("peer answered AUTHENTICATION_FAILED"));
	assert_int_equal(ike_sa_count(n, EAST, "established"), 0);
	assert_int_equal(kernel_objects(n, WEST), 0);
	assert_int_equal(kernel_objects(n, EAST), 0);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_null_explicit_ids, net_cleanup),
		cmocka_unit_test_teardown(test_null_default_ids, net_cleanup),
		cmocka_unit_test_teardown(test_null_one_way, net_cleanup),
		cmocka_unit_test_teardown(test_null_refused, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-null", tests, NULL, NULL);
}
