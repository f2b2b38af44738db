// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * After start-up ikebanad holds exactly CAP_NET_ADMIN and
 * CAP_NET_BIND_SERVICE, and that is enough to reload (re-read the 0600
 * root-owned secrets and reload plugins). An updown script it runs holds
 * no more than that, and none of its descriptors. It is not dumpable:
 * without CAP_SYS_PTRACE even root cannot read its /proc/PID/environ.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <grp.h>
#include <cmocka.h>

#include "harness.h"

#define BIT(n) (UINT64_C(1) << (n))
#define CAP_NET_BIND_SERVICE_BIT 10
#define CAP_NET_ADMIN_BIT 12
#define CAP_SETPCAP_BIT 8
#define WANTED (BIT(CAP_NET_ADMIN_BIT) | BIT(CAP_NET_BIND_SERVICE_BIT))

/* One "CapXxx:\t%016llx" line of /proc/PID/status. */
static uint64_t cap_field(pid_t pid, const char *name)
{
	char path[64], *s, *line;
	uint64_t v = UINT64_MAX;
	size_t n = strlen(name);

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	s = h_slurp(path);
	for (line = s; line && *line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (!strncmp(line, name, n) && line[n] == ':')
			v = strtoull(line + n + 1, NULL, 16);
	}
	free(s);
	return v;
}

#define CAP_SYS_PTRACE_BIT 19

/*
 * Whether a child without CAP_SYS_PTRACE can open /proc/PID/environ of
 * pid: false for a process that is not dumpable, even of our uid.
 */
static bool environ_readable(pid_t pid)
{
	pid_t c = fork();
	int st = 0;

	assert_true(c >= 0);
	if (!c) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3,
						      0 };
		struct __user_cap_data_struct d[2];
		char path[64];
		int fd;

		if (syscall(SYS_capget, &h, d))
			_exit(3);
		d[0].effective &= ~(1u << CAP_SYS_PTRACE_BIT);
		d[0].permitted &= ~(1u << CAP_SYS_PTRACE_BIT);
		if (syscall(SYS_capset, &h, d))
			_exit(3);
		snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
		fd = open(path, O_RDONLY);
		_exit(fd >= 0 ? 0 : errno == EACCES ? 1 : 2);
	}
	assert_int_equal(waitpid(c, &st, 0), c);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) <= 1);
	return WEXITSTATUS(st) == 0;
}

/* Drop every capability of this process: 0 or -1. */
static int caps_none(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	return (int)syscall(SYS_capset, &h, d);
}

/*
 * A process of ours with no capabilities (so that a reader without
 * CAP_SYS_PTRACE holds all of its: the kernel wants that too), made
 * undumpable or not, until killed.
 */
