// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NAT traversal (RFC 7296 §2.23, RFC 3948) between two engines, west
 * behind a NAT that east sees as 203.0.113.9 with every port + 10000:
 * both find it, IKE moves to 4500, the SAs are ESP in UDP on the mapped
 * ports, transport mode installs the NAT's address and keeps west's own
 * on the wire, west keeps the mapping alive, and east follows west when
 * the NAT maps it anew (an IKE message, or the kernel's MAPPING). Without
 * a NAT, encapsulation=yes forces it, encapsulation=no turns it off, and
 * a right=%any transport responder takes the initiator's own address.
 */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/path/path.h"

#define TRANSPORT "\ttype=transport\n"
#define TUNNEL "\tleftsubnet=10.1.0.0/16\n\trightsubnet=10.2.0.0/16\n"

static void addr_is(const struct ikb_addr *a, const char *want)
{
	char got[INET6_ADDRSTRLEN];

	assert_non_null(inet_ntop(a->family, a->bytes, got, sizeof(got)));
	assert_string_equal(got, want);
}

static struct net *nat_net(const char *conn, const char *west_setup)
{
	harness_nat = true;
	harness_west_setup = west_setup;
	return net_new(conn, NULL, NULL, NULL, NULL);
}

static struct ike_sa *sa_of(struct net *n, int who)
{
	assert_non_null(n->p[who].e->all);
	return n->p[who].e->all;
}

static void up(struct net *n)
{
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 10000));
}

static void encap_is(const struct ikb_sa *sa, uint16_t sport, uint16_t dport)
{
	assert_non_null(sa);
	assert_int_equal(sa->encap_sport, sport);
	assert_int_equal(sa->encap_dport, dport);
}

static const struct ikb_policy *policy_of(const struct kdump *d,
					  enum ikb_dir dir)
{
	for (unsigned i = 0; i < d->npol; i++)
		if (d->pol[i].dir == dir)
			return &d->pol[i];
	fail_msg("no policy of direction %d", (int)dir);
	return NULL;
}

/* Both ends see the NAT on west's side, and IKE moves to 4500. */
static void found_on_west(struct net *n)
{
	struct ike_sa *w = sa_of(n, WEST), *e = sa_of(n, EAST);

	assert_non_null(w->nat);
	assert_non_null(e->nat);
	assert_true(w->nat->local && !w->nat->remote && w->nat->encap);
	assert_true(e->nat->remote && !e->nat->local && e->nat->encap);
	assert_int_equal(w->path.lport, 4500);
	assert_int_equal(w->path.rport, 4500);
	assert_int_equal(e->path.lport, 4500);
	assert_int_equal(e->path.rport, 14500);
	addr_is(&e->path.remote, "203.0.113.9");
}

static void test_transport(void **state)
{
	struct net *n = nat_net(TRANSPORT, NULL);
	struct kdump d;
	const struct ikb_policy *p;

	up(n);
	found_on_west(n);
	kernel_dump(n, WEST, &d);
	encap_is(kdump_sa(&d, IKB_DIR_OUT), 4500, 4500);
	encap_is(kdump_sa(&d, IKB_DIR_IN), 4500, 4500);
	addr_is(&policy_of(&d, IKB_DIR_OUT)->sel.src, "192.0.2.1");
	kernel_dump(n, EAST, &d);
	encap_is(kdump_sa(&d, IKB_DIR_OUT), 4500, 14500);
	encap_is(kdump_sa(&d, IKB_DIR_IN), 14500, 4500);
	addr_is(&kdump_sa(&d, IKB_DIR_OUT)->dst, "203.0.113.9");
	addr_is(&kdump_sa(&d, IKB_DIR_IN)->sel.src, "203.0.113.9");
	/* the kernel sees the NAT's address, the wire west's own */
	p = policy_of(&d, IKB_DIR_OUT);
	addr_is(&p->sel.dst, "203.0.113.9");
	addr_is(&p->tmpl_dst, "203.0.113.9");
	addr_is(&sa_of(n, EAST)->children->ts.dst, "192.0.2.1");
	net_free(n);
}

