// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The plugin seam from the engine's side: the ESN transforms come from
 * replay-window's child.offer (and "no ESN" from the core where no plugin
 * gave one), and the engine lets go of the kernel plugin's events when it
 * lets go of the instance.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/diag.h"
#include "harness.h"
#include "ike/child/child.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "kernel_mem.h"
#include "plugin/plugin_set.h"

#define NO_RW "esp-proposals multi-sa kernel-mem"

/* west's ESP proposals for conn test, as the engine offers them. */
static void esp_list(const char *conn, const char *plugins,
		     struct ikb_proposal_list *l)
{
	struct net *n;
	const struct conn *c;
	struct ikb_error err = { "" };

	harness_plugins = plugins;
	n = net_new(conn, NULL, NULL, NULL, NULL);
	harness_plugins = NULL;
	c = engine_conn(n->p[WEST].e, "test");
	assert_non_null(c);
	memset(l, 0, sizeof(*l));
	assert_int_equal(child_esp_build(n->p[WEST].e, c->s, l, &err), 0);
	net_free(n);
}

/* Each proposal ends in exactly these ESN ids, in this order. */
static void esn_ids(const struct ikb_proposal_list *l, const int *ids,
		    unsigned nids)
{
	assert_true(l->n > 0);
	for (unsigned i = 0; i < l->n; i++) {
		const struct ikb_proposal *p = &l->p[i];
		unsigned k = 0;

		for (unsigned j = 0; j < p->n; j++) {
			if (p->xf[j].type != IKB_XF_ESN)
				continue;
			assert_true(k < nids);
			assert_int_equal(p->xf[j].id, ids[k]);
			k++;
		}
		assert_int_equal(k, nids);
	}
}

static void test_esn_from_replay_window(void **state)
{
	static const int no[] = { 0 }, yes[] = { 1 }, either[] = { 1, 0 };
	struct ikb_proposal_list *l = calloc(1, sizeof(*l));

	assert_non_null(l);
	esp_list("", NULL, l);
	esn_ids(l, no, 1);
	esp_list("\tesn=either\n", NULL, l);
	esn_ids(l, either, 2);
	esp_list("\tesn=yes\n", NULL, l);
	esn_ids(l, yes, 1);
	/* the kernel refuses ESN without a window: forced off */
	esp_list("\tesn=yes\n\treplay-window=0\n", NULL, l);
	esn_ids(l, no, 1);
	/* esp= that names ESN keeps its choice */
	esp_list("\tesp=aes128gcm16-esn\n\tesn=no\n", NULL, l);
	esn_ids(l, yes, 1);
	free(l);
}

/*
 * Without replay-window nothing offers ESN, and the proposals are what
 * they are with replay-window and its keys unset: "no ESN" in each.
 */
static void test_esn_without_replay_window(void **state)
{
	static const int no[] = { 0 };
	struct ikb_proposal_list *with = calloc(1, sizeof(*with));
	struct ikb_proposal_list *without = calloc(1, sizeof(*without));
	struct ikb_error err = { "" };
	struct net *n;

	assert_non_null(with);
	assert_non_null(without);
	esp_list("", NULL, with);
	esp_list("", NO_RW, without);
	esn_ids(without, no, 1);
	assert_int_equal(with->n, without->n);
	assert_memory_equal(with, without, sizeof(*with));
	free(with);
	free(without);

	/* and a Child SA comes up, without ESN, on a window of 0 */
	harness_plugins = NO_RW;
	n = net_new(NULL, NULL, NULL, NULL, NULL);
	harness_plugins = NULL;
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 10000));
	{
		struct kdump d;

		kernel_dump(n, WEST, &d);
		assert_int_equal(d.nsa, 2);
		for (unsigned i = 0; i < d.nsa; i++) {
			assert_false(d.sa[i].esn);
			assert_int_equal(d.sa[i].replay_window, 0);
		}
	}
	net_free(n);
}

/* kernel-mem's event injection into instance st: -ENOTCONN unsubscribed. */
static int inject(const struct plugin_set *ps)
{
	ikb_kernel_mem_inject_fn fn =
		(ikb_kernel_mem_inject_fn)plugin_set_symbol(
			ps, "kernel-mem", IKB_KERNEL_MEM_INJECT);
	struct ikb_kernel_event ev = {
		.type = IKB_KEV_ACQUIRE, .proto = 50, .reqid = 4242, .cpu = -1
	};
	void *st;

	assert_non_null(fn);
	assert_non_null(plugin_set_kernel(ps, &st));
	return fn(st, &ev);
}

static void test_unsubscribe_at_free(void **state)
{
	struct net *n = net_new(NULL, NULL, NULL, NULL, NULL);
	const struct plugin_set *ps = n->p[WEST].lc.plugins;

	assert_int_equal(inject(ps), 0);
	ike_engine_free(n->p[WEST].e);
	n->p[WEST].e = NULL;
	/* the freed engine is no longer called */
	assert_int_equal(inject(ps), -ENOTCONN);
	net_free(n);
}

/* A second configuration, with plugin instances of its own. */
static void load_other(struct net *n, struct loaded_conf *lc)
{
	char path[] = "/tmp/ikb-seam-XXXXXX";
	int fd = mkstemp(path);
	const char *text =
		"config setup\n\tplugins=\"esp-proposals replay-window multi-sa kernel-mem\"\n"
		"conn test\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
		"\tleftid=@west\n\trightid=@east\n\tauthby=secret\n";
	struct conf_load_opts o = { .config = path, .base = n->base };
	struct ikb_diag d;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	diag_init(&d);
	memset(lc, 0, sizeof(*lc));
	assert_int_equal(conf_load(&o, lc, &d), 0);
	diag_free(&d);
	unlink(path);
}

/* A reload that switches plugin instances lets go of the old one. */
static void test_unsubscribe_at_switch(void **state)
{
	struct net *n = net_new(NULL, NULL, NULL, NULL, NULL);
	struct ike_engine *e = n->p[WEST].e;
	struct loaded_conf other;

	load_other(n, &other);
	assert_int_equal(inject(other.plugins), -ENOTCONN);
	ike_engine_set_conf(e, &other);
	assert_int_equal(inject(n->p[WEST].lc.plugins), -ENOTCONN);
	assert_int_equal(inject(other.plugins), 0);
	/* the same instance again: still subscribed, once */
	ike_engine_set_conf(e, &other);
	assert_int_equal(inject(other.plugins), 0);
	ike_engine_set_conf(e, &n->p[WEST].lc);
	assert_int_equal(inject(other.plugins), -ENOTCONN);
	assert_int_equal(inject(n->p[WEST].lc.plugins), 0);
	conf_unload(&other);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_esn_from_replay_window,
					  net_cleanup),
		cmocka_unit_test_teardown(test_esn_without_replay_window,
					  net_cleanup),
		cmocka_unit_test_teardown(test_unsubscribe_at_free,
					  net_cleanup),
		cmocka_unit_test_teardown(test_unsubscribe_at_switch,
					  net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("plugin seam (engine)", tests, NULL,
					   NULL);
}
