// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host names in left=/right= (daemon/ike/conn/host.c, resolve.c) over the
 * harness's fake resolver: an initiation waits in its resolving state,
 * sending nothing; a name that does not resolve fails its conn alone,
 * saying the host and the answer; names are asked again at each
 * initiation and when the peer is lost; a responder matches a peer at
 * the address its name resolved to; status shows name, address, when.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "harness.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"

/* FAILED events west heard, the last one's why */
static struct {
	unsigned failed;
	char why[512];
} heard;

static void hear(void *ctx, const struct ike_event *ev)
{
	if (ev->kind != IKE_EVENT_FAILED)
		return;
	heard.failed++;
	snprintf(heard.why, sizeof(heard.why), "%s", ev->why ? ev->why : "");
}

static struct net *named(const char *west_conn, const char *east_setup)
{
	struct net *n;

	harness_west_right = "east.test";
	n = net_new(west_conn, NULL, east_setup, NULL, NULL);
	harness_west_right = NULL;
	memset(&heard, 0, sizeof(heard));
	assert_non_null(ike_engine_subscribe(n->p[WEST].e, hear, NULL));
	return n;
}

static bool west_failed(struct net *n)
{
	return heard.failed > 0;
}

/* west's hosts of conn, as status shows them */
static struct json_object *host_of(struct net *n, const char *conn)
{
	struct json_object *a = ike_engine_hosts(n->p[WEST].e, conn);
	struct json_object *h =
		json_object_get(json_object_array_get_idx(a, 0));

	json_object_put(a);
	assert_non_null(h);
	return h;
}

static const char *field(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && v ?
		       json_object_get_string(v) :
		       NULL;
}

/* The name is typed in the compiled conn; the config check did no DNS. */
static void test_typed(void **state)
{
	struct net *n = named(NULL, NULL);
	const struct conn *c = engine_conn(n->p[WEST].e, "test");

	/* view[1]: left (west) is local, the peer's end is right= */
	assert_int_equal(c->view[1].remote.host.kind, IKE_HOST_NAME);
	assert_string_equal(c->view[1].remote.host.name, "east.test");
	assert_int_equal(c->view[1].remote.host.family, AF_INET);
	assert_int_equal(c->view[1].local.host.kind, IKE_HOST_ADDR);
	assert_int_equal(c->view_rc[1], 0);
	net_free(n);
}

static bool west_resolving(struct net *n)
{
	return ike_sa_count(n, WEST, "resolving") == 1;
}

/* An initiation waits for its name, sends nothing meanwhile, then goes. */
static void test_resolving_state(void **state)
{
	struct ikb_error err = { "" };
	struct net *n;
	char buf[64];

	hdns_set("east.test", "192.0.2.2");
	hdns_hang("east.test", true);
	n = named(NULL, NULL);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, west_resolving, 200));
	assert_false(net_run(n, both_up, 200)); /* the lookup hangs */
	assert_int_equal(n->p[WEST].sent, 0);
	assert_string_equal(
		status_str(n, WEST, false, "state", buf, sizeof(buf)),
		"resolving");
	hdns_release();
	assert_true(net_run(n, both_up, 3000));
	assert_string_equal(
		status_str(n, WEST, false, "remote", buf, sizeof(buf)),
		"192.0.2.2");
	assert_string_equal(
		status_str(n, WEST, false, "remote_host", buf, sizeof(buf)),
		"east.test");
	assert_non_null(
		status_str(n, WEST, false, "resolved_at", buf, sizeof(buf)));
	assert_true(log_has("right=east.test is 192.0.2.2"));
	net_free(n);
}

#define BAD                                                    \
	"\nconn bad\n\tleft=192.0.2.1\n\tright=nowhere.test\n" \
	"\tleftid=@west\n\trightid=@east\n\tauthby=secret\n"   \
	"\nconn slow\n\tleft=192.0.2.1\n\tright=slow.test\n"   \
	"\tleftid=@west\n\trightid=@east\n\tauthby=secret\n"

