// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A peer that holds the IKE SA's keys answers west's requests with error
 * notifies instead of what the exchange carries: IKE_SA_INIT (in plain
 * text, as anyone on the path can), IKE_AUTH, CREATE_CHILD_SA
 * for a new Child SA, a Child SA rekey and the IKE SA rekey, and
 * INFORMATIONAL, each with every error notify type of the IANA registry
 * and one it does not know. The IKE_AUTH response with an error and no
 * IDr crashed the initiator (a NULL IDr read); each case here passes the
 * integrity check and reaches the refusal handler, and west neither
 * crashes nor reads a payload that is not there (ASan and UBSan run this
 * too), keeps what RFC 7296 says it keeps, and logs the notify by name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/ike_sa.h"
#include "ike/msg/msg.h"

/* Every error type with a name (notify_pld.c), and one unassigned. */
static const uint16_t errors[] = {
	1,  4,	5,  7,	9,  11, 14, 17, 24, 34, 35, 36,	  37,
	38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 8191,
};
#define N_ERRORS (sizeof(errors) / sizeof(errors[0]))

#define LONG "\tipsec-lifetime=1h\n\tikelifetime=1h\n"

/* East's responses of this exchange never reach west: a test answers. */
static struct hold {
	uint8_t exch;
	unsigned held;
} hold;

static unsigned hold_filter(struct net *n, int from, unsigned seq,
			    const uint8_t *buf, size_t len)
{
	if (from != EAST || !hold.exch || !dgram_is(buf, len, hold.exch, true))
		return 1;
	hold.held++;
	return 0;
}

static struct net *held_net(const char *conn, uint8_t exch)
{
	struct net *n = net_new(conn, NULL, NULL, NULL, NULL);

	memset(&hold, 0, sizeof(hold));
	hold.exch = exch;
	n->filter = hold_filter;
	return n;
}

static bool held(struct net *n)
{
	return hold.held > 0 && net_sa_waiting(n, WEST);
}

static void up(struct net *n)
{
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
}

/* What west logs of the notify: its name, or its number. */
static const char *answered(uint16_t type, char *buf, size_t len)
{
	char b[32];

	snprintf(buf, len, "peer answered %s",
		 wire_notify_text(type, b, sizeof(b)));
	return buf;
}

/* A response of only the error notify, and what the shape adds. */
enum shape { ALONE, WITH_IDR, WITH_AUTH, SHAPES };

/* The codec wants INVALID_KE_PAYLOAD's group: one nobody offers. */
static void add_error(struct wire_msg *m, uint16_t type)
{
	static const uint8_t group[2] = { 0x04, 0x00 };

	if (type == WIRE_N_INVALID_KE_PAYLOAD)
		msg_notify(m, type, group, sizeof(group));
	else
		msg_notify(m, type, NULL, 0);
}

static void add_refusal(struct wire_msg *m, uint16_t type, enum shape s)
{
	static const uint8_t zeros[32];
	struct wire_payload *p;

	if (s == WITH_IDR) {
		p = msg_add(m, WIRE_PT_IDR);
		p->u.id = (struct wire_typed){ 2, (const uint8_t *)"east", 4 };
	}
	add_error(m, type);
	if (s == WITH_AUTH) {
		p = msg_add(m, WIRE_PT_AUTH);
		p->u.auth = (struct wire_typed){ 2, zeros, sizeof(zeros) };
	}
}

static char want[96];

static bool auth_refused(struct net *n)
{
	return log_has(want) && ike_sa_count(n, WEST, "established") == 0 &&
	       !net_sa_waiting(n, WEST);
}

/*
 * IKE_AUTH: an error notify alone, or beside IDr without AUTH (the crash)
 * or AUTH without IDr: the IKE SA is refused, whatever the type (§1.2's
 * Child SA errors too, without IDr and AUTH; §3.10.1 an unknown one), and
 * west's larval Child SA goes with it.
 */
