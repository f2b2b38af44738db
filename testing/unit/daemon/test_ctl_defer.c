// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Deferred answers of the control server (what `ikebana up` waits on): a
 * request answered later keeps the client's next request waiting, the
 * answers come in order, and a client that leaves first is reported
 * gone, so that nobody answers a freed client.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <event2/event.h>
#include <json-c/json.h>

#include "control/client.h"
#include "control/proto.h"
#include "control/server.h"

struct fx {
	char rundir[64];
	struct event_base *base;
	struct ctl_server *srv;
	struct event *later; /* answers the deferred request */
	struct ctl_client *waiting;
	unsigned gone, handled;
};

static void on_later(evutil_socket_t fd, short what, void *arg)
{
	struct fx *f = arg;
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "which", json_object_new_string("later"));
	ctl_client_answer(f->waiting, ctl_response_ok(o));
	f->waiting = NULL;
}

static void on_gone(void *arg)
{
	struct fx *f = arg;

	f->gone++;
	f->waiting = NULL;
}

static struct json_object *handler(void *ctx, const char *cmd,
				   struct json_object *req)
{
	struct fx *f = ctx;
	struct timeval tv = { 0, 50000 };
	struct json_object *o;

	f->handled++;
	if (!strcmp(cmd, "later") || !strcmp(cmd, "never")) {
		f->waiting = ctl_server_defer(f->srv, on_gone, f);
		assert_non_null(f->waiting);
		/* one deferral at a time per client */
		assert_null(ctl_server_defer(f->srv, on_gone, f));
		if (!strcmp(cmd, "later"))
			evtimer_add(f->later, &tv);
		return NULL;
	}
	o = json_object_new_object();
	json_object_object_add(o, "which", json_object_new_string(cmd));
	return ctl_response_ok(o);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->rundir, "/tmp/ikb-ctl-defer-XXXXXX");
	assert_non_null(mkdtemp(f->rundir));
	f->base = event_base_new();
	f->later = evtimer_new(f->base, on_later, f);
	char path[256];

	assert_int_equal(ctl_socket_path(f->rundir, path, sizeof(path)), 0);
	f->srv = ctl_server_open(f->base, path, handler, f);
	assert_non_null(f->srv);
	/* outside a handler there is nothing to defer */
	assert_null(ctl_server_defer(f->srv, on_gone, f));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	ctl_server_close(f->srv);
	event_free(f->later);
	event_base_free(f->base);
	rmdir(f->rundir);
	free(f);
	return 0;
}

/* Runs the loop until the forked client exits; its exit status. */
static int run_until_exit(struct fx *f, pid_t pid)
{
	struct timeval tick = { 0, 10000 };
	int status = -1;

	for (int i = 0; i < 500; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
		event_base_loopexit(f->base, &tick);
		event_base_dispatch(f->base);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return 98;
}

static int send_cmd(int fd, const char *cmd)
{
	struct json_object *req = json_object_new_object();
	size_t len;
	uint8_t *frame;
	int rc;

	json_object_object_add(req, "cmd", json_object_new_string(cmd));
	frame = ctl_frame_encode(req, CTL_REQUEST_MAX, &len);
	json_object_put(req);
	rc = frame && write(fd, frame, len) == (ssize_t)len ? 0 : -1;
	free(frame);
	return rc;
}

/* Reads one response and checks its "which"; 0 when it is want. */
static int expect_answer(int fd, const char *want)
{
	uint8_t buf[4096];
	size_t have = 0, used;
	struct json_object *resp = NULL, *data, *which;
	const char *why;
	ssize_t n;
	int rc = -1;

	while (ctl_frame_decode(buf, have, CTL_RESPONSE_MAX, &resp, &used,
				&why) == CTL_DECODE_NEED_MORE) {
		/* one byte at a time: never eat into the next frame */
		n = read(fd, buf + have, 1);
		if (n <= 0 || ++have == sizeof(buf))
			return -1;
	}
	if (resp && json_object_object_get_ex(resp, "data", &data) &&
	    json_object_object_get_ex(data, "which", &which) &&
	    !strcmp(json_object_get_string(which), want))
		rc = 0;
	json_object_put(resp);
	return rc;
}

/* "later" then "now" in one write: "now" waits for "later"'s answer. */
static void test_order(void **state)
{
	struct fx *f = *state;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = ctl_connect(f->rundir);

		_exit(fd < 0 || send_cmd(fd, "later") || send_cmd(fd, "now") ||
		      expect_answer(fd, "later") || expect_answer(fd, "now"));
	}
	assert_int_equal(run_until_exit(f, pid), 0);
	assert_int_equal(f->handled, 2);
	assert_int_equal(f->gone, 0);
}

/* The client leaves before the answer: gone runs once. */
static void test_gone(void **state)
{
	struct fx *f = *state;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = ctl_connect(f->rundir);

		_exit(fd < 0 || send_cmd(fd, "never"));
	}
	assert_int_equal(run_until_exit(f, pid), 0);
	for (int i = 0; i < 100 && !f->gone; i++)
		event_base_loop(f->base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
	assert_int_equal(f->handled, 1);
	assert_int_equal(f->gone, 1);
	assert_null(f->waiting);
}

/* Closing the server with a request deferred reports it gone too. */
static void test_close_deferred(void **state)
{
	struct fx *f = *state;
	int fd = ctl_connect(f->rundir);

	assert_true(fd >= 0);
	assert_int_equal(send_cmd(fd, "never"), 0);
	for (int i = 0; i < 100 && !f->waiting; i++)
		event_base_loop(f->base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
	assert_non_null(f->waiting);
	ctl_server_close(f->srv);
	f->srv = NULL;
	assert_int_equal(f->gone, 1);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_close_deferred, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("ctl-defer", tests, NULL, NULL);
}
