// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An exchange of several round trips (what EAP in IKE_AUTH and
 * IKE_INTERMEDIATE will be): a test row (exchange_rows_extra()) whose
 * response handler sends the next request of the same exchange and says
 * it goes on, three times. The exchange object stays across the rounds,
 * each round takes the next message ID, the window stays taken (a task
 * queued meanwhile waits), and the exchange ends when the handler says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/msg/msg.h"

#define ROUNDS 3

static unsigned rounds;
static struct exchange *first_x;
static uint32_t msgids[ROUNDS];

/* An empty INFORMATIONAL of ours, under the exchange in flight. */
static int send_round(struct ike_sa *sa)
{
	struct wire_msg *m = calloc(1, sizeof(*m));
	int rc;

	assert_non_null(m);
	msgids[rounds] = sa->next_req_msgid;
	rc = msg_request_sk(sa, m, WIRE_EXCH_INFORMATIONAL);
	free(m);
	return rc;
}

static bool round_answered(struct ike_sa *sa, struct msg_in *in,
			   const struct expected *x)
{
	/* the same exchange object all along */
	assert_ptr_equal(sa->x, first_x);
	assert_int_equal(in->m->hdr.msgid, msgids[rounds]);
	if (++rounds < ROUNDS) {
		/* the liveness check queued meanwhile waits for the window */
		assert_true(task_queued(sa, TASK_DPD));
		assert_int_equal(send_round(sa), 0);
		return false; /* goes on */
	}
	return true; /* over: the window is free */
}

static const struct exchange_row test_row = {
	.name = "test: three rounds",
	.kind = OUT_TEST,
	.exchange = WIRE_EXCH_INFORMATIONAL,
	.keep = KEEP_ALL,
	.response = round_answered,
};

static struct net *up(void)
{
	struct net *n = net_new(NULL, NULL, NULL, NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	return n;
}

static bool rounds_done(struct net *n)
{
	struct ike_sa *w = n->p[WEST].e->all;

	return rounds == ROUNDS && !w->x && !w->rtx.req;
}

static bool dpd_done(struct net *n)
{
	struct ike_sa *w = n->p[WEST].e->all;

	return !task_queued(w, TASK_DPD) && !w->x && !w->rtx.req;
}

static void test_three_rounds(void **state)
{
	struct net *n = up();
	struct ike_sa *w;
	uint32_t before;

	w = n->p[WEST].e->all;
	exchange_rows_extra(&test_row, 1);
	rounds = 0;
	before = w->next_req_msgid;
	first_x = exchange_new(w, OUT_TEST);
	assert_non_null(first_x);
	assert_int_equal(send_round(w), 0);
	/* asked for while the exchange runs: it must wait for its end */
	task_want(w, TASK_DPD);
	tasks_schedule(w);
	assert_true(net_run(n, rounds_done, 5000));
	assert_int_equal(rounds, ROUNDS);
	for (unsigned i = 0; i < ROUNDS; i++)
		assert_int_equal(msgids[i], before + i);
	/* then the queued task ran, on the next message ID */
	assert_true(net_run(n, dpd_done, 5000));
	assert_int_equal(w->next_req_msgid, before + ROUNDS + 1);
	assert_int_equal(ike_sa_count(n, WEST, NULL), 1);
	exchange_rows_extra(NULL, 0);
	net_free(n);
}

static bool dropped(struct net *n)
{
	return log_has("unexpected INFORMATIONAL response");
}

/* The table is the only routing: our request of a kind without a row
 * has its response dropped, the SA unharmed. */
static void test_no_row(void **state)
{
	struct net *n = up();
	struct ike_sa *w;

	w = n->p[WEST].e->all;
	exchange_rows_extra(NULL, 0);
	rounds = 0;
	first_x = exchange_new(w, OUT_TEST);
	assert_int_equal(send_round(w), 0);
	log_reset();
	assert_true(net_run(n, dropped, 5000));
	assert_int_equal(rounds, 0);
	assert_ptr_equal(w->x, first_x);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_three_rounds, net_cleanup),
		cmocka_unit_test_teardown(test_no_row, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-rounds", tests, NULL, NULL);
}
