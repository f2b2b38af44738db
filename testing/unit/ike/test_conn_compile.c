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
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/engine.h"
#include "ike/conn/conn.h"
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

/*
 * One meaning per key: each spelling the load check takes (it loads
 * here, through the same checks as the daemon) is the value the engine
 * runs with. retransmit-interval=1.5 was 1.5 s at run time and 1.5 ms to
 * the check, and 60s passed the check only to be dropped at run time.
 */
enum field {
	F_PFS,
	F_REKEY,
	F_FRAG,
	F_ENCAP,
	F_NATKA,
	F_MOBIKE,
	F_FUZZ,
	F_IKELIFE,
	F_CHILDLIFE,
	F_MARGIN,
	F_DPDDELAY,
	F_DPDTIMEOUT,
	F_TRIES,
	F_RTXI,
	F_RTXT,
	F_PRIORITY,
	F_START,
	F_ROUTE,
	F_IGNORED,
	F_SHUNT,
	F_NEGPASS,
	F_FAILSHUNT,
};

static unsigned long long field(const struct conn *c, enum field f)
{
	switch (f) {
	case F_PFS:
		return c->pfs;
	case F_REKEY:
		return c->rekey;
	case F_FRAG:
		return c->frag;
	case F_ENCAP:
		return c->encap;
	case F_NATKA:
		return c->nat_keepalive;
	case F_MOBIKE:
		return c->mobike;
	case F_FUZZ:
		return c->fuzz_pct;
	case F_IKELIFE:
		return c->ike_life_ms;
	case F_CHILDLIFE:
		return c->child_life_ms;
	case F_MARGIN:
		return c->margin_ms;
	case F_DPDDELAY:
		return c->dpd_delay_ms;
	case F_DPDTIMEOUT:
		return c->dpd_timeout_ms;
	case F_TRIES:
		return c->keyingtries;
	case F_RTXI:
		return c->rtx_interval_ms;
	case F_RTXT:
		return c->rtx_timeout_ms;
	case F_PRIORITY:
		return c->priority;
	case F_START:
		return c->auto_start;
	case F_ROUTE:
		return c->auto_route;
	case F_IGNORED:
		return c->ignored;
	case F_SHUNT:
		return c->shunt;
	case F_NEGPASS:
		return c->neg_pass;
	case F_FAILSHUNT:
		return c->fail_shunt;
	}
	return ~0ULL;
}

