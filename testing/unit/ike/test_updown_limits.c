// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The updown runner's default limits (daemon/updown/updown_run.c): a
 * script gets 30 s, then SIGTERM, and 5 s more, then SIGKILL. Without
 * waiting 35 s: this test is linked with -Wl,--wrap=event_add, so the
 * runner's timers reach libevent through __wrap_event_add below, which
 * records the time asked for and arms a thousandth of it. Only the runner
 * runs in this process, so no other timer is shortened.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <event2/event.h>
#include <cmocka.h>

#include "harness.h"
#include "updown/internal.h"

static long long asked_ms[8];
static unsigned nasked;

int __real_event_add(struct event *ev, const struct timeval *tv);
int __wrap_event_add(struct event *ev, const struct timeval *tv);

int __wrap_event_add(struct event *ev, const struct timeval *tv)
{
	long long us;
	struct timeval t;

	if (!tv)
		return __real_event_add(ev, NULL);
	us = (long long)tv->tv_sec * 1000000 + tv->tv_usec;
	if (nasked < 8)
		asked_ms[nasked++] = us / 1000;
	us /= 1000;
	t.tv_sec = (time_t)(us / 1000000);
	t.tv_usec = (suseconds_t)(us % 1000000);
	return __real_event_add(ev, &t);
}

static struct updown_job *hang_job(void)
{
	struct updown_job *j = calloc(1, sizeof(*j));

	assert_non_null(j);
	j->conn = strdup("test");
	j->verb = strdup("up-host");
	/* sleep inherits the ignored SIGTERM: only SIGKILL ends it */
	j->cmd = strdup("trap '' TERM; sleep 60");
	j->env = calloc(1, sizeof(*j->env));
	assert_true(j->conn && j->verb && j->cmd && j->env);
	return j;
}

static void test_default_limits(void **state)
{
	struct event_base *base = event_base_new();
	struct updown_runner *r;
	struct timespec t0, t;

	assert_non_null(base);
	r = updown_runner_new(base, 0, 0); /* 0, 0: the defaults */
	assert_non_null(r);
	log_reset();
	updown_runner_queue(r, hang_job());
	clock_gettime(CLOCK_MONOTONIC, &t0);
	t = t0;
	/* 35 ms of timers; 10 s is the test's limit */
	while (updown_runner_pending(r) && t.tv_sec - t0.tv_sec < 10) {
		assert_true(event_base_loop(base, EVLOOP_ONCE) >= 0);
		clock_gettime(CLOCK_MONOTONIC, &t);
	}
	assert_int_equal(updown_runner_pending(r), 0);
	assert_true(log_has("updown test: up-host: still running after "
			    "30000 ms: SIGTERM"));
	assert_true(log_has("updown test: up-host: still running 5000 ms "
			    "after SIGTERM: SIGKILL"));
	assert_true(nasked >= 2);
	assert_int_equal(asked_ms[0], 30000);
	assert_int_equal(asked_ms[1], 5000);
	updown_runner_free(r);
	event_base_free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_limits),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
