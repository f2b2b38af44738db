// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loss, duplication, malformed and unexpected messages, COOKIEs and the
 * retransmit timeout: the engine drops what it must with a log line and
 * never processes a request twice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/engine.h"

#define FAST "\tretransmit-interval=20\n"
#define SLOW "\tretransmit-interval=20s\n"

static void start(struct net *n)
{
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
}

static bool queue_empty(struct net *n)
{
	return n->q == NULL;
}

/*
 * Lost: west's first IKE_SA_INIT, east's first IKE_SA_INIT response and
 * its first IKE_AUTH response; east answers both retransmits from its
 * response cache.
 */
struct loss {
	bool init_req, init_resp, auth_resp;
};

static unsigned drop_first(struct net *n, int from, unsigned seq,
			   const uint8_t *buf, size_t len)
{
	struct loss *l = n->filter_ctx;
	bool *lost = NULL;

	if (from == WEST && dgram_is(buf, len, 34, false))
		lost = &l->init_req;
	else if (from == EAST && dgram_is(buf, len, 34, true))
		lost = &l->init_resp;
	else if (from == EAST && dgram_is(buf, len, 35, true))
		lost = &l->auth_resp;
	if (!lost || *lost)
		return 1;
	*lost = true;
	return 0;
}

static void test_loss(void **state)
{
	struct net *n = net_new(FAST, NULL, NULL, NULL, NULL);
	struct loss l = { false, false, false };
	struct kdump e;

	n->filter = drop_first;
	n->filter_ctx = &l;
	start(n);
	assert_true(net_run(n, both_up, 5000));
	assert_true(l.init_req && l.init_resp && l.auth_resp);
	assert_true(log_has("retransmitting message 0"));
	assert_true(log_has("retransmitting message 1"));
	assert_true(log_has("resending our response"));
	assert_int_equal(ike_sa_count(n, EAST, NULL), 1);
	kernel_dump(n, EAST, &e);
	assert_int_equal(e.nsa, 2);
	net_free(n);
}

static unsigned hundred(struct net *n, int from, unsigned seq,
			const uint8_t *buf, size_t len)
{
	return from == WEST ? 100 : 1;
}

static void test_duplicates(void **state)
{
	/* no retransmit may blur the count */
	struct net *n = net_new(SLOW, NULL, NULL, NULL, NULL);
	struct kdump w, e;

	n->filter = hundred;
	start(n);
	assert_true(net_run(n, both_up, 10000));
	assert_true(net_run(n, queue_empty, 10000));
	assert_int_equal(ike_sa_count(n, EAST, NULL), 1);
	assert_int_equal(child_count(n, EAST), 1);
	assert_int_equal(ike_sa_count(n, WEST, NULL), 1);
	kernel_dump(n, EAST, &e);
	kernel_dump(n, WEST, &w);
	assert_int_equal(e.nsa, 2);
	assert_int_equal(w.nsa, 2);
	/*
	 * Copies that arrive while the key exchange runs are dropped, the
	 * others answered from the cache: never more answers than copies.
	 */
	assert_in_range(n->p[EAST].sent, 2, 200);
	net_free(n);
}

/* A recorded message: from, exchange, request or response. */
static const struct hdgram *find(struct net *n, int from, uint8_t exch,
				 bool response)
{
	for (unsigned i = 0; i < n->nrec; i++) {
		const struct hdgram *d = &n->rec[i];

		if (d->from == from && d->len > 28 && d->buf[18] == exch &&
		    !!(d->buf[19] & 0x20) == response)
			return d;
	}
	fail_msg("no such message recorded");
	return NULL;
}

enum mangle {
	TRUNCATE,
	BAD_SPI,
	BAD_MSGID,
	BAD_ICV,
	GARBAGE_SK,
	EXCHANGE,
	NO_REQUEST,
	OLD_INIT
};

static const struct {
	enum mangle how;
	const char *log;
} cases[] = {
	{ TRUNCATE, "IKE header" },
	{ BAD_SPI, "no IKE SA for its SPI" },
	{ BAD_MSGID, "request message id 7, expected 2" },
	{ EXCHANGE, "unexpected IKE_INTERMEDIATE request" },
	{ NO_REQUEST, "response without a request" },
	{ OLD_INIT, "IKE_SA_INIT for an SA past it" },
};