static pid_t sleeper(bool undumpable)
{
	int fds[2];
	char b;
	pid_t c;

	assert_int_equal(pipe(fds), 0);
	c = fork();
	assert_true(c >= 0);
	if (!c) {
		close(fds[0]);
		if (caps_none() ||
		    (undumpable && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)) ||
		    write(fds[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &b, 1), 1); /* it is set up now */
	close(fds[0]);
	return c;
}

/*
 * Whether this kernel hides an undumpable process's /proc from us:
 * some sandboxes (gVisor) do not, and then nothing can be seen here.
 */
static bool dumpable_enforced(void)
{
	pid_t open_one = sleeper(false), closed = sleeper(true);
	bool ok = environ_readable(open_one) && !environ_readable(closed);
	int st;

	kill(open_one, SIGKILL);
	kill(closed, SIGKILL);
	waitpid(open_one, &st, 0);
	waitpid(closed, &st, 0);
	return ok;
}

/* Why this machine cannot run the test, or NULL. */
static const char *cannot_test(void)
{
	pid_t self = getpid();

	if (geteuid() != 0)
		return "not root: ikebanad keeps what it was given";
	if ((cap_field(self, "CapBnd") & WANTED) != WANTED)
		return "the test runs without NET_ADMIN/NET_BIND_SERVICE in its "
		       "bounding set";
	if (!(cap_field(self, "CapEff") & BIT(CAP_SETPCAP_BIT)))
		return "the test runs without CAP_SETPCAP: the bounding set "
		       "cannot shrink";
	return NULL;
}

static void test_exact_caps_and_reload(void **state)
{
	const char *why = cannot_test();
	char *dir, *run, *conf, *out, *err;
	struct proc p = { 0 };

	if (why) {
		print_message("SKIP: %s\n", why);
		skip();
	}
	dir = h_tmpdir();
	assert_true(asprintf(&run, "%s/run", dir) > 0);
	conf = h_write_conf(dir, "ikebana.conf",
			    "config setup\n\tplugins=kernel-mem\n"
			    "conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
			    "\tauthby=secret\n\tauto=add\n");
	free(h_write(dir, "ikebana.secrets", 0600,
		     "192.0.2.1 192.0.2.2 : PSK \"s3cret\"\n"));
	assert_true(h_start_daemon(&p, dir, run, conf));

	assert_int_equal(cap_field(p.pid, "CapEff"), WANTED);
	assert_int_equal(cap_field(p.pid, "CapPrm"), WANTED);
	assert_int_equal(cap_field(p.pid, "CapBnd"), WANTED);
	assert_int_equal(cap_field(p.pid, "CapInh"), 0);
	assert_int_equal(cap_field(p.pid, "CapAmb"), 0);
	/* PR_SET_DUMPABLE 0 (nodump.c): its memory stays its own */
	if (dumpable_enforced())
		assert_false(environ_readable(p.pid));
	else
		print_message("note: this kernel does not hide an undumpable "
			      "process's /proc/PID/environ: not checked\n");

	/* Nothing more is needed to reload: secrets, plugins, config. */
	free(h_write_conf(dir, "ikebana.conf",
			  "config setup\n\tplugins=kernel-mem\n"
			  "conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
			  "\tauthby=secret\n\tauto=add\n"
			  "conn b\n\tleft=192.0.2.1\n\tright=192.0.2.3\n"
			  "\tauthby=secret\n\tauto=add\n"));
	free(h_write(dir, "ikebana.secrets", 0600,
		     "192.0.2.1 192.0.2.2 : PSK \"s3cret\"\n"
		     "192.0.2.1 192.0.2.3 : PSK \"other\"\n"));
	if (h_cli(dir, run, &out, &err, "reload", NULL) != 0)
		fail_msg("reload after the capability drop failed: %s", err);
	free(out);
	free(err);
	assert_int_equal(h_cli(dir, run, &out, &err, "status", NULL), 0);
	assert_non_null(strstr(out, "192.0.2.3"));
	free(out);
	free(err);

	h_kill(&p);
	h_rmrf(dir);
	free(dir);
	free(run);
	free(conf);
}

/*
 * Started by a user other than root, ikebanad keeps the capabilities it
 * was given and says so (caps.c): here uid 65534 with CAP_NET_ADMIN and
 * CAP_NET_BIND_SERVICE as ambient ones, as AmbientCapabilities= of a unit
 * would give them. Its files are that user's, 0600 secrets included.
 */
/*
 * Whether uid 65534 can execute path: a build tree under a 0700 directory
 * (a home, dpkg-buildpackage's mktemp -d) is closed to it, and the daemon
 * would fail to start for a reason that is not the one under test.
 */
static bool nobody_can_run(const char *path)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(2);
		_exit(access(path, X_OK) ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void test_not_root(void **state)
{
	const char *why = cannot_test();
	char *dir, *run, *conf, *sec, *err;
	struct proc p = { 0 };
	char *argv[] = { "/usr/bin/setpriv",
			 "--reuid=65534",
			 "--regid=65534",
			 "--clear-groups",
			 "--inh-caps=+net_admin,+net_bind_service",
			 "--ambient-caps=+net_admin,+net_bind_service",
			 (char *)h_env("IKEBANAD"),
			 "--nofork",
			 "--rundir",
			 NULL,
			 "--config",
			 NULL,
			 NULL };

	if (!why && access("/usr/bin/setpriv", X_OK))
		why = "no setpriv";
	if (!why && !nobody_can_run(h_env("IKEBANAD")))
		why = "uid 65534 cannot reach the build tree";
	if (why) {
		print_message("SKIP: %s\n", why);
		skip();
	}
	dir = h_tmpdir();
	assert_true(asprintf(&run, "%s/run", dir) > 0);
	conf = h_write_conf(dir, "ikebana.conf",
			    "config setup\n\tplugins=kernel-mem\n"
			    "conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
			    "\tauthby=secret\n\tauto=add\n");
	sec = h_write(dir, "ikebana.secrets", 0600,
		      "192.0.2.1 192.0.2.2 : PSK \"s3cret\"\n");
	assert_int_equal(chown(dir, 65534, 65534), 0);
	assert_int_equal(chown(conf, 65534, 65534), 0);
	assert_int_equal(chown(sec, 65534, 65534), 0);
	argv[9] = run;
	argv[11] = conf;
	assert_int_equal(h_spawn(&p, dir, argv), 0);
	if (!h_wait_ready(run, &p, H_DEADLINE_MS)) {
		err = h_slurp(p.err);
		fail_msg("ikebanad as uid 65534 did not come up: %s", err);
	}
	assert_int_equal(cap_field(p.pid, "CapEff"), WANTED);
	assert_int_equal(cap_field(p.pid, "CapPrm"), WANTED);
	/* not dropped: the bounding set is still the one it was given */
	assert_int_equal(cap_field(p.pid, "CapBnd"),
			 cap_field(getpid(), "CapBnd"));
	assert_true(h_wait_contains(p.err,
				    "not running as root: keeping the "
				    "capabilities we were given",
				    H_DEADLINE_MS));
	h_kill(&p);
	h_rmrf(dir);
	free(dir);
	free(run);
	free(conf);
	free(sec);
}

/* One end of a conn between two daemons on 127.0.0.1, told apart by port. */
static char *end_conf(const char *dir, const char *me, const char *peer,
		      unsigned ike, unsigned natt, unsigned peer_port)
{
	char *text, *path;

	assert_true(asprintf(&text,
			     "config setup\n"
			     "\tplugins=\"esp-proposals replay-window "
			     "kernel-mem\"\n"
			     "\tlisten=127.0.0.1\n\tikeport=%u\n"
			     "\tnat-ikeport=%u\n"
			     "conn t\n\tleft=127.0.0.1\n\tright=127.0.0.1\n"
			     "\trightikeport=%u\n"
			     "\tleftid=@%s\n\trightid=@%s\n"
			     "\tauthby=secret\n\tauto=add\n"
			     "\tleftupdown=\"%s/caps.sh\"\n",
			     ike, natt, peer_port, me, peer, dir) > 0);
	path = h_write(dir, "ikebana.conf", 0644, text);
	free(text);
	return path;
}

/* One "Key:\tvalue" line of a saved /proc/PID/status, as a number. */
static uint64_t saved_field(const char *text, const char *name, int base)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), "\n%s:", name);
	p = strstr(text, key);
	if (!p)
		fail_msg("no %s in:\n%s", name, text);
	return strtoull(p + strlen(key), NULL, base);
}

