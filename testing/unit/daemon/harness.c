// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <json-c/json.h>

#include "control/client.h"
#include "harness.h"

/* Between two looks at a condition; a poll interval, not a delay. */
#define H_POLL_MS 5

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *h_env(const char *name)
{
	const char *v = getenv(name);

	if (!v || !*v) {
		fprintf(stderr,
			"%s is not set: run this test with meson test\n", name);
		abort();
	}
	return v;
}

char *h_tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	char *p;

	if (asprintf(&p, "%s/ikb-test-XXXXXX", t && *t ? t : "/tmp") < 0)
		abort();
	if (!mkdtemp(p))
		abort();
	return p;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	remove(path);
	return 0;
}

void h_rmrf(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *h_write(const char *dir, const char *name, mode_t mode, const char *text)
{
	char *path;
	int fd;
	size_t n = strlen(text);

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		abort();
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0 || write(fd, text, n) != (ssize_t)n || fchmod(fd, mode) < 0)
		abort();
	close(fd);
	return path;
}

/*
 * A UDP port on 127.0.0.1 that the kernel calls free right now; its
 * socket stays open in *fd, so that the next call cannot get the same
 * port (a closed one may come back at once: ikeport= and nat-ikeport=
 * were once equal).
 */
static unsigned free_udp_port(int *fd)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);

	*fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (*fd < 0 || bind(*fd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ||
	    getsockname(*fd, (struct sockaddr *)&sin, &len) < 0)
		abort();
	return ntohs(sin.sin_port);
}

char *h_write_conf(const char *dir, const char *name, const char *text)
{
	static const char head[] = "config setup\n";
	char *full, *path;
	int fd[2];
	unsigned ike, natt;

	if (strncmp(text, head, sizeof(head) - 1))
		abort();
	ike = free_udp_port(&fd[0]);
	natt = free_udp_port(&fd[1]);
	close(fd[0]);
	close(fd[1]);
	if (asprintf(&full,
		     "%s\tlisten=127.0.0.1\n\tikeport=%u\n"
		     "\tnat-ikeport=%u\n%s",
		     head, ike, natt, text + sizeof(head) - 1) < 0)
		abort();
	path = h_write(dir, name, 0644, full);
	free(full);
	return path;
}

char *h_slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	char chunk[4096];
	size_t n;

	while (f && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	if (f)
		fclose(f);
	fclose(m);
	return buf;
}

unsigned h_conf_port(const char *path, const char *key)
{
	char *text = h_slurp(path);
	const char *p = strstr(text, key);
	unsigned port = p ? (unsigned)strtoul(p + strlen(key), NULL, 10) : 0;

	free(text);
	return port;
}

static const char *next_env[8][2];
static size_t next_nenv;

void h_setenv_next(const char *name, const char *value)
{
	if (next_nenv < 8) {
		next_env[next_nenv][0] = name;
		next_env[next_nenv][1] = value;
		next_nenv++;
	}
}