static void test_tunnel(void **state)
{
	struct net *n = nat_net(TUNNEL, NULL);
	struct kdump d;
	const struct ikb_policy *p;

	up(n);
	found_on_west(n);
	kernel_dump(n, EAST, &d);
	encap_is(kdump_sa(&d, IKB_DIR_OUT), 4500, 14500);
	p = policy_of(&d, IKB_DIR_OUT);
	addr_is(&p->sel.dst, "10.1.0.0");
	addr_is(&p->tmpl_dst, "203.0.113.9");
	net_free(n);
}

static bool west_kept_alive(struct net *n)
{
	return n->p[WEST].keepalives >= 2;
}

/* keep-alive=1: one per idle second from west, none from east. */
static void test_keepalive(void **state)
{
	struct net *n = nat_net(TRANSPORT, "\tkeep-alive=1\n");
	char buf[32];

	up(n);
	assert_true(net_run(n, west_kept_alive, 5000));
	assert_int_equal(n->p[EAST].keepalives, 0);
	assert_true(sa_of(n, WEST)->nat->keepalives >= 2);
	assert_non_null(status_str(n, WEST, false, "nat.keepalives_sent", buf,
				   sizeof(buf)));
	net_free(n);
}

static bool never(struct net *n)
{
	return false;
}

/* nat-keepalive=no: none, however long the path is idle. */
static void test_no_keepalive(void **state)
{
	struct net *n =
		nat_net(TRANSPORT "\tnat-keepalive=no\n", "\tkeep-alive=1\n");

	up(n);
	net_run(n, never, 2500);
	assert_int_equal(n->p[WEST].keepalives, 0);
	net_free(n);
}

static bool east_followed(struct net *n)
{
	const struct ike_sa *e = n->p[EAST].e->all;

	return e && e->path.rport == 24500 && e->nat->mappings == 1 &&
	       n->p[WEST].e->all->x == NULL;
}

/*
 * The NAT forgets west and maps it to other ports: west's next request
 * moves east's IKE SA and SAs there, and the answer reaches west.
 */
static void test_new_mapping(void **state)
{
	struct net *n = nat_net(TRANSPORT, NULL);
	struct ike_sa *w;
	struct kdump d;

	up(n);
	n->nat_off = 20000;
	w = sa_of(n, WEST);
	task_want(w, TASK_DPD);
	tasks_schedule(w);
	assert_true(net_run(n, east_followed, 5000));
	assert_int_equal(n->nat_lost, 0);
	kernel_dump(n, EAST, &d);
	encap_is(kdump_sa(&d, IKB_DIR_OUT), 4500, 24500);
	encap_is(kdump_sa(&d, IKB_DIR_IN), 24500, 4500);
	assert_int_equal(ike_sa_count(n, EAST, "established"), 1);
	net_free(n);
}

/* The kernel saw west's ESP arrive from a new address and port. */
static void test_kernel_mapping(void **state)
{
	struct net *n = nat_net(TRANSPORT, NULL);
	struct ike_sa *e;
	struct kdump d;
	unsigned npol;

	up(n);
	kernel_dump(n, EAST, &d);
	npol = d.npol;
	kernel_mapping(n, EAST, kdump_sa(&d, IKB_DIR_IN), "203.0.113.10",
		       31000);
	e = sa_of(n, EAST);
	addr_is(&e->path.remote, "203.0.113.10");
	assert_int_equal(e->path.rport, 31000);
	assert_int_equal(e->nat->mappings, 1);
	kernel_dump(n, EAST, &d);
	assert_int_equal(d.npol, npol);
	addr_is(&kdump_sa(&d, IKB_DIR_OUT)->dst, "203.0.113.10");
	encap_is(kdump_sa(&d, IKB_DIR_OUT), 4500, 31000);
	addr_is(&kdump_sa(&d, IKB_DIR_IN)->src, "203.0.113.10");
	addr_is(&policy_of(&d, IKB_DIR_OUT)->sel.dst, "203.0.113.10");
	addr_is(&policy_of(&d, IKB_DIR_IN)->sel.src, "203.0.113.10");
	/* it checks that west is there: a liveness request goes out */
	assert_true(task_queued(e, TASK_DPD) || e->x);
	net_free(n);
}