static void auth_refusals(unsigned nfrag)
{
	for (enum shape s = ALONE; s < SHAPES; s++) {
		for (size_t i = 0; i < N_ERRORS; i++) {
			struct net *n = held_net("\tfragmentation=yes\n" LONG,
						 WIRE_EXCH_IKE_AUTH);
			struct wire_msg *m = calloc(1, sizeof(*m));

			assert_non_null(m);
			log_reset();
			up(n);
			assert_true(net_run(n, held, 5000));
			add_refusal(m, errors[i], s);
			forge_response(n, WEST, m, nfrag);
			answered(errors[i], want, sizeof(want));
			assert_true(net_run(n, auth_refused, 5000));
			assert_int_equal(child_count(n, WEST), 0);
			assert_int_equal(kernel_objects(n, WEST), 0);
			free(m);
			net_free(n);
		}
	}
}

static void test_auth_refused(void **state)
{
	auth_refusals(1);
}

/* The same, each response in two fragments (RFC 7383) reassembled. */
static void test_auth_refused_fragments(void **state)
{
	auth_refusals(2);
}

/* West's IKE SA waiting for its IKE_SA_INIT response, or NULL. */
static struct ike_sa *init_waiting(struct net *n)
{
	for (struct ike_sa *sa = n->p[WEST].e->all; sa; sa = sa->next_all)
		if (sa->initiator && exchange_kind(sa) == OUT_INIT &&
		    sa->rtx.req)
			return sa;
	return NULL;
}

static bool init_held(struct net *n)
{
	return hold.held > 0 && init_waiting(n);
}

static bool init_refused(struct net *n)
{
	return log_has(want) && ike_sa_count(n, WEST, NULL) == 0;
}

/*
 * IKE_SA_INIT, in plain text: each error alone, with SPIr zero as a
 * responder without state sends it (§2.6): the IKE SA is refused
 * (INVALID_KE_PAYLOAD names a group west did not offer: refused too).
 */
static void test_init_refused(void **state)
{
	for (size_t i = 0; i < N_ERRORS; i++) {
		struct net *n = held_net(LONG, WIRE_EXCH_IKE_SA_INIT);
		struct wire_msg *m = calloc(1, sizeof(*m));
		struct ike_sa *w;
		struct wbuf out;

		assert_non_null(m);
		log_reset();
		up(n);
		assert_true(net_run(n, init_held, 5000));
		w = init_waiting(n);
		memcpy(m->hdr.spi_i, w->spi_i, 8);
		m->hdr.exchange = WIRE_EXCH_IKE_SA_INIT;
		m->hdr.flags = WIRE_FLAG_R;
		add_error(m, errors[i]);
		wbuf_init(&out, 0);
		assert_int_equal(msg_emit(m, &out), 0);
		net_inject(n, WEST, out.data, out.len);
		wbuf_free(&out);
		if (errors[i] == WIRE_N_INVALID_KE_PAYLOAD)
			snprintf(want, sizeof(want), "which we cannot use");
		else
			answered(errors[i], want, sizeof(want));
		assert_true(net_run(n, init_refused, 5000));
		free(m);
		net_free(n);
	}
}

static unsigned wanted;

static bool logged_again(struct net *n)
{
	return log_count(want) >= wanted && !net_sa_waiting(n, WEST);
}

/* The IKE SA is up at west, with its Child SAs. */
static void assert_ike_stays(struct net *n, unsigned children)
{
	assert_int_equal(ike_sa_count(n, WEST, "established"), 1);
	assert_int_equal(child_count(n, WEST), children);
}

/* Answers west's request with each error in turn; start() makes it. */
static void refuse_each(struct net *n, void (*start)(struct net *),
			const char *(*says)(uint16_t, char *, size_t),
			unsigned children)
{
	for (size_t i = 0; i < N_ERRORS; i++) {
		struct wire_msg *m = calloc(1, sizeof(*m));

		assert_non_null(m);
		hold.held = 0;
		start(n);
		assert_true(net_run(n, held, 5000));
		says(errors[i], want, sizeof(want));
		wanted = log_count(want) + 1;
		add_error(m, errors[i]);
		forge_response(n, WEST, m, 0);
		assert_true(net_run(n, logged_again, 5000));
		assert_ike_stays(n, children);
		free(m);
	}
}

static const char *ike_rekey_says(uint16_t type, char *buf, size_t len)
{
	char a[64];

	snprintf(buf, len, "IKE SA rekey: %s", answered(type, a, sizeof(a)));
	return buf;
}

