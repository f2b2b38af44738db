// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * logfile=: lines go to the file with a timestamp, the file is created
 * 0600 and appended to, reopened after logrotate moved it, and a file that
 * cannot be opened leaves the log where it was. plutodebug= and the
 * command line decide the level.
 */
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "app/daemon.h"
#include "app/log_conf.h"
#include "config/config.h"
#include "config/diag.h"
#include "log/log.h"
#include "log/log_journal.h"
#include "service/opts.h"

struct fx {
	char dir[64];
	char path[128], moved[128];
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = calloc(1, 8192);
	size_t n;

	assert_non_null(buf);
	if (!f)
		return buf;
	n = fread(buf, 1, 8191, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The whole of text must match the extended regular expression re. */
static void assert_matches(const char *text, const char *re)
{
	regex_t r;

	assert_int_equal(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0);
	if (regexec(&r, text, 0, NULL, 0))
		fail_msg("%s\ndoes not match\n%s", text, re);
	regfree(&r);
}

/* "Mar  3 14:05:09.123456: ", as libreswan's plutostderrlog */
#define STAMP \
	"[A-Z][a-z]{2} [ 1-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-6][0-9]\\.[0-9]{6}: "

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/ikb-log-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/ikebanad.log", f->dir);
	snprintf(f->moved, sizeof(f->moved), "%s/ikebanad.log.1", f->dir);
	log_setup(LOG_TO_STDERR, IKB_LOG_INFO, "ikebanad");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	log_file_close();
	unlink(f->path);
	unlink(f->moved);
	rmdir(f->dir);
	free(f);
	return 0;
}

static void test_line(void **state)
{
	struct fx *f = *state;
	struct stat st;
	char *text;

	assert_int_equal(log_file_open(f->path), 0);
	assert_string_equal(log_file_path(), f->path);
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	log_info("hello %d", 42);
	log_debug("not at level info");
	log_warn("%s", "second");
	text = slurp(f->path);
	assert_matches(text, "^" STAMP "ikebanad: info: hello 42\n" STAMP
			     "ikebanad: warning: second\n$");
	free(text);
}

/* O_APPEND: what is there stays; a line too long is cut, not lost. */
static void test_append(void **state)
{
	struct fx *f = *state;
	char long_msg[2000];
	char *text;

	put(f->path, "an earlier run\n");
	assert_int_equal(log_file_open(f->path), 0);
	memset(long_msg, 'x', sizeof(long_msg) - 1);
	long_msg[sizeof(long_msg) - 1] = '\0';
	log_notice("%s", long_msg);
	log_notice("after");
	text = slurp(f->path);
	assert_matches(text, "^an earlier run\n" STAMP
			     "ikebanad: notice: x{1000,1023}\n" STAMP
			     "ikebanad: notice: after\n$");
	free(text);
}

/* logrotate renames the file, then SIGHUP: the reload reopens it. */
static void test_reopen(void **state)
{
	struct fx *f = *state;
	struct stat st;
	char *text;

	assert_int_equal(log_file_open(f->path), 0);
	log_info("before");
	assert_int_equal(rename(f->path, f->moved), 0);
	log_info("moved");
	assert_int_equal(log_file_reopen(), 0);
	log_info("after");
	text = slurp(f->moved);
	assert_matches(text, "^" STAMP "ikebanad: info: before\n" STAMP
			     "ikebanad: info: moved\n$");
	free(text);
	text = slurp(f->path);
	assert_matches(text, "^" STAMP "ikebanad: info: after\n$");
	free(text);
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_string_equal(log_file_path(), f->path);
}

/* A file that cannot be opened changes nothing. */
static void test_open_fails(void **state)
{
	struct fx *f = *state;
	char bad[160];
	char *text;

	snprintf(bad, sizeof(bad), "%s/no-such-dir/x.log", f->dir);
	assert_int_equal(log_file_open(f->path), 0);
	assert_int_equal(log_file_open(bad), -ENOENT);
	assert_string_equal(log_file_path(), f->path);
	log_info("still here");
	text = slurp(f->path);
	assert_matches(text, "^" STAMP "ikebanad: info: still here\n$");
	free(text);
	/* a reopen that fails keeps the open file */
	assert_int_equal(rename(f->path, f->moved), 0);
	assert_int_equal(chmod(f->dir, 0500), 0);
	if (access(f->dir, W_OK) == 0) {
		/* root ignores the mode: nothing to show */
		assert_int_equal(chmod(f->dir, 0700), 0);
	} else {
		assert_int_equal(log_file_reopen(), -EACCES);
		assert_int_equal(chmod(f->dir, 0700), 0);
		log_info("on the moved file");
		text = slurp(f->moved);
		assert_non_null(strstr(text, "on the moved file"));
		free(text);
	}
	log_file_close();
	assert_null(log_file_path());
	assert_int_equal(log_file_reopen(), -EBADF);
	assert_int_equal(log_file_open(bad), -ENOENT);
	assert_null(log_file_path());
}

/* Opened while 0..2 are closed, the file must not take their place. */
static void test_not_stdio(void **state)
{
	struct fx *f = *state;
	int saved = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 10);

