// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * leftsourceip= (daemon/ike/child/sourceip.c) over kernel-mem and the fake
 * routes of hsrcroute.c: the Child SA's coming adds the route to the
 * peer's subnet (and the address, which the host lacks), a rekey keeps
 * it without a gap, and the end removes both.
 */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"

#define SUBNETS                                                 \
	"\tleftsubnet=10.1.0.0/24\n\trightsubnet=10.2.0.0/24\n" \
	"\tleftsourceip=10.1.0.1\n\trightsourceip=10.2.0.1\n"   \
	"\tipsec-lifetime=1h\n\tikelifetime=1h\n"

static const struct hsrc_route *route_of(int who)
{
	const struct hsrc_route *r = hsrc_routes();

	for (int i = 0; i < HSRC_MAX; i++)
		if (r[i].used && r[i].who == who)
			return &r[i];
	return NULL;
}

static void assert_route(int who, const char *src, const char *net,
			 const char *peer)
{
	const struct hsrc_route *r = route_of(who);
	char a[INET6_ADDRSTRLEN];

	assert_non_null(r);
	assert_string_equal(inet_ntop(AF_INET, r->r.src.bytes, a, sizeof(a)),
			    src);
	assert_string_equal(inet_ntop(AF_INET, r->r.net.bytes, a, sizeof(a)),
			    net);
	assert_int_equal(r->r.plen, 24);
	assert_string_equal(inet_ntop(AF_INET, r->r.peer.bytes, a, sizeof(a)),
			    peer);
	/* neither host has the address: it is added */
	assert_true(r->addr_added);
}

static bool rekeyed(struct net *n)
{
	return child_count(n, WEST) == 1 && child_count(n, EAST) == 1 &&
	       log_has("Child SA deleted");
}

static bool all_gone(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0 &&
	       ike_sa_count(n, EAST, NULL) == 0;
}

static void test_route_lifecycle(void **state)
{
	struct ikb_error err = { "" };
	struct net *n;
	struct kdump w;

	hsrc_reset();
	n = net_new(SUBNETS, NULL, NULL, NULL, NULL);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	/* each host routes the other's subnet with its own source address */
	assert_int_equal(hsrc_count(WEST), 1);
	assert_int_equal(hsrc_count(EAST), 1);
	assert_route(WEST, "10.1.0.1", "10.2.0.0", "192.0.2.2");
	assert_route(EAST, "10.2.0.1", "10.1.0.0", "192.0.2.1");
	assert_true(log_has("route 10.2.0.0/24 src 10.1.0.1 (address added)"));

	/* a rekey: the successor is up first, the route never goes */
	kernel_dump(n, WEST, &w);
	kernel_expire(n, WEST, kdump_sa(&w, IKB_DIR_OUT), false);
	assert_true(net_run(n, rekeyed, 5000));
	assert_int_equal(hsrc_dels, 0);
	assert_int_equal(hsrc_adds, 2);
	assert_int_equal(hsrc_count(WEST), 1);

	/* down: routes and addresses go on both */
	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, all_gone, 5000));
	assert_int_equal(hsrc_count(WEST), 0);
	assert_int_equal(hsrc_count(EAST), 0);
	assert_int_equal(hsrc_addr_dels, 2);
	net_free(n);
}

/* The host has the address already: the route only, and it stays put. */
static void test_address_local(void **state)
{
	struct ikb_error err = { "" };
	struct net *n;

	hsrc_reset();
	n = net_new("\tleftsubnet=192.0.2.0/24\n\trightsubnet=10.2.0.0/24\n"
		    "\tleftsourceip=192.0.2.1\n",
		    NULL, NULL, NULL, NULL);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	assert_int_equal(hsrc_count(WEST), 1);
	assert_false(route_of(WEST)->addr_added);
	/* east is right, and has no rightsourceip= */
	assert_int_equal(hsrc_count(EAST), 0);
	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, all_gone, 5000));
	assert_int_equal(hsrc_count(WEST), 0);
	assert_int_equal(hsrc_addr_dels, 0);
	net_free(n);
}

/*
 * libreswan 5's two addresses, the IPv6 one first: the IPv4 conn routes
 * with the IPv4 one. Before, the conn held a single address.
 */
static void test_two_families(void **state)
{
	struct ikb_error err = { "" };
	struct net *n;

	hsrc_reset();
	n = net_new("\tleftsubnet=10.1.0.0/24\n\trightsubnet=10.2.0.0/24\n"
		    "\tleftsourceip=2001:db8:1::1,10.1.0.1\n"
		    "\trightsourceip=10.2.0.1,2001:db8:2::1\n",
		    NULL, NULL, NULL, NULL);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	assert_route(WEST, "10.1.0.1", "10.2.0.0", "192.0.2.2");
	assert_route(EAST, "10.2.0.1", "10.1.0.0", "192.0.2.1");
	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, all_gone, 5000));
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_route_lifecycle, net_cleanup),
		cmocka_unit_test_teardown(test_address_local, net_cleanup),
		cmocka_unit_test_teardown(test_two_families, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
