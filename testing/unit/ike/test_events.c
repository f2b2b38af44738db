// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine's event bus and its IKE SA iterator, over two real engines:
 * listeners hear every kind (IKE_UP, CHILD_UP, CHILD_DOWN, IKE_DOWN,
 * FAILED) in the documented order and in the order they subscribed; one
 * may unsubscribe itself or another, or subscribe, from inside its
 * callback; the iterator shows what status shows. And reload's two
 * steps, which the engine owns.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "config/config.h"
#include "harness.h"

#define MAX_SEEN 32
#define LONG "\tipsec-lifetime=1h\n\tikelifetime=1h\n"

/* What the listeners heard, in order: who, kind, and some details. */
static struct heard {
	unsigned n;
	struct {
		int who; /* the listener's id */
		enum ike_event_kind kind;
		bool initiator, has_child, ike_up;
		unsigned long serial, replaces;
		uint32_t spi_in;
		int rc;
		char why[160];
	} ev[MAX_SEEN];
} heard;

struct ear {
	int id;
	struct ike_engine *e;
	struct ike_listener *self;
	struct ike_listener *drop; /* unsubscribe it at the first event */
	bool drop_self; /* unsubscribe itself at the first event */
	struct ear *add; /* subscribe it at the first event */
};

static void hear(void *ctx, const struct ike_event *ev)
{
	struct ear *r = ctx;
	unsigned i = heard.n;

	if (i < MAX_SEEN) {
		heard.ev[i].who = r->id;
		heard.ev[i].kind = ev->kind;
		heard.ev[i].initiator = ev->ike->initiator;
		heard.ev[i].has_child = ev->child != NULL;
		heard.ev[i].ike_up = ev->ike_up;
		heard.ev[i].serial = ev->ike->serial;
		heard.ev[i].replaces = ev->replaces;
		heard.ev[i].spi_in = ev->child ? ev->child->spi_in : 0;
		heard.ev[i].rc = ev->rc;
		snprintf(heard.ev[i].why, sizeof(heard.ev[i].why), "%s",
			 ev->why ? ev->why : "");
		heard.n++;
	}
	if (r->drop) {
		ike_engine_unsubscribe(r->e, r->drop);
		r->drop = NULL;
	}
	if (r->add) {
		r->add->self = ike_engine_subscribe(r->e, hear, r->add);
		r->add = NULL;
	}
	if (r->drop_self) {
		r->drop_self = false;
		ike_engine_unsubscribe(r->e, r->self);
	}
}

static void listen_as(struct ear *r, int id, struct ike_engine *e)
{
	r->id = id;
	r->e = e;
	r->self = ike_engine_subscribe(e, hear, r);
	assert_non_null(r->self);
}

/* The kinds listener id heard, as "IKE_UP CHILD_UP ...". */
static const char *kinds(int id, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < heard.n && at < len; i++)
		if (heard.ev[i].who == id)
			at += (size_t)snprintf(
				buf + at, len - at, "%s%s", at ? " " : "",
				ike_event_name(heard.ev[i].kind));
	return buf;
}

static struct net *up(const char *west, const char *east)
{
	struct net *n = net_new(west, east, NULL, NULL, NULL);

	memset(&heard, 0, sizeof(heard));
	return n;
}

static void initiate(struct net *n)
{
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
}

static bool none_left(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0 &&
	       ike_sa_count(n, EAST, NULL) == 0;
}

static void take_down(struct net *n)
{
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, none_left, 5000));
}

/*
 * Up and down: each side hears its Child SA, then its IKE SA, and the
 * reverse on the way down; the initiator's IKE_UP carries the first
 * Child SA with the SPI status shows.
 */
static void test_every_kind_up_down(void **state)
{
	struct net *n = up(NULL, NULL);
	struct ear w = { 0 }, e = { 0 };
	char buf[128], spi[16];

	listen_as(&w, 1, n->p[WEST].e);
	listen_as(&e, 2, n->p[EAST].e);
	initiate(n);
	assert_string_equal(kinds(1, buf, sizeof(buf)), "CHILD_UP IKE_UP");
	assert_string_equal(kinds(2, buf, sizeof(buf)), "CHILD_UP IKE_UP");
	for (unsigned i = 0; i < heard.n; i++) {
		assert_int_equal(heard.ev[i].initiator, heard.ev[i].who == 1);
		assert_true(heard.ev[i].has_child);
		if (heard.ev[i].who == 1 &&
		    heard.ev[i].kind == IKE_EVENT_IKE_UP) {
			snprintf(spi, sizeof(spi), "%08x", heard.ev[i].spi_in);
			assert_string_equal(status_str(n, WEST, true, "spi_in",
						       buf, sizeof(buf)),
					    spi);
		}
	}
	memset(&heard, 0, sizeof(heard));
	take_down(n);
	assert_string_equal(kinds(1, buf, sizeof(buf)), "CHILD_DOWN IKE_DOWN");
	assert_string_equal(kinds(2, buf, sizeof(buf)), "CHILD_DOWN IKE_DOWN");
	net_free(n);
}

