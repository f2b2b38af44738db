// SPDX-License-Identifier: GPL-2.0-or-later
/* Engine pieces alone: IDs from leftid=, TS narrowing to one prefix. */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "crypto/nss_init.h"
#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/exchange/exchange.h"
#include "ike/msg/msg.h"
#include "ike/path/path.h"
#include "ike/child/child.h"

static void id_is(const char *conf, int rc, uint8_t type, const char *text)
{
	struct conn_end end = { .id = conf };
	struct ike_id id;
	struct ikb_error err = { "" };

	end.addr.family = AF_INET;
	inet_pton(AF_INET, "192.0.2.1", end.addr.bytes);
	assert_int_equal(id_local(&end, &id, &err), rc);
	if (rc) {
		assert_non_null(strstr(err.msg, text));
		return;
	}
	assert_int_equal(id.type, type);
	assert_string_equal(id.text, text);
	assert_true(id_accepts(&end, &id));
}

/* rightid= with a wildcard takes any value there, as libreswan's does. */
static void test_dn_ids(void **state)
{
	struct conn_end want = { .id = "C=CH, O=Example, CN=*" };
	struct conn_end west = { .id = "C=CH, O=Example, CN=west" };
	struct conn_end other = { .id = "C=CH, O=Other, CN=west" };
	struct conn_end fromcert = { .id = "%fromcert" };
	struct ike_id id;
	struct ikb_error err = { "" };

	fromcert.auth.fromcert = true;
	assert_int_equal(id_local(&west, &id, &err), 0);
	assert_true(id_accepts(&want, &id));
	assert_true(id_accepts(&fromcert, &id));
	assert_int_equal(id_local(&other, &id, &err), 0);
	assert_false(id_accepts(&want, &id));
	assert_false(id_accepts(&west, &id));
	/* %fromcert without a certificate names no ID of ours */
	assert_int_not_equal(id_local(&fromcert, &id, &err), 0);
	assert_non_null(strstr(err.msg, "leftcert="));
}

static void test_ids(void **state)
{
	id_is(NULL, 0, 1, "192.0.2.1");
	id_is("@west.example", 0, 2, "@west.example");
	id_is("west@example.com", 0, 3, "west@example.com");
	id_is("2001:db8::1", 0, 5, "2001:db8::1");
	id_is("C=CH, O=Example, CN=west", 0, 9, "C=CH, O=Example, CN=west");
	id_is("CN=west,O=Example", 0, 9, "CN=west, O=Example");
	id_is("C=CH, XX=west", -EINVAL, 0, "XX");
	id_is("@[keyid]", -ENOTSUP, 0, "key IDs");
}

static void sel(struct ikb_selector *s, const char *src, uint8_t sp,
		const char *dst, uint8_t dp)
{
	memset(s, 0, sizeof(*s));
	s->src.family = s->dst.family = AF_INET;
	inet_pton(AF_INET, src, s->src.bytes);
	inet_pton(AF_INET, dst, s->dst.bytes);
	s->src_plen = sp;
	s->dst_plen = dp;
}

static void test_narrow(void **state)
{
	struct ikb_selector ours, got, theirs;
	struct wire_ts tl, tr;
	struct wire_ts_pld l = { 1, &tl }, r = { 1, &tr };

	/* peer offers 10.1.0.0/16 <-> 10.2.0.0/16, we have a /24 locally */
	sel(&ours, "10.1.1.0", 24, "10.2.0.0", 16);
	sel(&theirs, "10.1.0.0", 16, "10.2.0.0", 16);
	ts_to_wire(&theirs.src, 16, 0, 0, &tl);
	ts_to_wire(&theirs.dst, 16, 0, 0, &tr);
	assert_int_equal(ts_select(&ours, &l, &r, false, &got), 0);
	assert_int_equal(got.src_plen, 24);
	assert_int_equal(got.dst_plen, 16);
	/* strict: the initiator refuses what is not within its own */
	assert_int_equal(ts_select(&ours, &l, &r, true, &got), -1);
	/* a range that is no prefix is cut to the largest prefix at its start */
	memset(tl.start, 0, 16);
	memset(tl.end, 0, 16);
	inet_pton(AF_INET, "10.1.1.0", tl.start);
	inet_pton(AF_INET, "10.1.1.200", tl.end);
	assert_int_equal(ts_select(&ours, &l, &r, false, &got), 0);
	assert_int_equal(got.src_plen, 25);
	/* disjoint: nothing */
	inet_pton(AF_INET, "10.9.0.0", tl.start);
	inet_pton(AF_INET, "10.9.0.9", tl.end);
	assert_int_equal(ts_select(&ours, &l, &r, false, &got), -1);
	/* protocol and port: tcp/22 against any */
	ts_to_wire(&theirs.src, 16, 6, 22, &tl);
	assert_int_equal(ts_select(&ours, &l, &r, false, &got), 0);
	assert_int_equal(got.proto, 6);
	assert_int_equal(got.sport, 22);
}