static void inject(struct net *n, enum mangle how)
{
	const struct hdgram *d =
		find(n, how == NO_REQUEST ? EAST : WEST,
		     how == OLD_INIT ? 34 : 35, how == NO_REQUEST);
	uint8_t *b = malloc(d->len);
	size_t len = d->len;

	memcpy(b, d->buf, len);
	if (how != OLD_INIT && how != BAD_ICV && how != GARBAGE_SK)
		b[23] = 2; /* the next message id */
	switch (how) {
	case TRUNCATE:
		len = 20;
		break;
	case BAD_SPI:
		b[8] ^= 0xff;
		break;
	case BAD_MSGID:
		b[23] = 7;
		break;
	case BAD_ICV:
		b[len - 1] ^= 1;
		break;
	case GARBAGE_SK:
		for (size_t i = 32; i < len; i++)
			b[i] = (uint8_t)rand();
		break;
	case EXCHANGE:
		b[18] = 43;
		break;
	default:
		break;
	}
	net_inject(n, how == NO_REQUEST ? WEST : EAST, b, len);
	free(b);
}

static void test_malformed(void **state)
{
	struct net *n = net_new("", NULL, NULL, NULL, NULL);

	start(n);
	assert_true(net_run(n, both_up, 5000));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kdump w, e;

		log_reset();
		inject(n, cases[i].how);
		assert_true(net_run(n, queue_empty, 2000));
		if (!log_has("dropped message") || !log_has(cases[i].log))
			fail_msg("case %zu: no log line with \"%s\"", i,
				 cases[i].log);
		assert_true(both_up(n));
		kernel_dump(n, WEST, &w);
		kernel_dump(n, EAST, &e);
		assert_int_equal(w.nsa + e.nsa, 4);
	}
	net_free(n);
}

/*
 * The last request's message ID again: only an authentic retransmit is
 * answered from the cache. Forgeries at that ID (a bad ICV, garbage SK)
 * once each made east send its IKE_AUTH response again.
 */
static void test_forged_retransmit(void **state)
{
	struct net *n = net_new(SLOW, NULL, NULL, NULL, NULL);
	const struct hdgram *d;
	uint8_t *b;
	unsigned sent;

	start(n);
	assert_true(net_run(n, both_up, 5000));
	assert_true(net_run(n, queue_empty, 2000));
	d = find(n, WEST, 35, false);
	b = malloc(d->len);
	memcpy(b, d->buf, d->len);
	log_reset();
	sent = n->p[EAST].sent;
	for (int i = 0; i < 20; i++) {
		b[d->len - 1 - i % 8] ^= (uint8_t)(1 + i); /* the ICV */
		net_inject(n, EAST, b, d->len);
	}
	assert_true(net_run(n, queue_empty, 2000));
	assert_int_equal(n->p[EAST].sent, sent);
	assert_true(log_has("retransmitted request: SK payload"));
	assert_false(log_has("resending our response"));
	/* the request as west sent it: answered again */
	net_inject(n, EAST, d->buf, d->len);
	assert_true(net_run(n, queue_empty, 2000));
	assert_int_equal(n->p[EAST].sent, sent + 1);
	assert_true(log_has("resending our response"));
	assert_true(both_up(n));
	free(b);
	net_free(n);
}

static bool is_auth_req(int from, const uint8_t *buf, size_t len)
{
	return from == WEST && dgram_is(buf, len, 35, false);
}

/* west's first IKE_AUTH request is lost; forged ones come first */
static unsigned drop_auth(struct net *n, int from, unsigned seq,
			  const uint8_t *buf, size_t len)
{
	static struct net *seen;

	if (!is_auth_req(from, buf, len) || seen == n)
		return 1;
	seen = n;
	return 0;
}

static bool auth_sent(struct net *n)
{
	for (unsigned i = 0; i < n->nrec; i++)
		if (is_auth_req(n->rec[i].from, n->rec[i].buf, n->rec[i].len))
			return true;
	return false;
}

/*
 * A bad ICV and a garbage SK body reach the decryption of a half-open
 * SA: dropped, and the genuine retransmit still completes IKE_AUTH.
 */
static void test_bad_sk(void **state)
{
	struct net *n =
		net_new("\tretransmit-interval=1000\n", NULL, NULL, NULL, NULL);

	n->filter = drop_auth;
	start(n);
	assert_true(net_run(n, auth_sent, 5000));
	assert_true(net_run(n, queue_empty, 5000));
	inject(n, BAD_ICV);
	inject(n, GARBAGE_SK);
	assert_true(net_run(n, queue_empty, 2000));
	assert_true(log_has("integrity check failed"));
	assert_int_equal(ike_sa_count(n, EAST, "half-open"), 1);
	assert_true(net_run(n, both_up, 5000));
	net_free(n);
}

static void test_cookie(void **state)
{
	struct net *n =
		net_new(SLOW, NULL, "\tddos-ike-threshold=0\n", NULL, NULL);

	start(n);
	assert_true(net_run(n, both_up, 5000));
	assert_true(log_has("responder asks for a COOKIE"));
	/* IKE_SA_INIT, IKE_SA_INIT with the COOKIE, IKE_AUTH */
	assert_int_equal(n->p[WEST].sent, 3);
	assert_int_equal(n->p[EAST].sent, 3);
	net_free(n);
}