/* NXDOMAIN fails that conn, naming host and answer; the others go on. */
static void test_nxdomain_one_conn(void **state)
{
	struct ikb_error err = { "" };
	struct json_object *h;
	struct net *n;

	hdns_set("east.test", "192.0.2.2");
	hdns_hang("slow.test", true);
	n = named(BAD, NULL);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "bad", &err), 0);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "slow", &err), 0);
	assert_true(net_run(n, west_failed, 2000));
	assert_non_null(strstr(heard.why, "right=nowhere.test"));
	assert_non_null(strstr(heard.why, "NXDOMAIN"));
	assert_true(log_has("conn bad: right=nowhere.test: NXDOMAIN"));
	/* the conn of a good name comes up while slow.test hangs */
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 3000));
	assert_int_equal(ike_sa_count(n, WEST, "resolving"), 1);
	h = host_of(n, "bad");
	assert_string_equal(field(h, "error"), "NXDOMAIN");
	assert_null(field(h, "addr"));
	assert_non_null(field(h, "resolved_at"));
	json_object_put(h);
	h = host_of(n, "slow");
	assert_true(json_object_get_boolean(
		json_object_object_get(h, "resolving")));
	json_object_put(h);
	assert_int_equal(heard.failed, 1);
	net_free(n);
}

static bool two_up(struct net *n)
{
	return ike_sa_count(n, WEST, "established") == 1 &&
	       hdns_lookups("east.test") >= 3;
}

static bool none(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0 &&
	       ike_sa_count(n, EAST, NULL) == 0;
}

static bool loaded(struct net *n)
{
	struct json_object *h = host_of(n, "test");
	bool done = field(h, "resolved_at") != NULL;

	json_object_put(h);
	return done;
}

/*
 * Each initiation asks again: at load, at the first up, at the second
 * (a lookup in flight would count as fresh: not here).
 */
static void test_each_initiation(void **state)
{
	struct ikb_error err = { "" };
	struct net *n;

	hdns_set("east.test", "192.0.2.2");
	n = named(NULL, NULL);
	assert_true(net_run(n, loaded, 1000));
	assert_int_equal(hdns_lookups("east.test"), 1);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 3000));
	assert_int_equal(hdns_lookups("east.test"), 2);
	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, none, 3000));
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, two_up, 3000));
	net_free(n);
}

static bool moved(struct net *n)
{
	struct json_object *h = host_of(n, "test");
	const char *a = field(h, "addr");
	bool yes = a && !strcmp(a, "192.0.2.8");

	json_object_put(h);
	return yes;
}

/* A reload asks every name again; until the answer, the old one holds. */
static void test_reload_refreshes(void **state)
{
	struct net *n;
	struct json_object *h;

	hdns_set("east.test", "192.0.2.2");
	n = named(NULL, NULL);
	assert_true(net_run(n, loaded, 1000));
	hdns_set("east.test", "192.0.2.8");
	hdns_hang("east.test", true);
	ike_engine_set_conf(n->p[WEST].e, &n->p[WEST].lc);
	assert_int_equal(hdns_lookups("east.test"), 2);
	h = host_of(n, "test");
	assert_string_equal(field(h, "addr"), "192.0.2.2");
	json_object_put(h);
	hdns_release();
	assert_true(net_run(n, moved, 1000));
	net_free(n);
}

/* drops everything while *(bool *)n->filter_ctx */
static unsigned blackhole(struct net *n, int from, unsigned seq,
			  const uint8_t *buf, size_t len)
{
	return *(bool *)n->filter_ctx ? 0 : 1;
}

static bool sent_to_new(struct net *n)
{
	char a[64];

	return ike_sa_count(n, WEST, "IKE_SA_INIT sent") == 1 &&
	       n->p[WEST].last_dst.family == AF_INET &&
	       !strcmp(status_str(n, WEST, false, "remote", a, sizeof(a)),
		       "192.0.2.9");
}

#define DPD                                                       \
	"\tauto=start\n\tdpddelay=1s\n\tretransmit-interval=50\n" \
	"\tretransmit-timeout=1s\n"

