// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NULL authentication (RFC 7619) between two engines: authby=null with
 * ID_NULL (leftid=%null, or no leftid= at all); one end anonymous and the
 * other proving itself with a PSK (leftauth=null, rightauth=secret); and
 * the refusal of a NULL AUTH by a conn that wants a PSK, with no SA in
 * either kernel. An initiator with authby=null sends libreswan's
 * "Opportunistic IPsec" Vendor ID, which drop-oppo-null=yes drops.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/msg/msg.h"
#include "wire/wire.h"

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

/* Whether who's recorded IKE_SA_INIT request carries the OE Vendor ID. */
static bool init_has_oe_vid(struct net *n, int who)
{
	struct wire_msg *m = calloc(1, sizeof(*m));
	struct wire_error err;
	bool found = false, seen = false;

	assert_non_null(m);
	for (unsigned i = 0; i < n->nrec; i++) {
		const struct hdgram *d = &n->rec[i];

		if (d->from != who ||
		    !dgram_is(d->buf, d->len, WIRE_EXCH_IKE_SA_INIT, false))
			continue;
		assert_int_equal(wire_parse(m, d->buf, d->len, NULL, &err), 0);
		found = oe_vid_in(m);
		seen = true;
		break;
	}
	free(m);
	assert_true(seen);
	return found;
}

static bool east_sent_init(struct net *n)
{
	return n->p[EAST].sent > 0 &&
	       log_has("Vendor ID \"Opportunistic IPsec\"): drop-oppo-null=yes");
}

static void up_east(struct net *n, const char *conn)
{
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[EAST].e, conn, &err), 0);
}

/*
 * East (initiating, authby=null) sends the Vendor ID; west, with
 * drop-oppo-null=yes, drops the request: no answer, no state at all.
 */
static void test_null_drop_oppo(void **state)
{
	struct net *n;

	harness_west_setup = "config setup\n\tdrop-oppo-null=yes\n";
	n = net_new("conn anon\n" ENDS "\tauthby=null\n", NULL, NULL, NULL,
		    NULL);
	harness_west_setup = NULL;
	up_east(n, "anon");
	assert_true(net_run(n, east_sent_init, 10000));
	assert_true(init_has_oe_vid(n, EAST));
	assert_int_equal(n->p[WEST].sent, 0);
	assert_int_equal(ike_sa_count(n, WEST, NULL), 0);
	assert_int_equal(kernel_objects(n, WEST), 0);
	net_free(n);
}

/* Without the key, the same request is answered and the SAs come up. */
static void test_null_oppo_answered(void **state)
{
	struct net *n = net_new("conn anon\n" ENDS "\tauthby=null\n", NULL,
				NULL, NULL, NULL);

	up_east(n, "anon");
	assert_true(net_run(n, null_up, 10000));
	assert_true(init_has_oe_vid(n, EAST));
	net_free(n);
}

/* drop-oppo-null=yes leaves a PSK conn alone: no Vendor ID is sent. */
static void test_null_drop_oppo_psk(void **state)
{
	struct net *n;

	harness_west_setup = "config setup\n\tdrop-oppo-null=yes\n";
	n = net_new("conn psk\n" ENDS "\tleftid=@west\n\trightid=@east\n"
		    "\tauthby=secret\n",
		    NULL, NULL, NULL, NULL);
	harness_west_setup = NULL;
	up_east(n, "psk");
	assert_true(net_run(n, null_up, 10000));
	assert_false(init_has_oe_vid(n, EAST));
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_null_explicit_ids, net_cleanup),
		cmocka_unit_test_teardown(test_null_default_ids, net_cleanup),
		cmocka_unit_test_teardown(test_null_one_way, net_cleanup),
		cmocka_unit_test_teardown(test_null_refused, net_cleanup),
		cmocka_unit_test_teardown(test_null_drop_oppo, net_cleanup),
		cmocka_unit_test_teardown(test_null_oppo_answered, net_cleanup),
		cmocka_unit_test_teardown(test_null_drop_oppo_psk, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-null", tests, NULL, NULL);
}
