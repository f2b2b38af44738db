// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Traps and shunts (trap.c) over kernel-mem: auto=route puts the conn's
 * policies in the kernel with no SA; the kernel's ACQUIRE brings the
 * conn up on them; a Child SA that goes leaves the trap; failureshunt=
 * and shunt conns (type=passthrough|drop) are policies without a
 * template; unroute refuses while a Child SA uses the trap; priority=
 * is every policy's priority, the trap's and the Child SA's.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/ike.h"

/* who's policies of action a, and the reqid of the last of them */
static unsigned pols(struct net *n, int who, enum ikb_policy_action a,
		     uint32_t *reqid)
{
	struct kdump d;
	unsigned k = 0;

	kernel_dump(n, who, &d);
	for (unsigned i = 0; i < d.npol; i++)
		if (d.pol[i].action == a) {
			k++;
			if (reqid)
				*reqid = d.pol[i].reqid;
		}
	return k;
}

static unsigned sas(struct net *n, int who)
{
	struct kdump d;

	kernel_dump(n, who, &d);
	return d.nsa;
}

static bool both_children(struct net *n)
{
	return child_count(n, WEST) == 1 && child_count(n, EAST) == 1;
}

static bool no_children(struct net *n)
{
	return child_count(n, WEST) == 0 && child_count(n, EAST) == 0 &&
	       sas(n, WEST) == 0;
}

static void test_trap_acquire(void **state)
{
	struct net *n = net_new("\tauto=route\n\ttype=tunnel\n"
				"\tleftsubnet=10.1.0.0/16\n"
				"\trightsubnet=10.2.0.0/16\n",
				"\ttype=tunnel\n\tleftsubnet=10.1.0.0/16\n"
				"\trightsubnet=10.2.0.0/16\n",
				NULL, NULL, NULL);
	struct ikb_error err = { "" };
	uint32_t reqid = 0;

	/* the trap: out, in, fwd with the template, and no SA at all */
	assert_int_equal(pols(n, WEST, IKB_POLICY_IPSEC, &reqid), 3);
	assert_int_equal(sas(n, WEST), 0);
	assert_int_equal(ike_sa_count(n, WEST, NULL), 0);

	kernel_acquire(n, WEST, reqid, -1);
	assert_true(net_run(n, both_children, 10000));
	assert_true(log_has("ACQUIRE for"));
	/* the Child SA uses the trap's policies: no second set */
	assert_int_equal(pols(n, WEST, IKB_POLICY_IPSEC, NULL), 3);
	assert_int_equal(sas(n, WEST), 2);
	assert_int_equal(ike_engine_unroute(n->p[WEST].e, "test", &err),
			 -EBUSY);

	/* down: the Child SA goes, the trap stays */
	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, no_children, 10000));
	assert_int_equal(pols(n, WEST, IKB_POLICY_IPSEC, &reqid), 3);

	/* and answers the next packet again */
	kernel_acquire(n, WEST, reqid, -1);
	assert_true(net_run(n, both_children, 10000));

	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, no_children, 10000));
	assert_int_equal(ike_engine_unroute(n->p[WEST].e, "test", &err), 0);
	assert_int_equal(kernel_objects(n, WEST), 0);
	net_free(n);
}

static bool failed_shunt(struct net *n)
{
	return pols(n, WEST, IKB_POLICY_BLOCK, NULL) == 3;
}

/* east refuses: the failure shunt drops the traffic both ways */
static void test_failure_shunt(void **state)
{
	struct net *n = net_new("\tauto=ondemand\n\tfailureshunt=drop\n"
				"\tesp=aes_gcm128\n",
				"\tesp=aes128-sha1\n", NULL, NULL, NULL);
	uint32_t reqid = 0;

	assert_int_equal(pols(n, WEST, IKB_POLICY_IPSEC, &reqid), 3);
	kernel_acquire(n, WEST, reqid, -1);
	assert_true(net_run(n, failed_shunt, 10000));
	assert_int_equal(pols(n, WEST, IKB_POLICY_IPSEC, NULL), 0);
	assert_true(log_has("traffic: drop (failureshunt="));
	net_free(n);
}

static bool trap_back(struct net *n)
{
	return pols(n, WEST, IKB_POLICY_IPSEC, NULL) == 3;
}

static bool passing_failed(struct net *n)
{
	return log_has("traffic: stays passthrough (failureshunt=");
}

/*
 * negotiationshunt=passthrough: the outbound passes while negotiating;
 * failureshunt=passthrough keeps it so after the failure, for
 * shuntlifetime=, and then the trap is back.
 */
