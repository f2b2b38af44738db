// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Limits of the control server (issue 19): clients that connect and say
 * nothing cannot lock `ikebana status` out, not for their own uid, not
 * for other users and never for root; and a client that holds a slot
 * without a complete request is closed.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <event2/event.h>
#include <json-c/json.h>

#include "log/log.h"
#include "control/client.h"
#include "control/proto.h"
#include "control/server.h"

/*
 * How long a status may take while the flood holds its connections:
 * under the default 5 s request deadline, so that it is not the deadline
 * that frees a slot.
 */
#define ANSWER_MS 2000
/* What every wait below gives up after: a failure, not a delay. */
#define WAIT_MS 10000
/* More than the 64 clients that once locked everybody out. */
#define FLOOD 200

struct fx {
	char rundir[64];
	struct event_base *base;
	struct ctl_server *srv;
	struct ctl_client *waiting;
	pid_t flooders[8]; /* killed at teardown, even after a failure */
	unsigned nflooders;
};

static void on_gone(void *arg)
{
	((struct fx *)arg)->waiting = NULL;
}

static struct json_object *handler(void *ctx, const char *cmd,
				   struct json_object *req)
{
	struct fx *f = ctx;

	if (!strcmp(cmd, "never")) {
		f->waiting = ctl_server_defer(f->srv, on_gone, f);
		return NULL;
	}
	return ctl_response_ok(NULL);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char sock[128];

	assert_non_null(f);
	strcpy(f->rundir, "/tmp/ikb-ctl-limits-XXXXXX");
	assert_non_null(mkdtemp(f->rundir));
	f->base = event_base_new();
	char path[256];