	assert_true(saved >= 0);
	close(STDIN_FILENO);
	assert_int_equal(log_file_open(f->path), 0);
	assert_int_equal(fcntl(STDIN_FILENO, F_GETFD), -1);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
	log_info("not on stdin");
	log_file_close();
	assert_int_equal(fcntl(STDIN_FILENO, F_GETFD), 0);
}

static enum ikb_log_level level(const char *setup, const char *arg,
				const char *val)
{
	char *argv[] = { "ikebanad", (char *)arg, (char *)val, NULL };
	int argc = !arg ? 1 : !val ? 2 : 3;
	struct daemon_opts o;
	struct ikb_diag d;
	struct cfg *c = NULL;
	FILE *null = fopen("/dev/null", "we");
	enum ikb_log_level l;

	assert_int_equal(opts_parse(&o, argc, argv, null, null), OPTS_RUN);
	fclose(null);
	diag_init(&d);
	assert_int_equal(
		cfg_parse_buffer("t.conf", setup, strlen(setup), &c, &d), 0);
	l = conf_log_level(&o, c);
	cfg_free(c);
	diag_free(&d);
	return l;
}

static void test_plutodebug(void **state)
{
	static const char all[] = "config setup\n\tplutodebug=all\n";

	assert_int_equal(level("config setup\n", NULL, NULL), IKB_LOG_INFO);
	assert_int_equal(level("config setup\n\tplutodebug=none\n", NULL, NULL),
			 IKB_LOG_INFO);
	assert_int_equal(level("config setup\n\tplutodebug=\"\"\n", NULL, NULL),
			 IKB_LOG_INFO);
	/* private only lets secrets into debug lines (keylog.c) */
	assert_int_equal(
		level("config setup\n\tplutodebug=private\n", NULL, NULL),
		IKB_LOG_INFO);
	assert_int_equal(level(all, NULL, NULL), IKB_LOG_DEBUG);
	assert_int_equal(level("config setup\n\tplutodebug=\"none, crypt\"\n",
			       NULL, NULL),
			 IKB_LOG_DEBUG);
	assert_int_equal(level("config setup\n\tplutodebug=\"private base\"\n",
			       NULL, NULL),
			 IKB_LOG_DEBUG);
	/* the command line wins */
	assert_int_equal(level(all, "--log-level", "notice"), IKB_LOG_NOTICE);
	assert_int_equal(level(all, "--log-level", "info"), IKB_LOG_INFO);
	assert_int_equal(level("config setup\n", "-d", NULL), IKB_LOG_DEBUG);
	assert_int_equal(level("config setup\n\tplutodebug=none\n", "-d", NULL),
			 IKB_LOG_DEBUG);
}