static void ike_rekey_start(struct net *n)
{
	struct ike_sa *w = n->p[WEST].e->all;

	task_want(w, TASK_REKEY_IKE);
	tasks_run(w);
}

/* The IKE SA rekey refused: the IKE SA and its Child SA stay. */
static void test_ike_rekey_refused(void **state)
{
	struct net *n = held_net(LONG, WIRE_EXCH_CREATE_CHILD_SA);

	up(n);
	assert_true(net_run(n, both_up, 5000));
	refuse_each(n, ike_rekey_start, ike_rekey_says, 1);
	net_free(n);
}

static const char *dpd_says(uint16_t type, char *buf, size_t len)
{
	snprintf(buf, len, "peer is alive");
	return buf;
}

static void dpd_start_now(struct net *n)
{
	struct ike_sa *w = n->p[WEST].e->all;

	task_want(w, TASK_DPD);
	tasks_run(w);
}

/* INFORMATIONAL: an error in the answer to a liveness check is an answer. */
static void test_informational_errors(void **state)
{
	struct net *n = held_net(LONG, WIRE_EXCH_INFORMATIONAL);

	up(n);
	assert_true(net_run(n, both_up, 5000));
	refuse_each(n, dpd_start_now, dpd_says, 1);
	net_free(n);
}

/*
 * A Child SA rekey refused: the old Child SA stays (TEMPORARY_FAILURE:
 * tried later), except that CHILD_SA_NOT_FOUND removes it (§2.25).
 */
static void test_child_rekey_refused(void **state)
{
	for (size_t i = 0; i < N_ERRORS; i++) {
		struct net *n = held_net(LONG, WIRE_EXCH_CREATE_CHILD_SA);
		struct wire_msg *m = calloc(1, sizeof(*m));
		bool gone = errors[i] == WIRE_N_CHILD_SA_NOT_FOUND;
		struct kdump w;

		assert_non_null(m);
		log_reset();
		up(n);
		assert_true(net_run(n, both_up, 5000));
		kernel_dump(n, WEST, &w);
		kernel_expire(n, WEST, kdump_sa(&w, IKB_DIR_OUT), false);
		assert_true(net_run(n, held, 5000));
		add_error(m, errors[i]);
		forge_response(n, WEST, m, 0);
		snprintf(want, sizeof(want), "%s",
			 gone ? "the peer has no such SA" :
			 errors[i] == WIRE_N_TEMPORARY_FAILURE ?
				"TEMPORARY_FAILURE: later" :
				"Child SA refused by the peer");
		wanted = 1;
		assert_true(net_run(n, logged_again, 5000));
		assert_ike_stays(n, gone ? 0 : 1);
		free(m);
		net_free(n);
	}
}

/*
 * A new Child SA refused (the conn's second protoport): the IKE SA and
 * the first Child SA stay, and the refused one is in neither kernel.
 */
static void test_child_refused(void **state)
{
	for (size_t i = 0; i < N_ERRORS; i++) {
		struct net *n =
			held_net("\trightprotoports=tcp/80,udp/53\n" LONG,
				 WIRE_EXCH_CREATE_CHILD_SA);
		struct wire_msg *m = calloc(1, sizeof(*m));

		assert_non_null(m);
		log_reset();
		up(n);
		assert_true(net_run(n, held, 5000));
		add_error(m, errors[i]);
		forge_response(n, WEST, m, 0);
		snprintf(want, sizeof(want), "Child SA refused by the peer");
		wanted = 1;
		assert_true(net_run(n, logged_again, 5000));
		assert_ike_stays(n, 1);
		free(m);
		net_free(n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_init_refused, net_cleanup),
		cmocka_unit_test_teardown(test_auth_refused, net_cleanup),
		cmocka_unit_test_teardown(test_auth_refused_fragments,
					  net_cleanup),
		cmocka_unit_test_teardown(test_ike_rekey_refused, net_cleanup),
		cmocka_unit_test_teardown(test_informational_errors,
					  net_cleanup),
		cmocka_unit_test_teardown(test_child_refused, net_cleanup),
		cmocka_unit_test_teardown(test_child_rekey_refused,
					  net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