	assert_int_equal(ctl_socket_path(f->rundir, path, sizeof(path)), 0);
	f->srv = ctl_server_open(f->base, path, handler, f);
	assert_non_null(f->srv);
	/* other uids must reach the socket: the tests that switch uid */
	snprintf(sock, sizeof(sock), "%s/%s", f->rundir, CTL_SOCKET_NAME);
	assert_int_equal(chmod(f->rundir, 0755), 0);
	assert_int_equal(chmod(sock, 0666), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	for (unsigned i = 0; i < f->nflooders; i++) {
		kill(f->flooders[i], SIGKILL);
		waitpid(f->flooders[i], NULL, 0);
	}
	ctl_server_close(f->srv);
	event_base_free(f->base);
	rmdir(f->rundir);
	free(f);
	return 0;
}

/*
 * The test is linked with -Wl,--wrap=clock_gettime: the server's code
 * (and the log's rate limiter) read CLOCK_MONOTONIC here, which a test
 * may stop and move on. The test's own waits read the real clock.
 */
int __real_clock_gettime(clockid_t id, struct timespec *ts);
int __wrap_clock_gettime(clockid_t id, struct timespec *ts);

static bool frozen;
static struct timespec frozen_at;

int __wrap_clock_gettime(clockid_t id, struct timespec *ts)
{
	if (frozen && id == CLOCK_MONOTONIC) {
		*ts = frozen_at;
		return 0;
	}
	return __real_clock_gettime(id, ts);
}

static long long now_ms(void)
{
	struct timespec ts;

	__real_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Run the server's loop until cond(arg), or false after ms. */
static bool loop_until(struct fx *f, bool (*cond)(void *), void *arg, int ms)
{
	struct timeval tick = { 0, 5000 };
	long long end = now_ms() + ms;

	while (!cond(arg)) {
		if (now_ms() >= end)
			return false;
		event_base_loopexit(f->base, &tick);
		event_base_dispatch(f->base);
	}
	return true;
}

static bool readable(void *arg)
{
	struct pollfd p = { .fd = *(int *)arg, .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

/* The server closed fd: EOF (or a reset) and nothing before it. */
static bool at_eof(void *arg)
{
	char c;

	return readable(arg) &&
	       recv(*(int *)arg, &c, 1, MSG_PEEK | MSG_DONTWAIT) <= 0;
}

struct child {
	pid_t pid;
	int status;
};

static bool exited(void *arg)
{
	struct child *ch = arg;
	int st;

	if (waitpid(ch->pid, &st, WNOHANG) != ch->pid)
		return false;
	ch->status = WIFEXITED(st) ? WEXITSTATUS(st) : 99;
	return true;
}

static void become(uid_t uid)
{
	if (uid != getuid() && (setgid(uid) < 0 || setuid(uid) < 0))
		_exit(97);
}

/*
 * A child of uid that opens n connections and sends nothing, then holds
 * them until teardown; returns once all n are connected.
 */
static void flood(struct fx *f, uid_t uid, int n)
{
	int ready[2];
	pid_t pid;

	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		become(uid);
		for (int i = 0; i < n; i++)
			if (ctl_connect(f->rundir) < 0)
				_exit(1);
		(void)!write(ready[1], "r", 1);
		for (;;)
			pause();
	}
	close(ready[1]);
	f->flooders[f->nflooders++] = pid;
	assert_true(loop_until(f, readable, &ready[0], WAIT_MS));
	close(ready[0]);
}

/* Whether a status from uid is answered within ANSWER_MS. */
static bool status_answered(struct fx *f, uid_t uid)
{
	struct child ch = { .pid = fork() };

	assert_true(ch.pid >= 0);
	if (ch.pid == 0) {
		struct json_object *req = json_object_new_object(), *r, *ok;
		const char *why;
		int fd;

		become(uid);
		fd = ctl_connect(f->rundir);
		json_object_object_add(req, "cmd",
				       json_object_new_string("status"));
		_exit(fd < 0 || ctl_call(fd, req, &r, ANSWER_MS, &why) < 0 ||
		      !json_object_object_get_ex(r, "ok", &ok) ||
		      !json_object_get_boolean(ok));
	}
	if (!loop_until(f, exited, &ch, WAIT_MS)) {
		kill(ch.pid, SIGKILL);
		waitpid(ch.pid, NULL, 0);
		return false;
	}
	return ch.status == 0;
}

/* The test's own uid floods, and its own status still gets through. */
static void test_flood_own_uid(void **state)
{
	struct fx *f = *state;

	flood(f, getuid(), FLOOD);
	assert_true(status_answered(f, getuid()));
	assert_true(status_answered(f, getuid()));
}

/* One user floods: another user and root are served. */
static void test_flood_other_uid(void **state)
{
	struct fx *f = *state;

	if (geteuid() != 0)
		skip();
	flood(f, 65534, FLOOD);
	assert_true(status_answered(f, 65533));
	assert_true(status_answered(f, 0));
}

/* Several users fill every slot they may take: root is still served. */
static void test_flood_all_uids(void **state)
{
	struct fx *f = *state;

	if (geteuid() != 0)
		skip();
	for (int i = 0; i < 4; i++)
		flood(f, 65530 + i, FLOOD / 4);
	assert_true(status_answered(f, 0));
	/* and root's own flood does not lock root out either */
	flood(f, 0, FLOOD);
	assert_true(status_answered(f, 0));
}

static void send_cmd(int fd, const char *cmd)
{
	struct json_object *req = json_object_new_object();
	size_t len;
	uint8_t *frame;

	json_object_object_add(req, "cmd", json_object_new_string(cmd));
	frame = ctl_frame_encode(req, CTL_REQUEST_MAX, &len);
	json_object_put(req);
	assert_non_null(frame);
	assert_int_equal(write(fd, frame, len), (ssize_t)len);
	free(frame);
}

static int short_deadline(struct fx *f)
{
	struct ctl_limits l = { .max_clients = 8,
				.per_uid = 4,
				.request_ms = 100 };
	int fd;

	ctl_server_set_limits(f->srv, &l);
	fd = ctl_connect(f->rundir);
	assert_true(fd >= 0);
	return fd;
}

/* Silent, trickling and idle-after-the-answer clients are closed. */
static void test_deadlines(void **state)
{
	struct fx *f = *state;
	uint8_t buf[256];
	int fd = short_deadline(f);

	assert_true(loop_until(f, at_eof, &fd, WAIT_MS));
	close(fd);
	/* a byte at a time does not reset the deadline */
	fd = ctl_connect(f->rundir);
	assert_int_equal(write(fd, "\0\0\0\x10", 4), 4);
	for (int i = 0; i < 50 && !at_eof(&fd); i++) {
		struct timeval t = { 0, 20000 };

		(void)!write(fd, "{", 1);
		event_base_loopexit(f->base, &t);
		event_base_dispatch(f->base);
	}
	assert_true(at_eof(&fd));
	close(fd);
	/* answered, then silent */
	fd = ctl_connect(f->rundir);
	send_cmd(fd, "status");
	assert_true(loop_until(f, readable, &fd, WAIT_MS));
	assert_true(read(fd, buf, sizeof(buf)) > CTL_HDR_LEN);
	assert_true(loop_until(f, at_eof, &fd, WAIT_MS));
	close(fd);
}

static bool answer_owed(void *arg)
{
	return ((struct fx *)arg)->waiting != NULL;
}

static bool answer_owed_ended(void *arg)
{
	return !answer_owed(arg);
}

/* A request answered later (up) is not cut by the deadline. */
static void test_deferred_not_cut(void **state)
{
	struct fx *f = *state;
	int fd = short_deadline(f);

	send_cmd(fd, "never");
	assert_true(loop_until(f, answer_owed, f, WAIT_MS));
	/* many deadlines long: the client must still be there */
	assert_false(loop_until(f, answer_owed_ended, f, 1000));
	assert_false(at_eof(&fd));
	close(fd);
	assert_true(loop_until(f, answer_owed_ended, f, WAIT_MS));
}

static unsigned count_lines(const char *path, const char *needle)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

/*
 * The client messages' log budget: 5 a second (server.c), then one line
 * saying how many were held back. The clock stands still, so that the
 * burst is in one second however slow the build, and is then moved on.
 */
static void test_client_log_rate(void **state)
{
	struct fx *f = *state;
	char log[] = "/tmp/ikb-ctl-log-XXXXXX";
	int fd = mkstemp(log);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(log_file_open(log), 0);
	__real_clock_gettime(CLOCK_MONOTONIC, &frozen_at);
	frozen = true;
	/* 12 over the uid's 32, and status's own connection: 13 closed */
	flood(f, getuid(), 32 + 12);
	assert_true(status_answered(f, getuid()));
	assert_int_equal(count_lines(log, "control: closing a client"), 5);
	assert_int_equal(count_lines(log, "not logged"), 0);
	/*
	 * a second on: the status client has gone, so the uid holds 31;
	 * two more and a status close two in the new second
	 */
	frozen_at.tv_sec++;
	flood(f, getuid(), 2);
	assert_true(status_answered(f, getuid()));
	frozen = false;
	log_file_close();
	assert_int_equal(
		count_lines(log, "8 more control client messages not logged"),
		1);
	assert_int_equal(count_lines(log, "control: closing a client"), 7);
	unlink(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_flood_own_uid, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_flood_other_uid, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_flood_all_uids, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_deadlines, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_client_log_rate, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_deferred_not_cut, setup,
						teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests_name("ctl-limits", tests, NULL, NULL);
}