int h_spawn(struct proc *p, const char *dir, char *const argv[])
{
	static unsigned seq;
	int o, e;

	seq++;
	snprintf(p->out, sizeof(p->out), "%s/proc%u.out", dir, seq);
	snprintf(p->err, sizeof(p->err), "%s/proc%u.err", dir, seq);
	p->status = -1;
	p->pid = fork();
	if (p->pid != 0) {
		next_nenv = 0;
		return p->pid < 0 ? -1 : 0;
	}
	o = open(p->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	e = open(p->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (o < 0 || e < 0)
		_exit(127);
	dup2(o, STDOUT_FILENO);
	dup2(e, STDERR_FILENO);
	/* The daemon must not find a systemd notify socket of the runner. */
	unsetenv("NOTIFY_SOCKET");
	unsetenv("WATCHDOG_USEC");
	for (size_t i = 0; i < next_nenv; i++)
		setenv(next_env[i][0], next_env[i][1], 1);
	execv(argv[0], argv);
	_exit(127);
}

static int decode(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A pidfd becomes readable when the process exits: no polling needed. */
int h_wait(struct proc *p, int timeout_ms)
{
	int fd, st;
	struct pollfd pfd;

	if (!p->pid)
		return p->status;
	fd = (int)syscall(SYS_pidfd_open, p->pid, 0);
	if (fd < 0)
		return -1;
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	if (poll(&pfd, 1, timeout_ms) != 1) {
		close(fd);
		return -1;
	}
	close(fd);
	if (waitpid(p->pid, &st, 0) != p->pid)
		return -1;
	p->pid = 0;
	p->status = decode(st);
	return p->status;
}

void h_kill(struct proc *p)
{
	int st;

	if (!p->pid)
		return;
	kill(p->pid, SIGKILL);
	waitpid(p->pid, &st, 0);
	p->pid = 0;
}

int h_run(const char *dir, char **out, char **err, char *const argv[])
{
	struct proc p;
	int rc;

	if (h_spawn(&p, dir, argv) < 0)
		return -1;
	rc = h_wait(&p, 4 * H_DEADLINE_MS);
	if (rc < 0)
		h_kill(&p);
	*out = h_slurp(p.out);
	*err = h_slurp(p.err);
	return rc;
}

bool h_wait_for(bool (*cond)(void *arg), void *arg, int timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;

	for (;;) {
		if (cond(arg))
			return true;
		if (now_ms() >= deadline)
			return false;
		poll(NULL, 0, H_POLL_MS);
	}
}

struct ready_arg {
	const char *rundir;
	struct proc *p;
	bool dead;
};

/* The loop answers only after start-up ends (privileges dropped). */
static bool answers(void *v)
{
	struct ready_arg *a = v;
	struct json_object *req, *resp = NULL;
	const char *why;
	int fd, st;

	if (a->p && waitpid(a->p->pid, &st, WNOHANG) == a->p->pid) {
		a->p->pid = 0;
		a->p->status = decode(st);
		a->dead = true;
		return true;
	}
	fd = ctl_connect(a->rundir);
	if (fd < 0)
		return false;
	req = json_object_new_object();
	json_object_object_add(req, "cmd", json_object_new_string("version"));
	st = ctl_call(fd, req, &resp, H_DEADLINE_MS, &why);
	json_object_put(req);
	json_object_put(resp);
	close(fd);
	return st == 0;
}

bool h_wait_ready(const char *rundir, struct proc *p, int timeout_ms)
{
	struct ready_arg a = { rundir, p, false };

	return h_wait_for(answers, &a, timeout_ms) && !a.dead;
}

struct contains_arg {
	const char *path, *needle;
};

static bool contains(void *v)
{
	struct contains_arg *a = v;
	char *s = h_slurp(a->path);
	bool r = strstr(s, a->needle) != NULL;

	free(s);
	return r;
}

bool h_wait_contains(const char *path, const char *needle, int timeout_ms)
{
	struct contains_arg a = { path, needle };

	return h_wait_for(contains, &a, timeout_ms);
}

bool h_start_daemon(struct proc *p, const char *dir, const char *rundir,
		    const char *conf)
{
	char *argv[] = { (char *)h_env("IKEBANAD"),
			 "--nofork",
			 "--rundir",
			 (char *)rundir,
			 "--config",
			 (char *)conf,
			 NULL };
	char *err;

	if (h_spawn(p, dir, argv) < 0)
		return false;
	if (h_wait_ready(rundir, p, H_DEADLINE_MS))
		return true;
	err = h_slurp(p->err);
	fprintf(stderr, "ikebanad did not come up (exit %d):\n%s\n", p->status,
		err);
	free(err);
	return false;
}

int h_cli(const char *dir, const char *rundir, char **out, char **err, ...)
{
	char *argv[16] = { (char *)h_env("IKEBANA"), "--rundir",
			   (char *)rundir };
	size_t n = 3;
	va_list ap;

	va_start(ap, err);
	while (n < 15 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return h_run(dir, out, err, argv);
}
