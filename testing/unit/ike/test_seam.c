// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The plugin seam from the engine's side: the ESN transforms come from
 * replay-window's child.offer (and "no ESN" from the core where no plugin
 * gave one).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/child_sa.h"
#include "ike/conn.h"
#include "ike/engine.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_esn_from_replay_window,
					  net_cleanup),
		cmocka_unit_test_teardown(test_esn_without_replay_window,
					  net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("plugin seam (engine)", tests, NULL,
					   NULL);
}