static void test_shunt_lifetime(void **state)
{
	struct net *n;
	uint32_t reqid = 0;

	harness_west_setup = "\tshuntlifetime=1s\n";
	n = net_new("\tauto=ondemand\n\tnegotiationshunt=passthrough\n"
		    "\tfailureshunt=passthrough\n\tesp=aes_gcm128\n",
		    "\tesp=aes128-sha1\n", NULL, NULL, NULL);
	harness_west_setup = NULL;
	assert_int_equal(pols(n, WEST, IKB_POLICY_IPSEC, &reqid), 3);
	kernel_acquire(n, WEST, reqid, -1);
	/* both ways: the answers to what passes come in clear */
	assert_int_equal(pols(n, WEST, IKB_POLICY_PASS, NULL), 3);
	assert_true(log_has("traffic: passthrough (negotiationshunt="));
	assert_true(net_run(n, passing_failed, 10000));
	assert_int_equal(pols(n, WEST, IKB_POLICY_PASS, NULL), 3);
	assert_true(net_run(n, trap_back, 5000));
	assert_true(log_has("traffic: trap (shuntlifetime= is over)"));
	net_free(n);
}

/* A shunt conn: no IKE, policies that pass or drop, never negotiated. */
static void test_shunt_conns(void **state)
{
	struct ikb_error err = { "" };
	struct net *n =
		net_new("conn clear\n\tleft=192.0.2.1\n\tright=192.0.2.9\n"
			"\ttype=passthrough\n\tauthby=never\n\tauto=route\n"
			"conn block\n\tleft=192.0.2.1\n\tright=192.0.2.8\n"
			"\ttype=drop\n\tauthby=never\n\tauto=route\n",
			NULL, NULL, NULL, NULL);
	assert_int_equal(pols(n, WEST, IKB_POLICY_PASS, NULL), 3);
	assert_int_equal(pols(n, WEST, IKB_POLICY_BLOCK, NULL), 3);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "clear", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "is a shunt"));
	assert_int_equal(ike_engine_unroute(n->p[WEST].e, "block", &err), 0);
	assert_int_equal(pols(n, WEST, IKB_POLICY_BLOCK, NULL), 0);
	assert_int_equal(ike_engine_route(n->p[WEST].e, "block", &err), 0);
	assert_int_equal(pols(n, WEST, IKB_POLICY_BLOCK, NULL), 3);
	net_free(n);
}

/* How many of who's policies have priority prio. */
static unsigned prio_count(struct net *n, int who, uint32_t prio)
{
	struct kdump d;
	unsigned k = 0;

	kernel_dump(n, who, &d);
	for (unsigned i = 0; i < d.npol; i++)
		k += d.pol[i].priority == prio;
	return k;
}

static void test_priority(void **state)
{
	struct net *n = net_new("\tauto=route\n\ttype=tunnel\n"
				"\tleftsubnet=10.1.0.0/16\n"
				"\trightsubnet=10.2.0.0/16\n\tpriority=1234\n"
				"conn clear\n\tleft=192.0.2.1\n"
				"\tright=192.0.2.9\n\ttype=passthrough\n"
				"\tauthby=never\n\tauto=route\n"
				"\tpriority=77\n",
				"\ttype=tunnel\n\tleftsubnet=10.1.0.0/16\n"
				"\trightsubnet=10.2.0.0/16\n",
				NULL, NULL, NULL);
	uint32_t reqid = 0;
	struct kdump d;

	/* the trap and the shunt: priority= as given */
	assert_int_equal(prio_count(n, WEST, 1234), 3);
	assert_int_equal(prio_count(n, WEST, 77), 3);
	pols(n, WEST, IKB_POLICY_IPSEC, &reqid);
	kernel_acquire(n, WEST, reqid, -1);
	assert_true(net_run(n, both_children, 10000));
	/* the Child SA's policies too; east has its own, by selector */
	assert_int_equal(prio_count(n, WEST, 1234), 3);
	kernel_dump(n, EAST, &d);
	assert_int_equal(d.npol, 3);
	assert_int_equal(prio_count(n, EAST, 1234), 0);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_trap_acquire, net_cleanup),
		cmocka_unit_test_teardown(test_failure_shunt, net_cleanup),
		cmocka_unit_test_teardown(test_shunt_conns, net_cleanup),
		cmocka_unit_test_teardown(test_shunt_lifetime, net_cleanup),
		cmocka_unit_test_teardown(test_priority, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