/* The one parser of plutodebug= (config/setup.c): the level's words and keylog's. */
static void test_plutodebug_words(void **state)
{
	static const struct {
		const char *v;
		bool debug, private;
	} cases[] = {
		{ "none", false, false },
		{ "private", false, true },
		{ "PRIVATE", false, false },
		{ "all", true, false },
		{ "none,private", false, true },
		{ "private\tcrypt", true, true },
		{ "noprivate", true, false },
		{ "", false, false },
	};
	struct cfg_setup set;

	cfg_setup_parse(NULL, &set);
	assert_false(set.debug || set.debug_private);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ikb_value v = { "plutodebug", cases[i].v, "t.conf", 2 };
		struct ikb_section s = {
			.name = "setup", .kind = CFG_SETUP, .n = 1, .kv = &v
		};

		cfg_setup_parse(&s, &set);
		assert_int_equal(set.debug, cases[i].debug);
		assert_int_equal(set.debug_private, cases[i].private);
		assert_ptr_equal(set.plutodebug, &v);
	}
}

/* The journal's fields: MESSAGE, PRIORITY, the identifier, the context. */
static void test_journal_fields(void **state)
{
	static struct log_journal_line l;
	struct log_ctx ctx = { "west-east", 7, "192.0.2.2" };
	size_t n = log_journal_fields(&l, 6, "ikebanad",
				      "conn west-east #7: hi", &ctx);

	assert_int_equal(n, 6);
	assert_string_equal(l.text[0], "MESSAGE=conn west-east #7: hi");
	assert_string_equal(l.text[1], "PRIORITY=6");
	assert_string_equal(l.text[2], "SYSLOG_IDENTIFIER=ikebanad");
	assert_string_equal(l.text[3], "IKB_CONN=west-east");
	assert_string_equal(l.text[4], "IKB_SERIAL=7");
	assert_string_equal(l.text[5], "IKB_PEER=192.0.2.2");
	assert_int_equal(l.iov[3].iov_len, strlen("IKB_CONN=west-east"));
	/* without a context, only the line */
	assert_int_equal(log_journal_fields(&l, 3, "ikebanad", "x", NULL), 3);
	ctx.serial = 0;
	ctx.peer = NULL;
	assert_int_equal(log_journal_fields(&l, 3, "ikebanad", "x", &ctx), 4);
}

/* A stderr that is not the journal's stream keeps its text lines. */
static void test_journal_not_stderr(void **state)
{
	struct stat st;
	char js[64];

	assert_int_equal(fstat(STDERR_FILENO, &st), 0);
	unsetenv("JOURNAL_STREAM");
	assert_false(log_journal_is_stderr());
	snprintf(js, sizeof(js), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino + 1);
	setenv("JOURNAL_STREAM", js, 1);
	assert_false(log_journal_is_stderr());
	snprintf(js, sizeof(js), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	setenv("JOURNAL_STREAM", js, 1);
	assert_true(log_journal_is_stderr());
	unsetenv("JOURNAL_STREAM");
}

/*
 * log_ratelimit (what a sender can trigger at will): per_sec lines in one
 * second, the rest counted and said in one line when the next second
 * begins.
 */
static void test_ratelimit(void **state)
{
	struct fx *f = *state;
	struct log_ratelimit rl = { .per_sec = 5, .what = "test lines" };
	struct timespec t;
	unsigned ok = 0;
	char *text;

	assert_int_equal(log_file_open(f->path), 0);
	/* start just after a second began: 1000 tries fit in the rest */
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while (t.tv_nsec > 100000000);
	for (int i = 0; i < 1000; i++)
		ok += log_ratelimit_ok(&rl);
	assert_int_equal(ok, 5);
	assert_int_equal(rl.suppressed, 995);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while (t.tv_sec == rl.window);
	assert_true(log_ratelimit_ok(&rl));
	text = slurp(f->path);
	assert_matches(text, "^" STAMP "ikebanad: notice: 995 more test lines "
			     "not logged\n$");
	free(text);
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_line),
		T(test_append),
		T(test_reopen),
		T(test_open_fails),
		T(test_not_stdio),
		T(test_plutodebug),
		T(test_plutodebug_words),
		T(test_journal_fields),
		T(test_journal_not_stderr),
		T(test_ratelimit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