static void add_natd(struct wire_msg *m, uint16_t type, const char *ip,
		     uint8_t out[20])
{
	struct ikb_addr a = { .family = AF_INET };

	inet_pton(AF_INET, ip, a.bytes);
	assert_int_equal(nat_hash(m->hdr.spi_i, m->hdr.spi_r, &a, 500, out), 0);
	msg_notify(m, type, out, 20);
}

/* The peer hashed what it saw; a mismatch is a NAT on that side. */
static void test_nat_detect(void **state)
{
	static struct wire_msg m;
	struct conn_set set = { .natt_port = 4500 };
	struct ike_engine e = { .conns = &set };
	struct ike_sa sa = { .conn = "t", .e = &e };
	uint8_t h1[20], h2[20];

	sa.path.local.family = sa.path.remote.family = AF_INET;
	inet_pton(AF_INET, "192.0.2.2", sa.path.local.bytes);
	inet_pton(AF_INET, "192.0.2.1", sa.path.remote.bytes);
	sa.path.lport = sa.path.rport = 500;
	memset(m.hdr.spi_i, 7, 8);
	add_natd(&m, WIRE_N_NAT_DETECTION_SOURCE_IP, "192.0.2.1", h1);
	add_natd(&m, WIRE_N_NAT_DETECTION_DESTINATION_IP, "192.0.2.2", h2);
	nat_check(&sa, &m);
	assert_null(sa.nat);
	m.n = 0;
	add_natd(&m, WIRE_N_NAT_DETECTION_SOURCE_IP, "10.0.0.1", h1);
	add_natd(&m, WIRE_N_NAT_DETECTION_DESTINATION_IP, "192.0.2.2", h2);
	nat_check(&sa, &m);
	assert_non_null(sa.nat);
	assert_true(sa.nat->remote);
	assert_false(sa.nat->local);
	assert_true(nat_encap(&sa));
	m.n = 0;
	add_natd(&m, WIRE_N_NAT_DETECTION_SOURCE_IP, "192.0.2.1", h1);
	add_natd(&m, WIRE_N_NAT_DETECTION_DESTINATION_IP, "203.0.113.9", h2);
	nat_check(&sa, &m);
	assert_true(sa.nat->local);
	assert_false(sa.nat->remote);
	nat_free(&sa);
	assert_null(sa.nat);
}

/* INVALID_KE_PAYLOAD: one rule for IKE_SA_INIT, Child SAs, IKE rekey. */
static void test_ke_retry(void **state)
{
	struct ikb_proposal_list offered = { .n = 1 };
	uint8_t g31[2] = { 0, 31 }, g19[2] = { 0, 19 }, g14[2] = { 0, 14 };
	struct wire_notify n = { .type = WIRE_N_INVALID_KE_PAYLOAD,
				 .data = g31,
				 .len = 2 };
	struct ke_retry r = { 0 };

	offered.p[0].n = 2;
	offered.p[0].xf[0] = (struct ikb_transform){ IKB_XF_KE, 19, 0 };
	offered.p[0].xf[1] = (struct ikb_transform){ IKB_XF_KE, 31, 0 };
	n.len = 1; /* not a group */
	assert_false(ke_retry(&r, &n, 19, &offered));
	n.len = 2;
	n.data = g14; /* not offered */
	assert_false(ke_retry(&r, &n, 19, &offered));
	assert_true(ke_retry(&r, &n, 19, NULL)); /* nothing to check */
	assert_int_equal(r.group, 14);
	n.data = g19; /* the one we sent */
	assert_false(ke_retry(&r, &n, 19, &offered));
	n.data = g31;
	assert_true(ke_retry(&r, &n, 19, &offered));
	assert_int_equal(r.group, 31);
	assert_true(ke_retry(&r, &n, 19, &offered));
	assert_int_equal(r.tries, 3);
	assert_false(ke_retry(&r, &n, 19, &offered)); /* three is enough */
	n.type = WIRE_N_NO_PROPOSAL_CHOSEN;
	assert_false(ke_retry(&(struct ke_retry){ 0 }, &n, 19, NULL));
}