/* Without a NAT a MAPPING is not followed. */
static void test_mapping_without_nat(void **state)
{
	struct net *n;
	struct kdump d;

	harness_west_setup = NULL;
	n = net_new(TRANSPORT, NULL, NULL, NULL, NULL);
	up(n);
	assert_null(sa_of(n, EAST)->nat);
	kernel_dump(n, EAST, &d);
	encap_is(kdump_sa(&d, IKB_DIR_OUT), 0, 0);
	kernel_mapping(n, EAST, kdump_sa(&d, IKB_DIR_IN), "203.0.113.10",
		       31000);
	addr_is(&sa_of(n, EAST)->path.remote, "192.0.2.1");
	assert_true(log_has("but the peer is behind no NAT: not followed"));
	net_free(n);
}

/* encapsulation=yes at west: both encapsulate although there is no NAT. */
static void test_forced(void **state)
{
	struct net *n;
	struct kdump d;

	harness_west_setup = NULL;
	n = net_new(TRANSPORT "\tencapsulation=yes\n", TRANSPORT, NULL, NULL,
		    NULL);
	up(n);
	assert_true(sa_of(n, WEST)->nat->forced);
	assert_true(sa_of(n, EAST)->nat->remote);
	assert_int_equal(sa_of(n, WEST)->path.lport, 4500);
	kernel_dump(n, EAST, &d);
	encap_is(kdump_sa(&d, IKB_DIR_OUT), 4500, 4500);
	kernel_dump(n, WEST, &d);
	encap_is(kdump_sa(&d, IKB_DIR_OUT), 4500, 4500);
	net_free(n);
}

/* encapsulation=no at either end: no NAT-T, ESP bare, IKE stays on 500. */
static void no_encap(const char *west, const char *east)
{
	struct net *n;
	struct kdump d;

	harness_nat = true;
	harness_west_setup = NULL;
	n = net_new(west, east, NULL, NULL, NULL);
	up(n);
	assert_null(sa_of(n, WEST)->nat);
	assert_null(sa_of(n, EAST)->nat);
	assert_int_equal(sa_of(n, WEST)->path.lport, 500);
	kernel_dump(n, WEST, &d);
	encap_is(kdump_sa(&d, IKB_DIR_OUT), 0, 0);
	net_free(n);
}

static void test_encap_no(void **state)
{
	no_encap(TUNNEL "\tencapsulation=no\n", TUNNEL);
	no_encap(TUNNEL, TUNNEL "\tencapsulation=no\n");
}

/* right=%any, transport, no NAT: the initiator's own address is its TS. */
static void test_any_transport(void **state)
{
	struct net *n;
	struct kdump d;

	harness_west_setup = NULL;
	harness_east_left = "%any";
	n = net_new(TRANSPORT, NULL, NULL, NULL, NULL);
	harness_east_left = NULL;
	up(n);
	kernel_dump(n, EAST, &d);
	addr_is(&policy_of(&d, IKB_DIR_OUT)->sel.dst, "192.0.2.1");
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_transport, net_cleanup),
		cmocka_unit_test_teardown(test_tunnel, net_cleanup),
		cmocka_unit_test_teardown(test_keepalive, net_cleanup),
		cmocka_unit_test_teardown(test_no_keepalive, net_cleanup),
		cmocka_unit_test_teardown(test_new_mapping, net_cleanup),
		cmocka_unit_test_teardown(test_kernel_mapping, net_cleanup),
		cmocka_unit_test_teardown(test_mapping_without_nat,
					  net_cleanup),
		cmocka_unit_test_teardown(test_forced, net_cleanup),
		cmocka_unit_test_teardown(test_encap_no, net_cleanup),
		cmocka_unit_test_teardown(test_any_transport, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
