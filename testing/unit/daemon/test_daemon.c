// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebanad as a real process, driven through the built ikebana client and
 * signals: status, reload (good and bad), SIGHUP, SIGTERM, the pid file,
 * several daemons, and hostile control clients.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "build-config.h"
#include "control/client.h"
#include "control/proto.h"

#include "daemon_fx.h"

#define conf_alpha fx_conf_alpha
static const char conf_beta[] =
	CONF_HEAD CONN("alpha", "192.0.2.2") CONN("beta", "192.0.2.3");
/* Line 13, plus the H_CONF_LINES that h_write_conf() adds, has the bad key. */
static const char conf_broken[] =
	CONF_HEAD CONN("alpha", "192.0.2.2") "conn broken\n"
					     "\tleft=192.0.2.1\n"
					     "\tright=192.0.2.9\n"
					     "\tno-such-key=1\n";
#define BROKEN_LINE "16" /* 13 + H_CONF_LINES */

static struct json_object *status_json(struct fx *f, const char *rundir)
{
	char *out, *err;
	struct json_object *j;
	int rc = cli(f, rundir, &out, &err, "status", "--json", NULL);

	if (rc != 0)
		fail_msg("ikebana status --json: exit %d: %s", rc, err);
	j = json_tokener_parse(out);
	if (!j)
		fail_msg("status --json printed no JSON: %s", out);
	free(out);
	free(err);
	return j;
}

static struct json_object *get(struct json_object *o, const char *path)
{
	char buf[128], *save, *k;

	snprintf(buf, sizeof(buf), "%s", path);
	for (k = strtok_r(buf, ".", &save); k && o;
	     k = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(o, k, &o))
			o = NULL;
	return o;
}

static const char *gets(struct json_object *o, const char *path)
{
	return json_object_get_string(get(o, path));
}

static bool has_conn(struct json_object *st, const char *name)
{
	struct json_object *a = get(st, "conns");

	for (size_t i = 0; a && i < json_object_array_length(a); i++)
		if (!strcmp(gets(json_object_array_get_idx(a, i), "name"),
			    name))
			return true;
	return false;
}

static void test_status(void **state)
{
	struct fx *f = *state;
	struct json_object *st, *c, *a;
	char *out, *err;
	bool kmem = false;

	start_daemon(f, &f->d[0], f->rundir);
	st = status_json(f, f->rundir);
	assert_string_equal(gets(st, "daemon.version"), IKB_VERSION);
	assert_int_equal(json_object_get_int(get(st, "daemon.pid")),
			 f->d[0].pid);
	assert_string_equal(gets(st, "daemon.config"), f->conf);
	assert_string_equal(gets(st, "daemon.secrets"), f->secrets);
	assert_string_equal(gets(st, "daemon.rundir"), f->rundir);
	assert_true(json_object_get_int(get(st, "daemon.uptime")) >= 0);
	a = get(st, "plugins");
	for (size_t i = 0; a && i < json_object_array_length(a); i++)
		kmem |= !strcmp(gets(json_object_array_get_idx(a, i), "name"),
				"kernel-mem");
	assert_true(kmem);
	assert_int_equal(json_object_array_length(get(st, "conns")), 1);
	c = json_object_array_get_idx(get(st, "conns"), 0);
	assert_string_equal(gets(c, "name"), "alpha");
	assert_string_equal(gets(c, "auto"), "add");
	assert_string_equal(gets(c, "left"), "192.0.2.1");
	assert_string_equal(gets(c, "right"), "192.0.2.2");
	assert_string_equal(gets(c, "file"), f->conf);
	assert_int_equal(json_object_get_int(get(c, "line")), 4 + H_CONF_LINES);
	assert_true(json_object_is_type(get(st, "ike_sas"), json_type_array));
	assert_int_equal(json_object_array_length(get(st, "ike_sas")), 0);
	json_object_put(st);

	/* The human form carries the same facts. */
	assert_int_equal(cli(f, f->rundir, &out, &err, "status", NULL), 0);
	assert_non_null(strstr(out, "alpha"));
	assert_non_null(strstr(out, "kernel-mem"));
	assert_non_null(strstr(out, "auto=add"));
	free(out);
	free(err);

	/* version shows both ends. */
	assert_int_equal(cli(f, f->rundir, &out, &err, "version", NULL), 0);
	assert_non_null(strstr(out, "ikebana " IKB_VERSION));
	assert_non_null(strstr(out, "ikebanad " IKB_VERSION));
	free(out);
	free(err);

	/* the PSK of setup()'s secrets is in neither form, nor the log */
	assert_int_equal(
		cli(f, f->rundir, &out, &err, "status", "--json", NULL), 0);
	assert_null(strstr(out, "not-so-secret"));
	free(out);
	free(err);
	assert_int_equal(cli(f, f->rundir, &out, &err, "status", NULL), 0);
	assert_null(strstr(out, "not-so-secret"));
	free(out);
	free(err);
	stop_daemon(&f->d[0]);
	out = h_slurp(f->d[0].err);
	assert_null(strstr(out, "not-so-secret"));
	free(out);
}