/* ddos-mode=busy asks for a COOKIE below any threshold */
static void test_cookie_busy(void **state)
{
	struct net *n = net_new(SLOW, NULL, "\tddos-mode=busy\n", NULL, NULL);

	start(n);
	assert_true(net_run(n, both_up, 5000));
	assert_true(log_has("responder asks for a COOKIE"));
	assert_int_equal(n->p[WEST].sent, 3);
	net_free(n);
}

/* ddos-mode=unlimited never asks, whatever the threshold */
static void test_cookie_unlimited(void **state)
{
	struct net *n = net_new(
		SLOW, NULL, "\tddos-ike-threshold=0\n\tddos-mode=unlimited\n",
		NULL, NULL);

	start(n);
	assert_true(net_run(n, both_up, 5000));
	assert_false(log_has("responder asks for a COOKIE"));
	/* IKE_SA_INIT, IKE_AUTH */
	assert_int_equal(n->p[WEST].sent, 2);
	assert_int_equal(n->p[EAST].sent, 2);
	net_free(n);
}

/*
 * The COOKIE secret rotates (every 120 s, cookie.c): a COOKIE made with
 * the previous secret is still good, one made two rotations ago is not,
 * and the initiator is asked again. The filter turns east's secret
 * version on as its first COOKIE leaves.
 */
static unsigned rotations;

static unsigned rotate_after_cookie(struct net *n, int from, unsigned seq,
				    const uint8_t *buf, size_t len)
{
	if (from == EAST && dgram_is(buf, len, 34, true) && rotations) {
		n->p[EAST].e->cookie_version += (uint8_t)rotations;
		rotations = 0;
	}
	return 1;
}

static unsigned cookie_run(unsigned turns)
{
	struct net *n =
		net_new(SLOW, NULL, "\tddos-ike-threshold=0\n", NULL, NULL);
	unsigned sent;

	rotations = turns;
	n->filter = rotate_after_cookie;
	start(n);
	assert_true(net_run(n, both_up, 5000));
	sent = n->p[WEST].sent;
	net_free(n);
	return sent;
}

static void test_cookie_rotation(void **state)
{
	/* IKE_SA_INIT, again with the COOKIE, IKE_AUTH */
	assert_int_equal(cookie_run(1), 3);
	/* the COOKIE is refused: one more IKE_SA_INIT with the new one */
	assert_int_equal(cookie_run(2), 4);
}

static bool west_empty(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0;
}

static void test_max_halfopen(void **state)
{
	struct net *n = net_new("\tretransmit-interval=10\n"
				"\tretransmit-timeout=100ms\n",
				NULL, "\tmax-halfopen-ike=0\n", NULL, NULL);

	start(n);
	assert_true(net_run(n, west_empty, 5000));
	assert_true(log_has("max-halfopen-ike reached"));
	assert_int_equal(ike_sa_count(n, EAST, NULL), 0);
	net_free(n);
}

static unsigned drop_all(struct net *n, int from, unsigned seq,
			 const uint8_t *buf, size_t len)
{
	return 0;
}

static void test_timeout(void **state)
{
	struct net *n = net_new("\tretransmit-interval=10\n"
				"\tretransmit-timeout=150ms\n",
				NULL, NULL, NULL, NULL);
	struct kdump w;

	n->filter = drop_all;
	start(n);
	assert_int_equal(ike_sa_count(n, WEST, NULL), 1);
	assert_true(net_run(n, west_empty, 5000));
	assert_true(log_has("no response to message 0"));
	/* 10 + 20 + 40 + 80 (cut to what is left of 150) */
	assert_int_equal(n->p[WEST].sent, 4);
	kernel_dump(n, WEST, &w);
	assert_int_equal(w.nsa, 0);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_loss, net_cleanup),
		cmocka_unit_test_teardown(test_duplicates, net_cleanup),
		cmocka_unit_test_teardown(test_malformed, net_cleanup),
		cmocka_unit_test_teardown(test_bad_sk, net_cleanup),
		cmocka_unit_test_teardown(test_forged_retransmit, net_cleanup),
		cmocka_unit_test_teardown(test_cookie, net_cleanup),
		cmocka_unit_test_teardown(test_cookie_busy, net_cleanup),
		cmocka_unit_test_teardown(test_cookie_unlimited, net_cleanup),
		cmocka_unit_test_teardown(test_cookie_rotation, net_cleanup),
		cmocka_unit_test_teardown(test_timeout, net_cleanup),
		cmocka_unit_test_teardown(test_max_halfopen, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-robust", tests, NULL, NULL);
}
