// SPDX-License-Identifier: GPL-2.0-or-later
/* The helper pool, driven by a real event_base: no sleeps, no polling. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <event2/event.h>

#include "crypto/algs.h"
#include "crypto/helpers.h"
#include "crypto/ke.h"
#include "tutil.h"

static struct event_base *base;
static pthread_t loop_thread;
static unsigned completed, expected;

struct square {
	unsigned in;
	unsigned long out;
	pthread_t ran_on;
};

static void square_job(void *arg)
{
	struct square *s = arg;

	s->out = (unsigned long)s->in * s->in;
	s->ran_on = pthread_self();
}

static void square_done(void *arg, int status)
{
	struct square *s = arg;

	assert_int_equal(status, 0);
	assert_true(pthread_equal(pthread_self(), loop_thread));
	assert_false(pthread_equal(s->ran_on, loop_thread));
	assert_int_equal(s->out, (unsigned long)s->in * s->in);
	free(s);
	if (++completed == expected)
		event_base_loopbreak(base);
}

static int setup(void **state)
{
	if (nss_setup(state))
		return -1;
	base = event_base_new();
	loop_thread = pthread_self();
	return base ? 0 : -1;
}

static int teardown(void **state)
{
	event_base_free(base);
	return nss_teardown(state);
}

static void run_loop(void)
{
	/* Returns on loopbreak; -1 or 1 (no events) would be a bug. */
	assert_int_equal(event_base_loop(base, 0), 0);
}

static void many_jobs_complete_on_loop(void **state)
{
	completed = 0;
	expected = 200;
	assert_int_equal(helpers_start(3, base), 0);
	for (unsigned i = 0; i < expected; i++) {
		struct square *s = calloc(1, sizeof(*s));

		assert_non_null(s);
		s->in = i;
		assert_int_equal(helpers_submit(square_job, square_done, s), 0);
	}
	run_loop();
	assert_int_equal(completed, expected);
	helpers_stop();
}

struct kejob {
	struct ke *ke;
	int rc;
	struct crypto_err err;
};

static void ke_job(void *arg)
{
	struct kejob *j = arg;

	j->rc = ke_generate(&j->ke, IKEV2_KE_ECP256, &j->err);
}

static void ke_done(void *arg, int status)
{
	struct kejob *j = arg;

	assert_int_equal(status, 0);
	if (j->rc)
		fail_msg("KE on helper: %s", j->err.msg);
	assert_int_equal(ke_public(j->ke).len, 64);
	ke_free(j->ke);
	free(j);
	if (++completed == expected)
		event_base_loopbreak(base);
}

/* NSS key generation from helper threads, results back on the loop. */
static void ke_on_helpers(void **state)
{
	completed = 0;
	expected = 16;
	assert_int_equal(helpers_start(0, base), 0);
	for (unsigned i = 0; i < expected; i++) {
		struct kejob *j = calloc(1, sizeof(*j));

		assert_non_null(j);
		assert_int_equal(helpers_submit(ke_job, ke_done, j), 0);
	}
	run_loop();
	helpers_stop();
}

struct stopjob {
	bool ran;
	int *done_calls;
	int *cancelled;
};

static void stop_job(void *arg)
{
	((struct stopjob *)arg)->ran = true;
}

static void stop_done(void *arg, int status)
{
	struct stopjob *j = arg;

	/* Every job reports exactly once, and says truthfully if it ran. */
	assert_int_equal(status, j->ran ? 0 : -ECANCELED);
	(*j->done_calls)++;
	if (status)
		(*j->cancelled)++;
	free(j);
}

static void stop_reports_every_job(void **state)
{
	int done_calls = 0, cancelled = 0;
	const int n = 500;

	assert_int_equal(helpers_start(1, base), 0);
	for (int i = 0; i < n; i++) {
		struct stopjob *j = calloc(1, sizeof(*j));

		assert_non_null(j);
		j->done_calls = &done_calls;
		j->cancelled = &cancelled;
		assert_int_equal(helpers_submit(stop_job, stop_done, j), 0);
	}
	helpers_stop();
	assert_int_equal(done_calls, n);
	assert_true(cancelled >= 0 && cancelled <= n);
	assert_int_equal(helpers_submit(stop_job, stop_done, NULL), -ESHUTDOWN);
}

static void start_checks(void **state)
{
	assert_true(helpers_default_count() >= 1);
	assert_int_equal(helpers_start(1, NULL), -EINVAL);
	assert_int_equal(helpers_start(1, base), 0);
	assert_int_equal(helpers_start(1, base), -EALREADY);
	assert_int_equal(helpers_submit(NULL, stop_done, NULL), -EINVAL);
	helpers_stop();
	helpers_stop(); /* idempotent */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(many_jobs_complete_on_loop),
		cmocka_unit_test(ke_on_helpers),
		cmocka_unit_test(stop_reports_every_job),
		cmocka_unit_test(start_checks),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
