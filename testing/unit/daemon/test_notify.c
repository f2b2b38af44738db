// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What systemd hears from ikebanad: READY=1 with STATUS=, watchdog pings
 * from the loop, RELOADING=1 then READY=1 on SIGHUP, STOPPING=1.
 */
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <cmocka.h>

#include "harness.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read datagrams until one contains needle; its text goes to buf. */
static bool expect(int fd, const char *needle, char *buf, size_t len)
{
	long long deadline = now_ms() + H_DEADLINE_MS;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;

	while (now_ms() < deadline) {
		if (poll(&p, 1, (int)(deadline - now_ms())) != 1)
			break;
		n = recv(fd, buf, len - 1, 0);
		if (n < 0)
			break;
		buf[n] = '\0';
		if (strstr(buf, needle))
			return true;
	}
	return false;
}

static void test_notify_and_watchdog(void **state)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char *dir = h_tmpdir(), *run, *conf, msg[512];
	struct proc p = { 0 };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/notify", dir);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_true(asprintf(&run, "%s/run", dir) > 0);
	conf = h_write_conf(dir, "ikebana.conf",
			    "config setup\n\tplugins=kernel-mem\n"
			    "conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
			    "\tauto=add\n");
	h_setenv_next("NOTIFY_SOCKET", sa.sun_path);
	h_setenv_next("WATCHDOG_USEC", "100000");
	assert_true(h_start_daemon(&p, dir, run, conf));

	assert_true(expect(fd, "READY=1", msg, sizeof(msg)));
	assert_non_null(strstr(msg, "STATUS=1 conns loaded from"));
	/* Two pings after READY: the timer repeats (every 50 ms here). */
	assert_true(expect(fd, "WATCHDOG=1", msg, sizeof(msg)));
	assert_true(expect(fd, "WATCHDOG=1", msg, sizeof(msg)));

	assert_int_equal(kill(p.pid, SIGHUP), 0);
	assert_true(expect(fd, "RELOADING=1", msg, sizeof(msg)));
	assert_non_null(strstr(msg, "MONOTONIC_USEC="));
	assert_true(expect(fd, "READY=1", msg, sizeof(msg)));

	assert_int_equal(kill(p.pid, SIGTERM), 0);
	assert_true(expect(fd, "STOPPING=1", msg, sizeof(msg)));
	assert_int_equal(h_wait(&p, H_DEADLINE_MS), 0);

	close(fd);
	h_rmrf(dir);
	free(dir);
	free(run);
	free(conf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_notify_and_watchdog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