/*
 * Descriptors of the script's shell ("N -> TARGET" of ls -l /proc/PID/fd)
 * that are neither its stdin (/dev/null), its log pipe, nor its own
 * (the script file, the output it writes): all of those the daemon held.
 */
static unsigned fds_foreign(const char *text)
{
	static const char *const own[] = { "/dev/null", "pipe:", "caps.sh",
					   "caps.tmp" };
	unsigned bad = 0, seen = 0;

	for (const char *p = strstr(text, " -> "); p;
	     p = strstr(p + 4, " -> ")) {
		const char *end = strchr(p, '\n');
		bool ok = false;

		seen++;
		for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
			const char *at = strstr(p, own[i]);

			ok |= at && (!end || at < end);
		}
		if (!ok) {
			print_message("inherited:%.*s\n",
				      end ? (int)(end - p) : 64, p);
			bad++;
		}
	}
	assert_true(seen >= 3); /* stdin, stdout, stderr at least */
	return bad;
}

/*
 * What an updown script holds under the real daemon: it runs as root, so
 * the kernel gives it the bounding set, which is the daemon's two
 * capabilities; nothing inheritable or ambient; no descriptor of the
 * daemon's. The two daemons share 127.0.0.1 and differ by port.
 */
static void test_updown_child(void **state)
{
	const char *why = cannot_test();
	char *da, *db, *ra, *rb, *ca, *cb, *out, *err, *seen, path[512];
	struct proc a = { 0 }, b = { 0 };
	unsigned pa, na, pb, nb;

	if (why) {
		print_message("SKIP: %s\n", why);
		skip();
	}
	da = h_tmpdir();
	db = h_tmpdir();
	assert_true(asprintf(&ra, "%s/run", da) > 0);
	assert_true(asprintf(&rb, "%s/run", db) > 0);
	/* free ports, as h_write_conf() picks them */
	ca = h_write_conf(da, "ports.conf", "config setup\n");
	cb = h_write_conf(db, "ports.conf", "config setup\n");
	pa = h_conf_port(ca, "\tikeport=");
	na = h_conf_port(ca, "\tnat-ikeport=");
	pb = h_conf_port(cb, "\tikeport=");
	nb = h_conf_port(cb, "\tnat-ikeport=");
	assert_true(pa && na && pb && nb);
	free(ca);
	free(cb);
	ca = end_conf(da, "a", "b", pa, na, pb);
	cb = end_conf(db, "b", "a", pb, nb, pa);
	for (int i = 0; i < 2; i++) {
		const char *d = i ? db : da;
		char *script;

		free(h_write(d, "ikebana.secrets", 0600,
			     "@a @b : PSK \"caps test\"\n"));
		/* $$ is the script's own shell, exec'd by the daemon's sh -c */
		assert_true(asprintf(&script,
				     "#!/bin/sh\n"
				     "[ \"$PLUTO_VERB\" = up-host ] || exit 0\n"
				     "{ echo; cat /proc/$$/status;\n"
				     "  ls -l /proc/$$/fd; } > %s/caps.tmp\n"
				     "mv %s/caps.tmp %s/caps.out\n",
				     d, d, d) > 0);
		free(h_write(d, "caps.sh", 0755, script));
		free(script);
	}
	assert_true(h_start_daemon(&a, da, ra, ca));
	assert_true(h_start_daemon(&b, db, rb, cb));
	if (h_cli(da, ra, &out, &err, "up", "t", NULL) != 0)
		fail_msg("ikebana up t: %s%s", out, err);
	free(out);
	free(err);

	snprintf(path, sizeof(path), "%s/caps.out", da);
	if (!h_wait_contains(path, "CapAmb", H_DEADLINE_MS))
		fail_msg("the up-host script did not run:\n%s", h_slurp(a.err));
	seen = h_slurp(path);
	assert_int_equal(saved_field(seen, "Uid", 10), 0);
	assert_int_equal(saved_field(seen, "CapBnd", 16), WANTED);
	assert_int_equal(saved_field(seen, "CapPrm", 16), WANTED);
	assert_int_equal(saved_field(seen, "CapEff", 16), WANTED);
	assert_int_equal(saved_field(seen, "CapInh", 16), 0);
	assert_int_equal(saved_field(seen, "CapAmb", 16), 0);
	assert_int_equal(fds_foreign(seen), 0);
	free(seen);

	h_kill(&a);
	h_kill(&b);
	h_rmrf(da);
	h_rmrf(db);
	free(da);
	free(db);
	free(ra);
	free(rb);
	free(ca);
	free(cb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_caps_and_reload),
		cmocka_unit_test(test_not_root),
		cmocka_unit_test(test_updown_child),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