static void test_reload(void **state)
{
	struct fx *f = *state;
	struct json_object *st;
	char *out, *err;

	start_daemon(f, &f->d[0], f->rundir);
	free(h_write_conf(f->dir, "ikebana.conf", conf_beta));
	assert_int_equal(cli(f, f->rundir, &out, &err, "reload", NULL), 0);
	free(out);
	free(err);
	st = status_json(f, f->rundir);
	assert_true(has_conn(st, "beta"));
	assert_int_equal(json_object_get_int(get(st, "daemon.reloads")), 1);
	json_object_put(st);

	/* A broken file: exit 1, FILE:LINE on stderr, the old conns stay. */
	free(h_write_conf(f->dir, "ikebana.conf", conf_broken));
	assert_int_equal(cli(f, f->rundir, &out, &err, "reload", NULL), 1);
	if (!strstr(err, f->conf) || !strstr(err, ":" BROKEN_LINE ":") ||
	    !strstr(err, "no-such-key"))
		fail_msg("reload error lacks file:line and key: %s", err);
	free(out);
	free(err);
	st = status_json(f, f->rundir);
	assert_true(has_conn(st, "alpha"));
	assert_true(has_conn(st, "beta"));
	assert_false(has_conn(st, "broken"));
	assert_int_equal(json_object_get_int(get(st, "daemon.reloads")), 1);
	json_object_put(st);
	stop_daemon(&f->d[0]);
}

struct hup_arg {
	struct fx *f;
	const char *conn;
};

static bool conn_present(void *v)
{
	struct hup_arg *a = v;
	struct json_object *st = status_json(a->f, a->f->rundir);
	bool r = has_conn(st, a->conn);

	json_object_put(st);
	return r;
}

static void test_sighup(void **state)
{
	struct fx *f = *state;
	struct hup_arg a = { f, "beta" };

	start_daemon(f, &f->d[0], f->rundir);
	free(h_write_conf(f->dir, "ikebana.conf", conf_beta));
	assert_int_equal(kill(f->d[0].pid, SIGHUP), 0);
	assert_true(h_wait_for(conn_present, &a, H_DEADLINE_MS));

	/* A broken reload by signal is logged with file:line; we live on. */
	free(h_write_conf(f->dir, "ikebana.conf", conf_broken));
	assert_int_equal(kill(f->d[0].pid, SIGHUP), 0);
	assert_true(h_wait_contains(f->d[0].err, ":" BROKEN_LINE ":",
				    H_DEADLINE_MS));
	assert_true(h_wait_contains(f->d[0].err, "previous configuration",
				    H_DEADLINE_MS));
	assert_true(conn_present(&a));
	stop_daemon(&f->d[0]);
}