/* The peer is lost (DPD): its name is asked again, the new address used. */
static void test_dpd_reresolves(void **state)
{
	bool drop = false;
	unsigned before;
	struct net *n;

	hdns_set("east.test", "192.0.2.2");
	n = named(DPD, NULL);
	n->filter = blackhole;
	n->filter_ctx = &drop;
	ike_engine_start_auto(n->p[WEST].e);
	assert_true(net_run(n, both_up, 3000));
	before = hdns_lookups("east.test");
	/* the peer moves: its old address answers no more */
	hdns_set("east.test", "192.0.2.9");
	drop = true;
	assert_true(net_run(n, sent_to_new, 8000));
	assert_true(log_has("peer is dead"));
	assert_true(hdns_lookups("east.test") > before);
	assert_true(log_has("right=east.test is 192.0.2.9"));
	net_free(n);
}

/* left=%defaultroute: this host's end resolves, then the view is ours. */
static void test_defaultroute(void **state)
{
	struct ikb_error err = { "" };
	struct net *n;
	char buf[64];

	hdns_set("%defaultroute", "192.0.2.1");
	harness_west_left = "%defaultroute";
	n = net_new(NULL, NULL, NULL, NULL, NULL);
	harness_west_left = NULL;
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 3000));
	assert_string_equal(
		status_str(n, WEST, false, "local", buf, sizeof(buf)),
		"192.0.2.1");
	assert_string_equal(
		status_str(n, WEST, false, "local_host", buf, sizeof(buf)),
		"%defaultroute");
	assert_true(log_has("conn test: left=%defaultroute is 192.0.2.1"));
	net_free(n);
	/* no default route: up fails, saying so */
	hdns_fail("%defaultroute", -ENETUNREACH, "no default route");
	harness_west_left = "%defaultroute";
	n = net_new(NULL, NULL, NULL, NULL, NULL);
	harness_west_left = NULL;
	memset(&heard, 0, sizeof(heard));
	assert_non_null(ike_engine_subscribe(n->p[WEST].e, hear, NULL));
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, west_failed, 2000));
	assert_non_null(
		strstr(heard.why, "left=%defaultroute: no default route"));
	net_free(n);
}

/* A responder accepts a peer named by left= at the address it resolved. */
static void test_responder_name(void **state)
{
	struct ikb_error err = { "" };
	struct json_object *a, *h;
	struct net *n;

	hdns_set("west.test", "192.0.2.1");
	harness_east_left = "west.test";
	n = net_new(NULL, NULL, NULL, NULL, NULL);
	harness_east_left = NULL;
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 3000));
	a = ike_engine_hosts(n->p[EAST].e, "test");
	h = json_object_array_get_idx(a, 0);
	assert_string_equal(field(h, "host"), "west.test");
	assert_string_equal(field(h, "addr"), "192.0.2.1");
	assert_string_equal(field(h, "side"), "left");
	json_object_put(a);
	net_free(n);
}

/* ... and no peer at all while the name does not resolve. */
static void test_responder_unresolved(void **state)
{
	struct ikb_error err = { "" };
	struct net *n;

	hdns_fail("west.test", -EAGAIN, "SERVFAIL");
	harness_east_left = "west.test";
	n = net_new("\tretransmit-timeout=1s\n", NULL, NULL, NULL, NULL);
	harness_east_left = NULL;
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_false(net_run(n, both_up, 1500));
	assert_true(log_has("conn test: left=west.test: SERVFAIL"));
	assert_int_equal(ike_sa_count(n, EAST, "established"), 0);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_typed, net_cleanup),
		cmocka_unit_test_teardown(test_resolving_state, net_cleanup),
		cmocka_unit_test_teardown(test_nxdomain_one_conn, net_cleanup),
		cmocka_unit_test_teardown(test_each_initiation, net_cleanup),
		cmocka_unit_test_teardown(test_reload_refreshes, net_cleanup),
		cmocka_unit_test_teardown(test_dpd_reresolves, net_cleanup),
		cmocka_unit_test_teardown(test_defaultroute, net_cleanup),
		cmocka_unit_test_teardown(test_responder_name, net_cleanup),
		cmocka_unit_test_teardown(test_responder_unresolved,
					  net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-dns", tests, NULL, NULL);
}
