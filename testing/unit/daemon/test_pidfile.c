// SPDX-License-Identifier: GPL-2.0-or-later
/* The pid file that claims a run directory. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "harness.h"
#include "service/pidfile.h"

static void test_creates_rundir_and_writes_pid(void **state)
{
	char *dir = h_tmpdir(), *run, *path, *s;
	struct pidfile pf;
	struct stat st;
	pid_t other;

	assert_true(asprintf(&run, "%s/a/run", dir) > 0);
	/* The parent is missing too: that is an error, not a mkdir -p. */
	assert_int_equal(pidfile_acquire(&pf, run, &other), -1);
	assert_int_equal(errno, ENOENT);
	free(run);

	assert_true(asprintf(&run, "%s/run", dir) > 0);
	umask(077);
	assert_int_equal(pidfile_acquire(&pf, run, &other), 0);
	umask(022);
	assert_int_equal(stat(run, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_true(asprintf(&path, "%s/ikebanad.pid", run) > 0);
	s = h_slurp(path);
	assert_int_equal(atoi(s), getpid());
	assert_int_equal(pidfile_read(path), getpid());
	free(s);
	pidfile_release(&pf);
	assert_int_equal(access(path, F_OK), -1);
	h_rmrf(dir);
	free(path);
	free(run);
	free(dir);
}

/* The lock decides even within one process (another open file). */
static void test_second_holder_refused(void **state)
{
	char *dir = h_tmpdir();
	struct pidfile a, b;
	pid_t other;

	assert_int_equal(pidfile_acquire(&a, dir, &other), 0);
	assert_int_equal(pidfile_acquire(&b, dir, &other), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(other, getpid());
	/* A refused attempt must not remove the holder's file. */
	assert_int_equal(pidfile_read(a.path), getpid());
	pidfile_release(&a);
	assert_int_equal(pidfile_acquire(&b, dir, &other), 0);
	pidfile_release(&b);
	h_rmrf(dir);
	free(dir);
}

static pid_t dead_pid(void)
{
	pid_t p = fork();
	int st;

	if (p == 0)
		_exit(0);
	waitpid(p, &st, 0);
	return p;
}

static void test_stale_and_recycled(void **state)
{
	char *dir = h_tmpdir(), buf[32];
	struct pidfile pf;
	pid_t other;

	snprintf(buf, sizeof(buf), "%d\n", (int)dead_pid());
	free(h_write(dir, "ikebanad.pid", 0644, buf));
	assert_int_equal(pidfile_acquire(&pf, dir, &other), 0);
	pidfile_release(&pf);

	/* A live pid that is not an ikebanad (this test): recycled. */
	snprintf(buf, sizeof(buf), "%d\n", (int)getppid());
	free(h_write(dir, "ikebanad.pid", 0644, buf));
	assert_int_equal(pidfile_acquire(&pf, dir, &other), 0);
	pidfile_release(&pf);

	/* Garbage is stale too. */
	free(h_write(dir, "ikebanad.pid", 0644, "banana\n"));
	assert_int_equal(pidfile_acquire(&pf, dir, &other), 0);
	pidfile_release(&pf);
	h_rmrf(dir);
	free(dir);
}

static void test_read_rejects_garbage(void **state)
{
	char *dir = h_tmpdir(), *p;

	p = h_write(dir, "x", 0644, "12abc\n");
	assert_int_equal(pidfile_read(p), 0);
	free(p);
	p = h_write(dir, "x", 0644, "-5\n");
	assert_int_equal(pidfile_read(p), 0);
	free(p);
	p = h_write(dir, "x", 0644, "99999999999999\n");
	assert_int_equal(pidfile_read(p), 0);
	free(p);
	p = h_write(dir, "x", 0644, "123\n");
	assert_int_equal(pidfile_read(p), 123);
	free(p);
	h_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_creates_rundir_and_writes_pid),
		cmocka_unit_test(test_second_holder_refused),
		cmocka_unit_test(test_stale_and_recycled),
		cmocka_unit_test(test_read_rejects_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