static bool west_gone(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0;
}

/* A wrong PSK: FAILED with the reason, and no IKE_UP or IKE_DOWN. */
static void test_failed(void **state)
{
	struct net *n = net_new(NULL, NULL, NULL, "secret", "other secret");
	struct ikb_error err = { "" };
	struct ear w = { 0 };
	char buf[128];

	memset(&heard, 0, sizeof(heard));
	listen_as(&w, 1, n->p[WEST].e);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, west_gone, 5000));
	assert_string_equal(kinds(1, buf, sizeof(buf)), "FAILED");
	assert_int_equal(heard.ev[0].rc, -ECONNABORTED);
	assert_false(heard.ev[0].ike_up);
	assert_non_null(strstr(heard.ev[0].why, "AUTHENTICATION_FAILED"));
	net_free(n);
}

/* Listeners hear each event in the order they subscribed. */
static void test_order(void **state)
{
	struct net *n = up(NULL, NULL);
	struct ear a = { 0 }, b = { 0 }, c = { 0 };

	listen_as(&a, 1, n->p[WEST].e);
	listen_as(&b, 2, n->p[WEST].e);
	listen_as(&c, 3, n->p[WEST].e);
	initiate(n);
	take_down(n);
	assert_int_equal(heard.n, 12); /* 4 events, 3 listeners */
	for (unsigned i = 0; i < heard.n; i++) {
		assert_int_equal(heard.ev[i].who, (int)(i % 3) + 1);
		assert_int_equal(heard.ev[i].kind, heard.ev[i - i % 3].kind);
	}
	net_free(n);
}

/*
 * From inside a callback: a unsubscribes itself, b unsubscribes c (who
 * then hears nothing, not even this event) and subscribes d (who hears
 * from the next event on).
 */
static void test_unsubscribe_in_callback(void **state)
{
	struct net *n = up(NULL, NULL);
	struct ear a = { .drop_self = true }, b = { 0 }, c = { 0 },
		   d = { .id = 4 };
	char buf[128];

	listen_as(&a, 1, n->p[WEST].e);
	listen_as(&b, 2, n->p[WEST].e);
	listen_as(&c, 3, n->p[WEST].e);
	d.e = n->p[WEST].e;
	b.drop = c.self;
	b.add = &d;
	initiate(n);
	take_down(n);
	assert_string_equal(kinds(1, buf, sizeof(buf)), "CHILD_UP");
	assert_string_equal(kinds(2, buf, sizeof(buf)),
			    "CHILD_UP IKE_UP CHILD_DOWN IKE_DOWN");
	assert_string_equal(kinds(3, buf, sizeof(buf)), "");
	assert_string_equal(kinds(4, buf, sizeof(buf)),
			    "IKE_UP CHILD_DOWN IKE_DOWN");
	/* and from outside one */
	ike_engine_unsubscribe(n->p[WEST].e, b.self);
	ike_engine_unsubscribe(n->p[WEST].e, NULL);
	memset(&heard, 0, sizeof(heard));
	initiate(n);
	assert_string_equal(kinds(4, buf, sizeof(buf)), "CHILD_UP IKE_UP");
	assert_string_equal(kinds(2, buf, sizeof(buf)), "");
	net_free(n);
}

static bool rekeyed(struct net *n)
{
	return log_has("Child SA deleted") && child_count(n, WEST) == 1 &&
	       child_count(n, EAST) == 1;
}

/*
 * A Child SA rekey brings the new one up before the old one goes; the
 * responder, whose outbound SA waits for the old one's Delete, hears its
 * CHILD_UP again once that is in, just before the old one's CHILD_DOWN.
 */
