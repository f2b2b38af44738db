// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Who may use a real ikebanad's control socket, and how the client says
 * what went wrong: the socket's mode, changing commands for root only
 * (logged with who asked), refusals that say why, no daemon at all.
 */
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "control/proto.h"
#include "daemon_fx.h"

/*
 * up/down refuse what they cannot do with a message that says why; the
 * keys stay hidden from a daemon without --debug-private. (Bringing a
 * conn up between two daemons is the netns suite's job.)
 */
static void test_up_down_errors(void **state)
{
	struct fx *f = *state;

	start_daemon(f, &f->d[0], f->rundir);
	expect_cli_error(f, "no conn named 'nosuch' is loaded", "up", "nosuch",
			 NULL);
	expect_cli_error(f, "no conn named 'nosuch' is loaded", "down",
			 "nosuch", NULL);
	expect_cli_error(f, "conn alpha has no IKE SA", "down", "alpha", NULL);
	/* 192.0.2.1 is not an address of this host */
	expect_cli_error(f, "up: conn alpha:", "up", "alpha", NULL);
	expect_cli_error(f, "needs a daemon started with --debug-private",
			 "status", "--private", NULL);
	expect_cli_error(f, NULL, "up", NULL, NULL);
	expect_cli_error(f, NULL, "down", "a", "b");
	stop_daemon(&f->d[0]);
}

/*
 * The control socket is 0660 from the moment it exists (bind under
 * umask 0117, then chmod): root and group ikebana, nobody else. Here,
 * without that group, the socket keeps the daemon's; under systemd,
 * where packaging makes the group, testing/systemd/guest.sh checks it.
 */
static void test_socket_mode(void **state)
{
	struct fx *f = *state;
	char path[256];
	struct stat st;

	start_daemon(f, &f->d[0], f->rundir);
	assert_int_equal(ctl_socket_path(f->rundir, path, sizeof(path)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0660);
	/* group ikebana when it exists, else the daemon's (ours) */
	const struct group *g = getgrnam("ikebana");

	assert_int_equal(st.st_gid, g ? g->gr_gid : getegid());
	stop_daemon(&f->d[0]);
}

/* The CLI as uid 65534 (nobody), which the socket here lets in. */
static int cli_nobody(struct fx *f, char **err, const char *cmd,
		      const char *conn)
{
	char *out;
	char *argv[] = { "/usr/bin/setpriv",
			 "--reuid=65534",
			 "--regid=65534",
			 "--clear-groups",
			 (char *)h_env("IKEBANA"),
			 "--rundir",
			 f->rundir,
			 (char *)cmd,
			 (char *)conn,
			 NULL };
	int rc = h_run(f->dir, &out, err, argv);

	free(out);
	return rc;
}

/*
 * Group ikebana may look, only root may change: down, up, route,
 * unroute, reload and status --private are refused to another uid, and
 * each changing command is logged with who asked (SO_PEERCRED).
 */
static void test_only_root_changes(void **state)
{
	static const char *const changing[] = { "down", "up", "route",
						"unroute", "reload" };
	struct fx *f = *state;
	char path[256], *err, *log;

	if (getuid() != 0)
		skip();
	start_daemon(f, &f->d[0], f->rundir);
	assert_int_equal(ctl_socket_path(f->rundir, path, sizeof(path)), 0);
	/* stand-ins for the group's rights: nobody reaches the socket */
	assert_int_equal(chmod(f->dir, 0755), 0);
	assert_int_equal(chmod(f->rundir, 0755), 0);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(cli_nobody(f, &err, "status", NULL), 0);
	free(err);
	assert_int_equal(cli_nobody(f, &err, "metrics", NULL), 0);
	free(err);
	for (size_t i = 0; i < sizeof(changing) / sizeof(changing[0]); i++) {
		const char *conn =
			strcmp(changing[i], "reload") ? "alpha" : NULL;

		assert_int_not_equal(cli_nobody(f, &err, changing[i], conn), 0);
		if (!strstr(err, "only root may"))
			fail_msg("%s as nobody: %s", changing[i], err);
		free(err);
	}
	/* root's down is let through (and fails for its own reason) */
	expect_cli_error(f, "conn alpha has no IKE SA", "down", "alpha", NULL);
	stop_daemon(&f->d[0]);
	log = h_slurp(f->d[0].err);
	if (!strstr(log, "control: down alpha by uid 65534 pid ") ||
	    !strstr(log, ": refused, only root may") ||
	    !strstr(log, "control: down alpha by uid 0 pid "))
		fail_msg("no log line saying who asked: %s", log);
	free(log);
}

static void test_not_running_message(void **state)
{
	struct fx *f = *state;
	char *out, *err;

	assert_int_equal(cli(f, f->rundir, &out, &err, "status", NULL), 1);
	if (!strstr(err, "cannot reach ikebanad at") ||
	    !strstr(err, f->rundir) || !strstr(err, "is it running?"))
		fail_msg("unclear message: %s", err);
	free(out);
	free(err);
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_up_down_errors),
		T(test_socket_mode),
		T(test_only_root_changes),
		T(test_not_running_message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