/* The payloads each exchange must carry, checked before its handler. */
static void test_expect(void **state)
{
	struct wire_msg *m = calloc(1, sizeof(*m));
	char why[96];
	uint16_t n = 0;

	assert_non_null(m);
	m->hdr.exchange = WIRE_EXCH_CREATE_CHILD_SA;
	msg_add(m, WIRE_PT_SA);
	msg_add(m, WIRE_PT_NONCE);
	/* a Child SA's request without TSi/TSr: TS_UNACCEPTABLE */
	assert_false(expect_ok(m, false, EXPECT_CHILD, &n, why, sizeof(why)));
	assert_int_equal(n, WIRE_N_TS_UNACCEPTABLE);
	assert_string_equal(why,
			    "CREATE_CHILD_SA request lacks the TSi payload");
	/* the IKE SA rekey needs no selectors */
	assert_true(expect_ok(m, false, EXPECT_IKE, &n, why, sizeof(why)));
	msg_add(m, WIRE_PT_TSI);
	msg_add(m, WIRE_PT_TSR);
	assert_true(expect_ok(m, false, EXPECT_CHILD, &n, why, sizeof(why)));
	assert_true(expect_ok(m, true, EXPECT_CHILD, &n, why, sizeof(why)));
	/* IKE_AUTH without AUTH: INVALID_SYNTAX; a refusal is the handler's */
	memset(m, 0, sizeof(*m));
	m->hdr.exchange = WIRE_EXCH_IKE_AUTH;
	msg_add(m, WIRE_PT_IDI);
	assert_false(expect_ok(m, false, EXPECT_ANY, &n, why, sizeof(why)));
	assert_int_equal(n, WIRE_N_INVALID_SYNTAX);
	assert_string_equal(why, "IKE_AUTH request lacks the AUTH payload");
	free(m);
}

/*
 * A response is whole (its handler gets every payload its row needs),
 * refused (only the notify reaches the refusal handler) or malformed.
 */
static void test_expect_response(void **state)
{
	struct wire_msg *m = calloc(1, sizeof(*m));
	const struct wire_notify *n;
	struct expected x;
	char why[96];

	assert_non_null(m);
	m->hdr.exchange = WIRE_EXCH_IKE_AUTH;
	msg_add(m, WIRE_PT_IDR);
	assert_int_equal(
		expect_response(m, EXPECT_ANY, &x, &n, why, sizeof(why)),
		EXPECT_MALFORMED);
	assert_string_equal(why, "IKE_AUTH response lacks the AUTH payload");
	/* a Child SA's error without IDr and AUTH: the IKE SA is refused */
	msg_notify(m, WIRE_N_TS_UNACCEPTABLE, NULL, 0);
	assert_int_equal(
		expect_response(m, EXPECT_ANY, &x, &n, why, sizeof(why)),
		EXPECT_REFUSED);
	assert_int_equal(n->type, WIRE_N_TS_UNACCEPTABLE);
	/* with them, the IKE SA is up and the Child SA's error is its own */
	msg_add(m, WIRE_PT_AUTH);
	assert_int_equal(
		expect_response(m, EXPECT_ANY, &x, &n, why, sizeof(why)),
		EXPECT_WHOLE);
	assert_non_null(x.idr);
	assert_non_null(x.auth);
	assert_null(x.sa);
	/* any other error refuses, whole or not, an unknown one too */
	msg_notify(m, 12345, NULL, 0);
	assert_int_equal(
		expect_response(m, EXPECT_ANY, &x, &n, why, sizeof(why)),
		EXPECT_REFUSED);
	assert_int_equal(n->type, 12345);
	/* CREATE_CHILD_SA: any error refuses */
	memset(m, 0, sizeof(*m));
	m->hdr.exchange = WIRE_EXCH_CREATE_CHILD_SA;
	msg_add(m, WIRE_PT_SA);
	msg_add(m, WIRE_PT_NONCE);
	assert_int_equal(
		expect_response(m, EXPECT_IKE, &x, &n, why, sizeof(why)),
		EXPECT_WHOLE);
	assert_null(x.ke);
	assert_int_equal(
		expect_response(m, EXPECT_CHILD, &x, &n, why, sizeof(why)),
		EXPECT_MALFORMED);
	msg_notify(m, WIRE_N_NO_PROPOSAL_CHOSEN, NULL, 0);
	assert_int_equal(
		expect_response(m, EXPECT_IKE, &x, &n, why, sizeof(why)),
		EXPECT_REFUSED);
	/* IKE_SA_INIT: COOKIE refuses too, a status notify does not */
	memset(m, 0, sizeof(*m));
	m->hdr.exchange = WIRE_EXCH_IKE_SA_INIT;
	msg_notify(m, WIRE_N_NAT_DETECTION_SOURCE_IP, NULL, 0);
	assert_int_equal(
		expect_response(m, EXPECT_ANY, &x, &n, why, sizeof(why)),
		EXPECT_MALFORMED);
	msg_notify(m, WIRE_N_COOKIE, NULL, 0);
	assert_int_equal(
		expect_response(m, EXPECT_ANY, &x, &n, why, sizeof(why)),
		EXPECT_REFUSED);
	assert_int_equal(n->type, WIRE_N_COOKIE);
	/* INFORMATIONAL: whole with anything, errors are the handler's */
	memset(m, 0, sizeof(*m));
	m->hdr.exchange = WIRE_EXCH_INFORMATIONAL;
	msg_notify(m, WIRE_N_UNACCEPTABLE_ADDRESSES, NULL, 0);
	assert_int_equal(
		expect_response(m, EXPECT_ANY, &x, &n, why, sizeof(why)),
		EXPECT_WHOLE);
	free(m);
}