static void test_sigterm_cleans_up(void **state)
{
	struct fx *f = *state;
	char pidfile[512], sock[512];

	start_daemon(f, &f->d[0], f->rundir);
	snprintf(pidfile, sizeof(pidfile), "%s/ikebanad.pid", f->rundir);
	snprintf(sock, sizeof(sock), "%s/ikebana.ctl", f->rundir);
	assert_int_equal(access(pidfile, F_OK), 0);
	assert_int_equal(access(sock, F_OK), 0);
	assert_int_equal(kill(f->d[0].pid, SIGTERM), 0);
	assert_int_equal(h_wait(&f->d[0], H_DEADLINE_MS), 0);
	assert_int_equal(access(pidfile, F_OK), -1);
	assert_int_equal(access(sock, F_OK), -1);
}

static void test_sigint_exits_zero(void **state)
{
	struct fx *f = *state;

	start_daemon(f, &f->d[0], f->rundir);
	assert_int_equal(kill(f->d[0].pid, SIGINT), 0);
	assert_int_equal(h_wait(&f->d[0], H_DEADLINE_MS), 0);
}

static void test_second_daemon_refused(void **state)
{
	struct fx *f = *state;
	char *argv[] = { (char *)h_env("IKEBANAD"),
			 "--nofork",
			 "--rundir",
			 f->rundir,
			 "--config",
			 f->conf,
			 NULL };
	char want[64], *err;
	struct json_object *st;

	start_daemon(f, &f->d[0], f->rundir);
	assert_int_equal(h_spawn(&f->d[1], f->dir, argv), 0);
	assert_int_equal(h_wait(&f->d[1], H_DEADLINE_MS), 1);
	err = h_slurp(f->d[1].err);
	snprintf(want, sizeof(want), "pid %d", (int)f->d[0].pid);
	if (!strstr(err, "another ikebanad") || !strstr(err, want))
		fail_msg("unclear refusal: %s", err);
	free(err);
	/* The first one is untouched: same pid, socket still answers. */
	st = status_json(f, f->rundir);
	assert_int_equal(json_object_get_int(get(st, "daemon.pid")),
			 f->d[0].pid);
	json_object_put(st);
	stop_daemon(&f->d[0]);
}

static void test_two_rundirs(void **state)
{
	struct fx *f = *state;
	char *run2, *conf2;
	struct json_object *s1, *s2;

	assert_true(asprintf(&run2, "%s/run2", f->dir) > 0);
	/* Its own IKE ports: both daemons share one network namespace. */
	conf2 = h_write_conf(f->dir, "ikebana2.conf", conf_alpha);
	start_daemon(f, &f->d[0], f->rundir);
	assert_true(h_start_daemon(&f->d[1], f->dir, run2, conf2));
	free(conf2);
	s1 = status_json(f, f->rundir);
	s2 = status_json(f, run2);
	assert_int_equal(json_object_get_int(get(s1, "daemon.pid")),
			 f->d[0].pid);
	assert_int_equal(json_object_get_int(get(s2, "daemon.pid")),
			 f->d[1].pid);
	assert_string_equal(gets(s2, "daemon.rundir"), run2);
	json_object_put(s1);
	json_object_put(s2);
	assert_int_equal(kill(f->d[1].pid, SIGTERM), 0);
	assert_int_equal(h_wait(&f->d[1], H_DEADLINE_MS), 0);
	/* Stopping one leaves the other running. */
	s1 = status_json(f, f->rundir);
	json_object_put(s1);
	free(run2);
}

static void test_stale_pidfile_replaced(void **state)
{
	struct fx *f = *state;
	struct proc dead;
	char *argv[] = { "/bin/true", NULL }, pid[32];

	/* A pid that surely is gone: a child we started and reaped. */
	assert_int_equal(h_spawn(&dead, f->dir, argv), 0);
	snprintf(pid, sizeof(pid), "%d\n", (int)dead.pid);
	assert_int_equal(h_wait(&dead, H_DEADLINE_MS), 0);
	assert_int_equal(mkdir(f->rundir, 0755), 0);
	free(h_write(f->rundir, "ikebanad.pid", 0644, pid));
	start_daemon(f, &f->d[0], f->rundir);
}