static void test_child_rekey(void **state)
{
	struct net *n = up(LONG, LONG);
	struct ear w = { 0 }, e = { 0 };
	struct kdump k;
	char buf[128];

	initiate(n);
	listen_as(&w, 1, n->p[WEST].e);
	listen_as(&e, 2, n->p[EAST].e);
	kernel_dump(n, WEST, &k);
	kernel_expire(n, WEST, kdump_sa(&k, IKB_DIR_OUT), false);
	assert_true(net_run(n, rekeyed, 5000));
	assert_string_equal(kinds(1, buf, sizeof(buf)), "CHILD_UP CHILD_DOWN");
	assert_string_equal(kinds(2, buf, sizeof(buf)),
			    "CHILD_UP CHILD_UP CHILD_DOWN");
	net_free(n);
}

static bool ike_rekeyed(struct net *n)
{
	return log_has("IKE SA established by rekeying") &&
	       ike_sa_count(n, WEST, NULL) == 1 &&
	       ike_sa_count(n, EAST, NULL) == 1;
}

/* An IKE SA rekey: the new one's IKE_UP names the old, which goes. */
static void test_ike_rekey(void **state)
{
	struct net *n = up("\tikelifetime=2s\n\trekeymargin=1s\n"
			   "\trekeyfuzz=0%\n\tipsec-lifetime=1h\n",
			   LONG);
	struct ear w = { 0 };
	char buf[128];
	unsigned long old;

	initiate(n);
	listen_as(&w, 1, n->p[WEST].e);
	old = (unsigned long)atol(
		status_str(n, WEST, false, "serial", buf, sizeof(buf)));
	assert_true(net_run(n, ike_rekeyed, 5000));
	assert_string_equal(kinds(1, buf, sizeof(buf)), "IKE_UP IKE_DOWN");
	assert_int_equal(heard.ev[0].replaces, old);
	assert_int_not_equal(heard.ev[0].serial, old);
	assert_false(heard.ev[0].has_child);
	assert_int_equal(heard.ev[1].serial, old);
	net_free(n);
}

/* The iterator shows what status shows, read-only. */
static void test_iterator(void **state)
{
	struct net *n = up(NULL, NULL);
	const struct ike_sa *sa;
	struct ike_sa_info info;
	struct json_object *st, *sas, *one;

	assert_null(ike_engine_next_sa(n->p[WEST].e, NULL));
	initiate(n);
	for (int who = WEST; who <= EAST; who++) {
		sa = ike_engine_next_sa(n->p[who].e, NULL);
		assert_non_null(sa);
		ike_sa_get_info(sa, &info);
		assert_string_equal(info.conn, "test");
		assert_int_equal(info.initiator, who == WEST);
		assert_true(info.established);
		assert_string_equal(info.state, "established");
		assert_string_equal(info.remote_id,
				    who == WEST ? "@east" : "@west");
		st = ike_engine_status(n->p[who].e);
		assert_true(json_object_object_get_ex(st, "ike_sas", &sas));
		one = ike_sa_status(sa);
		assert_string_equal(json_object_to_json_string(one),
				    json_object_to_json_string(
					    json_object_array_get_idx(sas, 0)));
		json_object_put(one);
		json_object_put(st);
		assert_null(ike_engine_next_sa(n->p[who].e, sa));
	}
	net_free(n);
}

/*
 * Reload, in the engine: a conn the next configuration lacks goes (a
 * Delete to the peer); an auto=start conn without an IKE SA comes up,
 * one that has its IKE SA is left alone, without a warning.
 */
static void test_reload(void **state)
{
	struct net *n = up("\tauto=start\n", NULL);
	struct cfg empty = { 0 };
	struct loaded_conf next = { .cfg = &empty };

	cfg_setup_defaults(&empty.set);
	ike_engine_reload(n->p[WEST].e, &n->p[WEST].lc);
	assert_true(net_run(n, both_up, 5000));
	log_reset();
	ike_engine_reload(n->p[WEST].e, &n->p[WEST].lc);
	assert_int_equal(ike_sa_count(n, WEST, NULL), 1);
	assert_false(log_has("auto=start"));
	ike_engine_reload_prune(n->p[WEST].e, &next);
	assert_true(log_has("conn test was removed by the reload"));
	assert_true(net_run(n, none_left, 5000));
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_every_kind_up_down, net_cleanup),
		cmocka_unit_test_teardown(test_failed, net_cleanup),
		cmocka_unit_test_teardown(test_order, net_cleanup),
		cmocka_unit_test_teardown(test_unsubscribe_in_callback,
					  net_cleanup),
		cmocka_unit_test_teardown(test_child_rekey, net_cleanup),
		cmocka_unit_test_teardown(test_ike_rekey, net_cleanup),
		cmocka_unit_test_teardown(test_iterator, net_cleanup),
		cmocka_unit_test_teardown(test_reload, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
