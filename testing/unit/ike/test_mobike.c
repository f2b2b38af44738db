// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MOBIKE (RFC 4555) between two engines: west initiates, east answers
 * for right=%any. Both say MOBIKE_SUPPORTED and IKE moves to 4500; when
 * west's address changes, its UPDATE_SA_ADDRESSES moves east's IKE SA and
 * Child SA to the new address with the same SPIs, and then west's; a
 * change that leaves the path as it was sends nothing. Without MOBIKE on
 * both ends nothing moves, and with it east follows only the update,
 * never another message from a new address, which it answers where it
 * came from.
 */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <event2/event.h>

#include "harness.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/path/path.h"

#define TUNNEL                                                  \
	"\tleftsubnet=10.1.0.0/16\n\trightsubnet=10.2.0.0/16\n" \
	"\tmobike=yes\n"

static void addr_is(const struct ikb_addr *a, const char *want)
{
	char got[INET6_ADDRSTRLEN];

	assert_non_null(inet_ntop(a->family, a->bytes, got, sizeof(got)));
	assert_string_equal(got, want);
}

static struct ike_sa *sa_of(struct net *n, int who)
{
	assert_non_null(n->p[who].e->all);
	return n->p[who].e->all;
}

static struct net *mobike_net(const char *west, const char *east)
{
	struct net *n;
	struct ikb_error err = { "" };

	harness_east_left = "%any";
	n = net_new(west, east, NULL, NULL, NULL);
	harness_east_left = NULL;
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 10000));
	return n;
}

/* west's host now has 192.0.2.11 instead of 192.0.2.1 */
static void west_moves(struct net *n)
{
	inet_pton(AF_INET, "192.0.2.11", n->p[WEST].addr.bytes);
}

static bool moved(struct net *n)
{
	const struct ike_sa *w = n->p[WEST].e->all, *e = n->p[EAST].e->all;

	return w && e && w->mobike && w->mobike->updates == 1 && e->mobike &&
	       e->mobike->updates == 1 && !w->x;
}

static void test_update(void **state)
{
	struct net *n = mobike_net(TUNNEL, TUNNEL);
	struct ike_sa *w = sa_of(n, WEST), *e = sa_of(n, EAST);
	uint32_t spi_in = e->children->spi_in, spi_out = e->children->spi_out;
	struct kdump d;

	assert_non_null(w->mobike);
	assert_non_null(e->mobike);
	/* RFC 4555 §3.3: IKE on 4500 from IKE_AUTH on, though no NAT */
	assert_int_equal(w->path.lport, 4500);
	assert_int_equal(e->path.rport, 4500);
	west_moves(n);
	ike_engine_addresses_changed(n->p[WEST].e);
	assert_true(net_run(n, moved, 10000));
	assert_true(log_has("sending UPDATE_SA_ADDRESSES"));
	assert_true(log_has("MOBIKE: IKE SA moved from 192.0.2.2:4500 - "
			    "192.0.2.1:4500 to 192.0.2.2:4500 - "
			    "192.0.2.11:4500"));
	addr_is(&e->path.remote, "192.0.2.11");
	addr_is(&w->path.local, "192.0.2.11");
	/* the same IKE SA and Child SA, moved */
	assert_int_equal(ike_sa_count(n, EAST, NULL), 1);
	assert_int_equal(child_count(n, EAST), 1);
	assert_int_equal(e->children->spi_in, spi_in);
	assert_int_equal(e->children->spi_out, spi_out);
	kernel_dump(n, EAST, &d);
	addr_is(&kdump_sa(&d, IKB_DIR_OUT)->dst, "192.0.2.11");
	addr_is(&kdump_sa(&d, IKB_DIR_IN)->src, "192.0.2.11");
	for (unsigned i = 0; i < d.npol; i++)
		if (d.pol[i].dir == IKB_DIR_OUT)
			addr_is(&d.pol[i].tmpl_dst, "192.0.2.11");
	kernel_dump(n, WEST, &d);
	addr_is(&kdump_sa(&d, IKB_DIR_OUT)->src, "192.0.2.11");
	addr_is(&kdump_sa(&d, IKB_DIR_IN)->dst, "192.0.2.11");
	assert_null(kdump_sa(&d, IKB_DIR_OUT)->encap_sport ? "encap" : NULL);
	net_free(n);
}

static bool path_same(struct net *n)
{
	return log_has("MOBIKE: addresses changed, the path did not");
}

/* What the loop has to do now, done (the tasks' kick is a zero timer). */
static void settle(struct net *n)
{
	for (int i = 0; i < 20; i++)
		event_base_loop(n->base, EVLOOP_NONBLOCK);
}

/* An event that leaves our source address as it was sends nothing. */
static void test_same_path(void **state)
{
	struct net *n = mobike_net(TUNNEL, TUNNEL);
	unsigned sent = n->p[WEST].sent;

	ike_engine_addresses_changed(n->p[WEST].e);
	assert_true(net_run(n, path_same, 5000));
	settle(n);
	assert_int_equal(n->p[WEST].sent, sent);
	assert_int_equal(sa_of(n, WEST)->mobike->updates, 0);
	net_free(n);
}

/* mobike=no on east: no MOBIKE, IKE stays on 500, nothing moves. */
static void test_not_negotiated(void **state)
{
	struct net *n = mobike_net(TUNNEL, "\tleftsubnet=10.1.0.0/16\n"
					   "\trightsubnet=10.2.0.0/16\n");
	unsigned sent = n->p[WEST].sent;

	assert_null(sa_of(n, WEST)->mobike);
	assert_null(sa_of(n, EAST)->mobike);
	/* the peer did NAT-T, so MOBIKE's float happened all the same */
	assert_int_equal(sa_of(n, WEST)->path.lport, 4500);
	west_moves(n);
	ike_engine_addresses_changed(n->p[WEST].e);
	settle(n);
	assert_int_equal(n->p[WEST].sent, sent);
	assert_null(sa_of(n, WEST)->x);
	addr_is(&sa_of(n, EAST)->path.remote, "192.0.2.1");
	net_free(n);
}

static bool dpd_answered(struct net *n)
{
	return log_has("peer is alive");
}

/*
 * RFC 4555 §3.5: a liveness check from west's new address, without
 * UPDATE_SA_ADDRESSES, is answered but does not move east.
 */
static void test_only_update_moves(void **state)
{
	struct net *n = mobike_net(TUNNEL, TUNNEL);
	struct ike_sa *w = sa_of(n, WEST);

	west_moves(n);
	w->path.local = n->p[WEST].addr;
	task_want(w, TASK_DPD);
	tasks_schedule(w);
	assert_true(net_run(n, dpd_answered, 10000));
	addr_is(&sa_of(n, EAST)->path.remote, "192.0.2.1");
	/* §3.5: the answer went where the request came from */
	assert_true(n->nrec > 0);
	assert_int_equal(n->rec[n->nrec - 1].from, EAST);
	addr_is(&n->rec[n->nrec - 1].to, "192.0.2.11");
	assert_int_equal(sa_of(n, EAST)->mobike->updates, 0);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_update, net_cleanup),
		cmocka_unit_test_teardown(test_same_path, net_cleanup),
		cmocka_unit_test_teardown(test_not_negotiated, net_cleanup),
		cmocka_unit_test_teardown(test_only_update_moves, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