static void test_bad_config_exits_1(void **state)
{
	struct fx *f = *state;
	char *argv[] = { (char *)h_env("IKEBANAD"),
			 "--nofork",
			 "--rundir",
			 f->rundir,
			 "--config",
			 f->conf,
			 NULL };
	char *err;

	free(h_write_conf(f->dir, "ikebana.conf", conf_broken));
	assert_int_equal(h_spawn(&f->d[0], f->dir, argv), 0);
	/* EX_CONFIG: the unit's RestartPreventExitStatus= */
	assert_int_equal(h_wait(&f->d[0], H_DEADLINE_MS), EX_CONFIG);
	err = h_slurp(f->d[0].err);
	if (!strstr(err, f->conf) || !strstr(err, ":" BROKEN_LINE ": error"))
		fail_msg("no FILE:LINE error: %s", err);
	free(err);
	/* Nothing is left behind. */
	assert_true(asprintf(&err, "%s/ikebanad.pid", f->rundir) > 0);
	assert_int_equal(access(err, F_OK), -1);
	free(err);
}

/*
 * logfile= (here by its alias plutostderrlog=): from the loaded config on,
 * the log goes to the file, created 0600; SIGHUP reopens it (logrotate);
 * a file that cannot be opened is said in the log as it was, which stays.
 */
