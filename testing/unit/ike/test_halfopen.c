// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Half-open IKE SAs (halfopen.c): they expire, so a filled
 * max-halfopen-ike is no lockout; one source address gets a COOKIE past
 * a few and is refused past HALFOPEN_PER_SOURCE, while others still get
 * in.
 */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/engine.h"
#include "ike/msg/msg.h"

#define SLOW "\tretransmit-interval=20s\n"

static void start(struct net *n)
{
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
}

/* A half-open SA on east from addr, as an IKE_SA_INIT would leave. */
static void fake_halfopen(struct net *n, const char *addr, unsigned i)
{
	struct ike_path p = { .lport = 500, .rport = 500 };
	uint8_t spi[8] = {
		0xfa, 0x4e, 0, 0, 0, 0, (uint8_t)(i >> 8), (uint8_t)i
	};

	p.local = n->p[EAST].addr;
	p.remote.family = AF_INET;
	assert_int_equal(inet_pton(AF_INET, addr, p.remote.bytes), 1);
	assert_non_null(ike_sa_new(n->p[EAST].e, "", &p, spi));
}

static unsigned drop_west_auth(struct net *n, int from, unsigned seq,
			       const uint8_t *buf, size_t len)
{
	return !(from == WEST && dgram_is(buf, len, 35, false));
}

static bool east_halfopen(struct net *n)
{
	return ike_sa_count(n, EAST, "half-open") == 1;
}

static bool east_empty(struct net *n)
{
	return ike_sa_count(n, EAST, NULL) == 0;
}

/* No IKE_AUTH ever comes: east deletes its half-open SA in time. */
static void test_expire(void **state)
{
	struct net *n = net_new(SLOW, NULL, NULL, NULL, NULL);

	n->p[EAST].e->halfopen_ms = 200;
	n->filter = drop_west_auth;
	start(n);
	assert_true(net_run(n, east_halfopen, 5000));
	assert_true(net_run(n, east_empty, 5000));
	assert_true(log_has("half-open: no IKE_AUTH in time"));
	assert_int_equal(n->p[EAST].e->halfopen, 0);
	net_free(n);
}

/*
 * Every slot of max-halfopen-ike taken by a sender that never goes on:
 * a real initiator is refused only until those expire.
 */
static void test_no_lockout(void **state)
{
	struct net *n = net_new("\tretransmit-interval=50\n"
				"\tretransmit-timeout=10s\n",
				NULL, "\tmax-halfopen-ike=2\n", NULL, NULL);

	n->p[EAST].e->halfopen_ms = 300;
	fake_halfopen(n, "198.51.100.7", 1);
	fake_halfopen(n, "198.51.100.8", 2);
	start(n);
	assert_true(net_run(n, both_up, 5000));
	assert_true(log_has("max-halfopen-ike reached"));
	net_free(n);
}

/* Past HALFOPEN_COOKIE_SOURCE from one address, it must show a COOKIE. */
static void test_source_cookie(void **state)
{
	struct net *n = net_new(SLOW, NULL, NULL, NULL, NULL);

	for (unsigned i = 0; i < HALFOPEN_COOKIE_SOURCE; i++)
		fake_halfopen(n, "192.0.2.1", i);
	start(n);
	assert_true(net_run(n, both_up, 5000));
	assert_true(log_has("responder asks for a COOKIE"));
	net_free(n);
}

/* ddos-mode=unlimited asks nobody, a busy source neither. */
static void test_source_unlimited(void **state)
{
	struct net *n =
		net_new(SLOW, NULL, "\tddos-mode=unlimited\n", NULL, NULL);

	for (unsigned i = 0; i < HALFOPEN_COOKIE_SOURCE; i++)
		fake_halfopen(n, "192.0.2.1", i);
	start(n);
	assert_true(net_run(n, both_up, 5000));
	assert_false(log_has("responder asks for a COOKIE"));
	net_free(n);
}

static void test_source_limit(void **state)
{
	struct net *n = net_new(SLOW, NULL, NULL, NULL, NULL);
	struct ike_engine *e = n->p[EAST].e;
	struct ikb_addr other = { .family = AF_INET };

	inet_pton(AF_INET, "198.51.100.9", other.bytes);
	for (unsigned i = 0; i < HALFOPEN_PER_SOURCE; i++)
		fake_halfopen(n, "192.0.2.1", i);
	assert_int_equal(halfopen_admit(e, &n->p[WEST].addr),
			 HALFOPEN_SOURCE_FULL);
	assert_int_equal(halfopen_admit(e, &other), HALFOPEN_OK);
	/* the refusal ends with the SAs */
	e->all->ho_since_ms = 0;
	ike_sa_delete(e->all, "test");
	assert_int_equal(halfopen_admit(e, &n->p[WEST].addr), HALFOPEN_COOKIE);
	ike_sa_free_all(e);
	assert_int_equal(e->halfopen, 0);
	assert_int_equal(halfopen_admit(e, &n->p[WEST].addr), HALFOPEN_OK);
	net_free(n);
}

/*
 * The defaults docs/SECURITY.md gives: COOKIEs from the 100th half-open
 * SA on (ddos-ike-threshold=), at most 50000 (max-halfopen-ike=), and
 * each waits 30 s for its IKE_AUTH.
 */
static void test_defaults(void **state)
{
	struct net *n = net_new(SLOW, NULL, NULL, NULL, NULL);
	struct ike_engine *e = n->p[EAST].e;
	struct ikb_addr other = { .family = AF_INET };
	char addr[32];

	assert_int_equal(e->ddos_threshold, 100);
	assert_int_equal(e->max_halfopen, 50000);
	assert_int_equal(e->halfopen_ms, 30000);
	inet_pton(AF_INET, "203.0.113.250", other.bytes);
	/* one each from 99 addresses: no source is busy, none asked */
	for (unsigned i = 0; i < 99; i++) {
		snprintf(addr, sizeof(addr), "198.51.%u.%u", 100 + i / 200,
			 1 + i % 200);
		fake_halfopen(n, addr, i);
	}
	assert_int_equal(e->halfopen, 99);
	assert_int_equal(halfopen_admit(e, &other), HALFOPEN_OK);
	fake_halfopen(n, "198.51.101.1", 99);
	assert_int_equal(halfopen_admit(e, &other), HALFOPEN_COOKIE);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_expire, net_cleanup),
		cmocka_unit_test_teardown(test_no_lockout, net_cleanup),
		cmocka_unit_test_teardown(test_source_cookie, net_cleanup),
		cmocka_unit_test_teardown(test_source_unlimited, net_cleanup),
		cmocka_unit_test_teardown(test_source_limit, net_cleanup),
		cmocka_unit_test_teardown(test_defaults, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-halfopen", tests, NULL, NULL);
}
