// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The compiled conns (conn_compile.c): the values the engine reads
 * instead of config strings, equal proposal lists kept once, a view that
 * cannot be compiled keeping its error for the place that needs it, and
 * a reload that compiles the new configuration and frees the old one.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/engine.h"
#include "ike/conn.h"
#include "plugin/conf_load.h"

#define EXTRA                                                                               \
	"\nconn same-esp\n\tleft=192.0.2.2\n\tright=192.0.2.1\n"                            \
	"\tleftid=@east\n\trightid=@west\n\tauthby=secret\n"                                \
	"\tmark=-1/0xff\n\tdpddelay=30s\n\tkeyingtries=%forever\n"                          \
	"\tpfs=no\n\trekey=no\n\tauto=ignore\n"                                             \
	"\nconn other-esp\n\tleft=192.0.2.2\n\tright=192.0.2.1\n"                           \
	"\tleftid=@east\n\trightid=@west\n\tauthby=secret\n"                                \
	"\tesp=aes128gcm16\n\tmark=7\n\tmark-in=9/0xf\n\tkeyingtries=3\n\tikelifetime=2h\n" \
	"\tauto=start\n"                                                                    \
	"\nconn named\n\tleft=west.example\n\tright=192.0.2.1\n"                            \
	"\tleftid=@east\n\trightid=@west\n\tauthby=secret\n"

static const struct conn *find(struct net *n, const char *name)
{
	const struct conn *c = engine_conn(n->p[EAST].e, name);

	assert_non_null(c);
	assert_string_equal(c->name, name);
	return c;
}

static void test_values(void **state)
{
	struct net *n = net_new(NULL, NULL, EXTRA, NULL, NULL);
	const struct conn *a = find(n, "same-esp"), *b = find(n, "other-esp");
	const struct conn *t = find(n, "test");

	assert_null(engine_conn(n->p[EAST].e, "absent"));
	assert_true(a->ignored && !a->auto_start && !a->pfs && !a->rekey);
	assert_true(a->mark_out.set && a->mark_out.reqid);
	assert_int_equal(a->mark_out.mask, 0xff);
	/* mark= is both ways */
	assert_true(a->mark_in.set && a->mark_in.reqid);
	assert_int_equal(a->mark_in.mask, 0xff);
	assert_int_equal(a->dpd_delay_ms, 30000);
	assert_int_equal(a->keyingtries, 0);
	assert_true(!b->ignored && b->auto_start && b->pfs && b->rekey);
	assert_true(b->mark_out.set && !b->mark_out.reqid);
	assert_int_equal(b->mark_out.val, 7);
	assert_int_equal(b->mark_out.mask, 0xffffffffu);
	/* mark-in= overrides mark= for its direction, as libreswan */
	assert_true(b->mark_in.set && !b->mark_in.reqid);
	assert_int_equal(b->mark_in.val, 9);
	assert_int_equal(b->mark_in.mask, 0xf);
	assert_int_equal(b->keyingtries, 3);
	assert_int_equal(b->ike_life_ms, 2 * 3600 * 1000ULL);
	assert_int_equal(t->ike_life_ms, 8 * 3600 * 1000ULL);
	assert_false(t->mark_in.set || t->mark_out.set);
	/* the same (default) ike= and esp= are one list, another is not */
	assert_ptr_equal(a->ike, t->ike);
	assert_ptr_equal(a->esp, t->esp);
	assert_ptr_not_equal(b->esp, t->esp);
	net_free(n);
}

static void test_host_typed(void **state)
{
	struct net *n = net_new(NULL, NULL, EXTRA, NULL, NULL);
	const struct conn *c = find(n, "named");
	struct ikb_error err = { "" };
	struct conn_view v;

	/* left= is a name: kept typed, resolved later (test_dns.c) */
	assert_int_equal(c->view_rc[1], 0);
	assert_int_equal(c->view[1].local.host.kind, IKE_HOST_NAME);
	assert_string_equal(c->view[1].local.host.name, "west.example");
	assert_int_equal(c->view[0].remote.host.kind, IKE_HOST_NAME);
	assert_int_equal(c->view[0].remote.host.family, AF_INET);
	/* not resolved (the fake says NXDOMAIN): no view is this host's */
	assert_int_equal(conn_view_local(n->p[EAST].e, c, &v, &err),
			 -EADDRNOTAVAIL);
	net_free(n);
}

/* A reload compiles the new conns; the old are freed (ASan: no leak). */
static void test_reload(void **state)
{
	struct net *n = net_new(NULL, NULL, EXTRA, NULL, NULL);
	struct ike_engine *e = n->p[EAST].e;
	const struct conn_set *before = e->conns;

	ike_engine_set_conf(e, &n->p[EAST].lc);
	assert_ptr_not_equal(e->conns, NULL);
	assert_ptr_not_equal(e->conns, before);
	assert_int_equal(e->conns->n, 4);
	assert_non_null(engine_conn(e, "other-esp"));
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_values, net_cleanup),
		cmocka_unit_test_teardown(test_host_typed, net_cleanup),
		cmocka_unit_test_teardown(test_reload, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-conn-compile", tests, NULL,
					   NULL);
}