static const struct {
	const char *key, *text;
	enum field f;
	unsigned long long want;
} spellings[] = {
	{ "pfs", "off", F_PFS, 0 },
	{ "pfs", "n", F_PFS, 0 },
	{ "pfs", "FALSE", F_PFS, 0 },
	{ "pfs", "on", F_PFS, 1 },
	{ "pfs", "y", F_PFS, 1 },
	{ "rekey", "off", F_REKEY, 0 },
	{ "rekey", "true", F_REKEY, 1 },
	{ "fragmentation", "no", F_FRAG, 0 },
	{ "fragmentation", "off", F_FRAG, 0 },
	{ "fragmentation", "never", F_FRAG, 0 },
	{ "fragmentation", "yes", F_FRAG, 1 },
	{ "fragmentation", "force", F_FRAG, 1 },
	{ "fragmentation", "insist", F_FRAG, 1 },
	{ "encapsulation", "auto", F_ENCAP, ENCAP_AUTO },
	{ "encapsulation", "on", F_ENCAP, ENCAP_YES },
	{ "encapsulation", "n", F_ENCAP, ENCAP_NO },
	{ "nat-keepalive", "off", F_NATKA, 0 },
	{ "mobike", "y", F_MOBIKE, 1 },
	{ "mobike", "false", F_MOBIKE, 0 },
	{ "rekeyfuzz", "50%", F_FUZZ, 50 },
	{ "rekeyfuzz", "0", F_FUZZ, 0 },
	{ "ikelifetime", "3600", F_IKELIFE, 3600000 },
	{ "ikelifetime", "90m", F_IKELIFE, 5400000 },
	{ "ikelifetime", "1.5h", F_IKELIFE, 5400000 },
	{ "ipsec-lifetime", "1d", F_CHILDLIFE, 86400000 },
	{ "salifetime", "2h", F_CHILDLIFE, 7200000 },
	{ "lifetime", "30m", F_CHILDLIFE, 1800000 },
	{ "keylife", "45m", F_CHILDLIFE, 2700000 },
	{ "rekeymargin", "3m", F_MARGIN, 180000 },
	{ "dpddelay", "10", F_DPDDELAY, 10000 },
	{ "dpddelay", "500ms", F_DPDDELAY, 500 },
	{ "dpdtimeout", "2m", F_DPDTIMEOUT, 120000 },
	{ "keyingtries", "%forever", F_TRIES, 0 },
	{ "keyingtries", "5", F_TRIES, 5 },
	{ "retransmit-interval", "200", F_RTXI, 200 },
	{ "retransmit-interval", "1.5", F_RTXI, 1 },
	{ "retransmit-interval", "2s", F_RTXI, 2000 },
	{ "retransmit-interval", "59s", F_RTXI, 59000 },
	{ "retransmit-timeout", "3", F_RTXT, 3000 },
	{ "retransmit-timeout", "1m", F_RTXT, 60000 },
	{ "priority", "4294967295", F_PRIORITY, 4294967295ULL },
	{ "auto", "start", F_START, 1 },
	{ "auto", "ondemand", F_ROUTE, 1 },
	{ "auto", "route", F_ROUTE, 1 },
	{ "auto", "ignore", F_IGNORED, 1 },
	{ "type", "passthrough", F_SHUNT, IKB_POLICY_PASS },
	{ "type", "drop", F_SHUNT, IKB_POLICY_BLOCK },
	{ "type", "reject", F_SHUNT, IKB_POLICY_BLOCK },
	{ "type", "transport", F_SHUNT, IKB_POLICY_IPSEC },
	{ "negotiationshunt", "passthrough", F_NEGPASS, 1 },
	{ "negotiationshunt", "hold", F_NEGPASS, 0 },
	{ "failureshunt", "drop", F_FAILSHUNT, IKB_POLICY_BLOCK },
	{ "failureshunt", "passthrough", F_FAILSHUNT, IKB_POLICY_PASS },
	{ "failureshunt", "none", F_FAILSHUNT, IKB_POLICY_IPSEC },
};

#define NSPELL (sizeof(spellings) / sizeof(spellings[0]))

static void test_spellings(void **state)
{
	char *extra = NULL, name[16];
	size_t len = 0;
	FILE *f = open_memstream(&extra, &len);
	struct net *n;

	for (size_t i = 0; i < NSPELL; i++) {
		fprintf(f,
			"\nconn s%zu\n\tleft=192.0.2.2\n\tright=192.0.2.1\n"
			"\tleftid=@east\n\trightid=@west\n\tauthby=secret\n"
			"\t%s=%s\n",
			i, spellings[i].key, spellings[i].text);
		/* no conn of these starts or routes, but the auto= rows */
		if (strcmp(spellings[i].key, "auto"))
			fprintf(f, "\tauto=add\n");
	}
	fclose(f);
	n = net_new(NULL, NULL, extra, NULL, NULL);
	for (size_t i = 0; i < NSPELL; i++) {
		snprintf(name, sizeof(name), "s%zu", i);
		print_message("%s=%s\n", spellings[i].key, spellings[i].text);
		assert_int_equal(field(find(n, name), spellings[i].f),
				 spellings[i].want);
	}
	net_free(n);
	free(extra);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_values, net_cleanup),
		cmocka_unit_test_teardown(test_host_typed, net_cleanup),
		cmocka_unit_test_teardown(test_reload, net_cleanup),
		cmocka_unit_test_teardown(test_spellings, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-conn-compile", tests, NULL,
					   NULL);
}
