// SPDX-License-Identifier: GPL-2.0-or-later
/* The host interface on a real libevent loop: timers, fd watches, log. */
#include <event2/event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/diag.h"
#include "log/log.h"
#include "plugin/plugin_set.h"

static void count(void *arg)
{
	(*(int *)arg)++;
}

static void test_no_loop(void **state)
{
	const struct ikb_host *h = plugin_host(NULL);
	int n = 0;

	assert_int_equal(h->size, sizeof(struct ikb_host));
	assert_true(IKB_HOST_HAS(h, fd_unwatch));
	assert_non_null(h->get);
	assert_non_null(h->report);
	assert_null(h->timer_add(0, count, &n));
	assert_null(h->fd_watch(0, NULL, NULL));
	/* Cancelling what was never given is harmless. */
	h->timer_cancel(NULL);
	h->fd_unwatch(NULL);
}

static void test_timer_fires_once(void **state)
{
	struct event_base *base = event_base_new();
	const struct ikb_host *h = plugin_host(base);
	int n = 0;

	assert_non_null(h->timer_add(0, count, &n));
	assert_int_equal(n, 0); /* only from the loop */
	assert_int_equal(event_base_loop(base, EVLOOP_ONCE), 0);
	assert_int_equal(n, 1);
	/* One-shot: nothing is left pending. */
	assert_int_equal(event_base_loop(base, EVLOOP_NONBLOCK), 1);
	assert_int_equal(n, 1);
	event_base_free(base);
}

static void test_timer_cancel(void **state)
{
	struct event_base *base = event_base_new();
	const struct ikb_host *h = plugin_host(base);
	int a = 0, b = 0;
	struct ikb_timer *ta = h->timer_add(0, count, &a);

	assert_non_null(h->timer_add(0, count, &b));
	h->timer_cancel(ta);
	assert_int_equal(event_base_loop(base, EVLOOP_ONCE), 0);
	assert_int_equal(a, 0);
	assert_int_equal(b, 1);
	event_base_free(base);
}

/* A long timer is still pending when the loop runs, and then cancelled. */
static void test_timer_not_due(void **state)
{
	struct event_base *base = event_base_new();
	const struct ikb_host *h = plugin_host(base);
	int n = 0;
	struct ikb_timer *t = h->timer_add(60000, count, &n);

	assert_non_null(t);
	assert_int_equal(event_base_loop(base, EVLOOP_NONBLOCK), 0);
	assert_int_equal(n, 0);
	h->timer_cancel(t);
	assert_int_equal(event_base_loop(base, EVLOOP_NONBLOCK), 1);
	event_base_free(base);
}

struct readable {
	int calls, fd;
};

static void on_readable(int fd, void *arg)
{
	struct readable *r = arg;
	char c;

	r->calls++;
	r->fd = fd;
	assert_int_equal(read(fd, &c, 1), 1);
}

static void test_fd_watch(void **state)
{
	struct event_base *base = event_base_new();
	const struct ikb_host *h = plugin_host(base);
	struct readable r = { 0 };
	struct ikb_watch *w;
	int p[2];

	assert_int_equal(pipe(p), 0);
	w = h->fd_watch(p[0], on_readable, &r);
	assert_non_null(w);
	assert_int_equal(write(p[1], "x", 1), 1);
	assert_int_equal(event_base_loop(base, EVLOOP_ONCE), 0);
	assert_int_equal(r.calls, 1);
	assert_int_equal(r.fd, p[0]);
	/* Persistent: a second byte is seen too. */
	assert_int_equal(write(p[1], "y", 1), 1);
	assert_int_equal(event_base_loop(base, EVLOOP_ONCE), 0);
	assert_int_equal(r.calls, 2);
	h->fd_unwatch(w);
	assert_int_equal(write(p[1], "z", 1), 1);
	assert_int_equal(event_base_loop(base, EVLOOP_NONBLOCK), 1);
	assert_int_equal(r.calls, 2);
	close(p[0]);
	close(p[1]);
	event_base_free(base);
}

static void test_log_prefix(void **state)
{
	const struct ikb_host *h = plugin_host(NULL);
	FILE *tmp = tmpfile();
	char line[256] = "";
	int saved = dup(2);

	unsetenv("JOURNAL_STREAM");
	log_setup(LOG_TO_STDERR, IKB_LOG_INFO, "test");
	fflush(stderr);
	dup2(fileno(tmp), 2);
	h->log("kernel-mem", IKB_LOG_WARNING, "spi %u", 42u);
	h->log("kernel-mem", IKB_LOG_DEBUG, "not shown");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	assert_non_null(fgets(line, sizeof(line), tmp));
	assert_string_equal(line, "test: warning: plugin kernel-mem: spi 42\n");
	assert_null(fgets(line, sizeof(line), tmp));
	fclose(tmp);
}

static void test_config_access(void **state)
{
	const struct ikb_host *h = plugin_host(NULL);
	struct ikb_value kv[] = {
		{ "replay-window", "64", "a.conf", 4 },
	};
	struct ikb_section s = { .name = "west",
				 .kind = CFG_CONN,
				 .file = "a.conf",
				 .line = 3,
				 .n = 1,
				 .cap = 1,
				 .kv = kv };
	struct ikb_diag d;

	assert_string_equal(h->section_name(&s), "west");
	assert_ptr_equal(h->get(&s, "replay-window"), &kv[0]);
	assert_null(h->get(&s, "esn"));
	diag_init(&d);
	h->report(&d, &s, &kv[0], IKB_SEV_ERROR, "bad %d", 1);
	assert_int_equal(d.errors, 1);
	assert_string_equal(d.msgs[0].file, "a.conf");
	assert_int_equal(d.msgs[0].line, 4);
	assert_non_null(
		strstr(d.msgs[0].text, "conn west: replay-window=64: bad 1"));
	diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_loop),
		cmocka_unit_test(test_timer_fires_once),
		cmocka_unit_test(test_timer_cancel),
		cmocka_unit_test(test_timer_not_due),
		cmocka_unit_test(test_fd_watch),
		cmocka_unit_test(test_log_prefix),
		cmocka_unit_test(test_config_access),
	};

	return cmocka_run_group_tests_name("plugin host", tests, NULL, NULL);
}