static void test_expect_info(void **state)
{
	struct wire_msg *m = calloc(1, sizeof(*m));
	char why[96];
	uint16_t n = 0;

	assert_non_null(m);
	/* INFORMATIONAL: anything, even nothing */
	memset(m, 0, sizeof(*m));
	m->hdr.exchange = WIRE_EXCH_INFORMATIONAL;
	assert_true(expect_ok(m, false, EXPECT_ANY, &n, why, sizeof(why)));
	free(m);
}

/* The task queue (task_queue.c): in enum ike_task's order, each once. */
static void queue_is(struct ike_sa *sa, const uint8_t *want, size_t n)
{
	struct ike_task_link *l = sa->tasks;

	for (size_t i = 0; i < n; i++, l = l->next) {
		assert_non_null(l);
		assert_int_equal(l->what, want[i]);
	}
	assert_null(l);
}

static void test_task_queue(void **state)
{
	struct ike_sa *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct child_sa *c1 = calloc(1, sizeof(*c1)),
			*c2 = calloc(1, sizeof(*c2));
	const uint8_t order[] = { TASK_DELETE_IKE,   TASK_REKEY_IKE,
				  TASK_DELETE_CHILD, TASK_REKEY_CHILD,
				  TASK_REKEY_CHILD,  TASK_DPD };
	const uint8_t moved[] = { TASK_DELETE_CHILD, TASK_REKEY_CHILD,
				  TASK_REKEY_CHILD };

	c1->ike = c2->ike = a;
	task_want(a, TASK_DPD);
	task_want_child(a, c1, TASK_REKEY_CHILD);
	task_want(a, TASK_REKEY_IKE);
	task_want_child(a, c2, TASK_REKEY_CHILD);
	task_want_child(a, c2, TASK_DELETE_CHILD);
	task_want(a, TASK_DELETE_IKE);
	/* twice is once */
	task_want(a, TASK_DPD);
	task_want_child(a, c1, TASK_REKEY_CHILD);
	queue_is(a, order, 6);
	/* first come first within a kind */
	assert_ptr_equal(task_child(a->tasks->next->next->next), c1);
	assert_ptr_equal(task_child(a->tasks->next->next), c2);
	assert_null(task_child(a->tasks));
	assert_true(task_queued(a, TASK_DPD));
	assert_false(task_queued(a, TASK_MOBIKE));
	/* a rekey of the IKE SA: the Child SAs' tasks follow them */
	tasks_move_children(b, a);
	queue_is(a,
		 (const uint8_t[]){ TASK_DELETE_IKE, TASK_REKEY_IKE, TASK_DPD },
		 3);
	queue_is(b, moved, 3);
	c1->ike = c2->ike = b;
	/* a Child SA that goes takes its tasks along */
	tasks_drop_child(b, c2);
	queue_is(b, (const uint8_t[]){ TASK_REKEY_CHILD }, 1);
	assert_true(task_unlink(b, b->tasks));
	assert_false(c1->task[1].queued);
	assert_null(b->tasks);
	free(a);
	free(b);
	free(c1);
	free(c2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_task_queue),
		cmocka_unit_test(test_dn_ids),
		cmocka_unit_test(test_narrow),
		cmocka_unit_test(test_nat_detect),
		cmocka_unit_test(test_ke_retry),
		cmocka_unit_test(test_expect),
		cmocka_unit_test(test_expect_response),
		cmocka_unit_test(test_expect_info),
	};

	struct crypto_err err;

	assert_int_equal(crypto_init(false, &err), 0);
	return cmocka_run_group_tests_name("ike-units", tests, NULL, NULL);
}