static void test_logfile(void **state)
{
	struct fx *f = *state;
	char *log, *moved, *text, *s;
	struct stat st;

	assert_true(asprintf(&log, "%s/ikebanad.log", f->dir) > 0);
	assert_true(asprintf(&moved, "%s/ikebanad.log.1", f->dir) > 0);
	assert_true(
		asprintf(&text,
			 "config setup\n\tplutostderrlog=%s\n"
			 "\tplugins=kernel-mem\n\n" CONN("alpha", "192.0.2.2"),
			 log) > 0);
	free(h_write_conf(f->dir, "ikebana.conf", text));
	free(text);
	start_daemon(f, &f->d[0], f->rundir);
	assert_true(h_wait_contains(log, " started (pid ", H_DEADLINE_MS));
	assert_int_equal(stat(log, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	s = h_slurp(f->d[0].err);
	if (!strstr(s, "switching the log to that file") ||
	    strstr(s, " started (pid "))
		fail_msg("stderr after logfile=: %s", s);
	free(s);

	/* logrotate: the file is moved, then SIGHUP */
	assert_int_equal(rename(log, moved), 0);
	assert_int_equal(kill(f->d[0].pid, SIGHUP), 0);
	assert_true(h_wait_contains(log, "reloaded: ", H_DEADLINE_MS));
	s = h_slurp(moved);
	assert_non_null(strstr(s, " started (pid "));
	assert_null(strstr(s, "reloading"));
	free(s);

	assert_true(
		asprintf(&text,
			 "config setup\n\tlogfile=%s/no-such-dir/x.log\n"
			 "\tplugins=kernel-mem\n\n" CONN("alpha", "192.0.2.2"),
			 f->dir) > 0);
	free(h_write_conf(f->dir, "ikebana.conf", text));
	free(text);
	assert_int_equal(kill(f->d[0].pid, SIGHUP), 0);
	assert_true(h_wait_contains(
		log,
		"/no-such-dir/x.log: cannot open: No such file or directory; "
		"logging on here",
		H_DEADLINE_MS));
	stop_daemon(&f->d[0]);
	s = h_slurp(log);
	assert_non_null(strstr(s, "stopped"));
	free(s);
	free(log);
	free(moved);
}

/* Start-up goes on where it logged; plutodebug= raises the level. */
static void test_logfile_unopenable(void **state)
{
	struct fx *f = *state;
	char *text, *s;

	assert_true(
		asprintf(&text,
			 "config setup\n\tlogfile=%s/no-such-dir/x.log\n"
			 "\tplutodebug=all\n"
			 "\tplugins=kernel-mem\n\n" CONN("alpha", "192.0.2.2"),
			 f->dir) > 0);
	free(h_write_conf(f->dir, "ikebana.conf", text));
	free(text);
	start_daemon(f, &f->d[0], f->rundir);
	assert_true(
		h_wait_contains(f->d[0].err, " started (pid ", H_DEADLINE_MS));
	assert_true(h_wait_contains(f->d[0].err,
				    "debug: control: ", H_DEADLINE_MS));
	s = h_slurp(f->d[0].err);
	if (!strstr(s, "/no-such-dir/x.log: cannot open: No such file or "
		       "directory; logging on here") ||
	    !strstr(s, "plutodebug=all: logging at level debug"))
		fail_msg("stderr lacks the logfile= error or the level: %s", s);
	free(s);
	stop_daemon(&f->d[0]);
}

static bool gone(void *path)
{
	return access(path, F_OK) < 0;
}

/* Without --nofork: errors reach the caller's stderr and the exit code. */
static void test_detach(void **state)
{
	struct fx *f = *state;
	char *argv[] = { (char *)h_env("IKEBANAD"),
			 "--rundir",
			 f->rundir,
			 "--config",
			 f->conf,
			 NULL };
	char pidpath[512];
	char *err, *s;
	struct proc p;
	pid_t pid;

	free(h_write_conf(f->dir, "ikebana.conf", conf_broken));
	assert_int_equal(h_spawn(&p, f->dir, argv), 0);
	/* the detached daemon's own status reaches the starter */
	assert_int_equal(h_wait(&p, H_DEADLINE_MS), EX_CONFIG);
	err = h_slurp(p.err);
	if (!strstr(err, ":" BROKEN_LINE ": error"))
		fail_msg("detaching start lost the config errors: %s", err);
	free(err);

	free(h_write_conf(f->dir, "ikebana.conf", conf_alpha));
	assert_int_equal(h_spawn(&p, f->dir, argv), 0);
	assert_int_equal(h_wait(&p, H_DEADLINE_MS), 0);
	/* The starter returned only once the daemon was ready. */
	snprintf(pidpath, sizeof(pidpath), "%s/ikebanad.pid", f->rundir);
	s = h_slurp(pidpath);
	pid = (pid_t)atoi(s);
	free(s);
	assert_true(pid > 0 && pid != p.pid);
	assert_true(h_wait_ready(f->rundir, NULL, H_DEADLINE_MS));
	/* Not our child: signal it and wait for its pid file to go. */
	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_true(h_wait_for(gone, pidpath, H_DEADLINE_MS));
}

static int raw_connect(const char *rundir)
{
	int fd = ctl_connect(rundir);

	assert_true(fd >= 0);
	return fd;
}

static struct json_object *raw_exchange(int fd, const void *buf, size_t n)
{
	uint8_t hdr[4], *body;
	size_t len, used;
	struct json_object *r = NULL;
	const char *why;
	ssize_t got;
	size_t have = 0;

	assert_int_equal(send(fd, buf, n, MSG_NOSIGNAL), (ssize_t)n);
	for (have = 0; have < 4; have += (size_t)got) {
		got = recv(fd, hdr + have, 4 - have, 0);
		assert_true(got > 0);
	}
	len = (size_t)hdr[0] << 24 | hdr[1] << 16 | hdr[2] << 8 | hdr[3];
	body = malloc(4 + len);
	memcpy(body, hdr, 4);
	for (have = 0; have < len; have += (size_t)got) {
		got = recv(fd, body + 4 + have, len - have, 0);
		assert_true(got > 0);
	}
	assert_int_equal(ctl_frame_decode(body, 4 + len, CTL_RESPONSE_MAX, &r,
					  &used, &why),
			 CTL_DECODE_OK);
	free(body);
	return r;
}

static void expect_error(int fd, const char *body, const char *needle)
{
	size_t n = strlen(body);
	uint8_t *b = malloc(4 + n);
	struct json_object *r;

	b[0] = 0;
	b[1] = 0;
	b[2] = (uint8_t)(n >> 8);
	b[3] = (uint8_t)n;
	memcpy(b + 4, body, n);
	r = raw_exchange(fd, b, 4 + n);
	assert_false(json_object_get_boolean(get(r, "ok")));
	if (!strstr(gets(r, "error"), needle))
		fail_msg("error '%s' lacks '%s'", gets(r, "error"), needle);
	json_object_put(r);
	free(b);
}

static void test_hostile_clients(void **state)
{
	struct fx *f = *state;
	uint8_t huge[4] = { 0x7f, 0xff, 0xff, 0xff };
	struct json_object *r;
	char c;
	int fd;

	start_daemon(f, &f->d[0], f->rundir);
	fd = raw_connect(f->rundir);
	expect_error(fd, "{\"cmd\":", "malformed");
	expect_error(fd, "[1,2]", "JSON object");
	expect_error(fd, "{\"cmd\":5}", "cmd");
	expect_error(fd, "{\"cmd\":\"frobnicate\"}", "unknown command");
	/* The stream is still in sync after all that. */
	expect_error(fd, "{}", "cmd");
	/* An oversize header is answered, then the connection closes. */
	r = raw_exchange(fd, huge, sizeof(huge));
	assert_false(json_object_get_boolean(get(r, "ok")));
	json_object_put(r);
	assert_int_equal(recv(fd, &c, 1, 0), 0);
	close(fd);
	/* A client that leaves mid-frame does no harm. */
	fd = raw_connect(f->rundir);
	assert_int_equal(send(fd, "\0\0\0\x10{\"c", 7, MSG_NOSIGNAL), 7);
	close(fd);
	assert_true(h_wait_ready(f->rundir, &f->d[0], H_DEADLINE_MS));
	stop_daemon(&f->d[0]);
}

static void test_many_clients(void **state)
{
	struct fx *f = *state;
	enum { N = 32 };
	int fds[N];
	struct json_object *req = json_object_new_object(), *r;
	const char *why;

	start_daemon(f, &f->d[0], f->rundir);
	json_object_object_add(req, "cmd", json_object_new_string("status"));
	/* All connected at once, then served one by one. */
	for (int i = 0; i < N; i++)
		fds[i] = raw_connect(f->rundir);
	for (int i = N - 1; i >= 0; i--) {
		assert_int_equal(ctl_call(fds[i], req, &r, H_DEADLINE_MS, &why),
				 0);
		assert_true(json_object_get_boolean(get(r, "ok")));
		json_object_put(r);
		close(fds[i]);
	}
	json_object_put(req);
	stop_daemon(&f->d[0]);
}

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Issue 19: 64 connections that said nothing locked `ikebana status` out
 * for as long as they stayed. Now status is answered at once, well
 * before the 5 s the daemon gives a silent client.
 */
static void test_idle_clients(void **state)
{
	struct fx *f = *state;
	enum { N = 200 };
	int fds[N];
	char *out, *err;
	long long t0;
	int rc;

	start_daemon(f, &f->d[0], f->rundir);
	for (int i = 0; i < N; i++)
		fds[i] = raw_connect(f->rundir);
	t0 = mono_ms();
	rc = cli(f, f->rundir, &out, &err, "status", NULL);
	if (rc != 0 || mono_ms() - t0 > 2500)
		fail_msg("status with %d idle clients: exit %d after %lld ms: "
			 "%s",
			 N, rc, mono_ms() - t0, err);
	free(out);
	free(err);
	for (int i = 0; i < N; i++)
		close(fds[i]);
	stop_daemon(&f->d[0]);
}

/* cli(...) must exit 1 with needle on stderr. */
int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_status),
		T(test_reload),
		T(test_sighup),
		T(test_sigterm_cleans_up),
		T(test_sigint_exits_zero),
		T(test_second_daemon_refused),
		T(test_two_rundirs),
		T(test_stale_pidfile_replaced),
		T(test_bad_config_exits_1),
		T(test_detach),
		T(test_logfile),
		T(test_logfile_unopenable),
		T(test_hostile_clients),
		T(test_many_clients),
		T(test_idle_clients),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
