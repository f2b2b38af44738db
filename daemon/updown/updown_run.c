// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Running updown scripts without ever blocking the loop. Each conn has a
 * queue, and only its head runs: a down can never overtake the up before
 * it, while other conns' scripts run beside. A script is posix_spawn'ed
 * into its own process group (so that a timeout reaches what it started
 * too), with stdin on /dev/null, stdout and stderr on one pipe (libreswan
 * logs both), no other descriptor, default signals and the job's
 * environment only. A pidfd tells the loop when it exits; the pipe is
 * read as it comes, up to OUT_MAX bytes logged per run.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <event2/event.h>

#include "log/log.h"
#include "updown/internal.h"
#include "util/fifo.h"

#define OUT_MAX 4096 /* bytes of a run's output that reach the log */
#define LINE_MAX_LOG 256

struct queue {
	struct queue *next;
	struct updown_runner *r;
	char *conn;
	struct updown_job *head, *tail;
	/* the head's process, once spawned */
	pid_t pid;
	int pidfd, outfd;
	struct event *exit_ev, *out_ev, *timer;
	bool termed, killed;
	bool exited; /* after SIGTERM, not reaped until the SIGKILL */
	size_t out_bytes;
	char line[LINE_MAX_LOG];
	size_t line_len;
};

struct updown_runner {
	struct event_base *base;
	unsigned timeout_ms, kill_ms;
	struct queue *queues;
};

static void start(struct queue *q);

struct updown_runner *updown_runner_new(struct event_base *base,
					unsigned timeout_ms, unsigned kill_ms)
{
	struct updown_runner *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->base = base;
	r->timeout_ms = timeout_ms ? timeout_ms : 30000;
	r->kill_ms = kill_ms ? kill_ms : 5000;
	return r;
}

static void log_line(struct queue *q)
{
	q->line[q->line_len] = '\0';
	log_info("updown %s: %s: %s", q->conn, q->head->verb, q->line);
	q->line_len = 0;
}

/* Split what the script wrote into lines, until OUT_MAX is logged. */
static void take(struct queue *q, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (q->out_bytes++ == OUT_MAX) {
			if (q->line_len)
				log_line(q);
			log_info("updown %s: %s: more output, not logged",
				 q->conn, q->head->verb);
		}
		if (q->out_bytes > OUT_MAX)
			continue;
		if (buf[i] == '\n') {
			log_line(q);
			continue;
		}
		q->line[q->line_len++] = buf[i];
		if (q->line_len == sizeof(q->line) - 1)
			log_line(q);
	}
}

/* Read what is there now; true at end of file or error. */
static bool drain(struct queue *q)
{
	char buf[1024];
	ssize_t n;

	while ((n = read(q->outfd, buf, sizeof(buf))) > 0)
		take(q, buf, (size_t)n);
	return n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR);
}

static void close_out(struct queue *q)
{
	if (q->out_ev) {
		event_free(q->out_ev);
		q->out_ev = NULL;
	}
	if (q->outfd >= 0) {
		close(q->outfd);
		q->outfd = -1;
	}
}

static void on_out(evutil_socket_t fd, short what, void *arg)
{
	struct queue *q = arg;

	(void)fd;
	(void)what;
	if (drain(q))
		close_out(q); /* EOF: the exit comes through the pidfd */
}

static void report(const struct queue *q, const siginfo_t *si)
{
	const struct updown_job *j = q->head;

	if (si->si_code == CLD_EXITED && !si->si_status)
		log_debug("updown %s: %s: exit 0", q->conn, j->verb);
	else if (si->si_code == CLD_EXITED)
		log_warn("updown %s: %s: exit status %d", q->conn, j->verb,
			 si->si_status);
	else
		log_warn("updown %s: %s: killed by signal %d%s", q->conn,
			 j->verb, si->si_status,
			 q->killed ? " (SIGKILL after the time limit)" :
			 q->termed ? " (SIGTERM after the time limit)" :
				     "");
}

/* What watched the head's process: its output, exit event, timer, pidfd. */
static void release_proc(struct queue *q)
{
	close_out(q);
	if (q->exit_ev)
		event_free(q->exit_ev);
	if (q->timer)
		event_free(q->timer);
	if (q->pidfd >= 0)
		close(q->pidfd);
	q->exit_ev = q->timer = NULL;
	q->pidfd = -1;
	q->pid = 0;
}

/* The head is over (exited, or never started): free it, start the next. */
static void next(struct queue *q)
{
	struct updown_job *j = q->head;

	if (q->line_len)
		log_line(q);
	release_proc(q);
	fifo_drop_head(q, next);
	updown_job_free(j);
	if (q->head)
		start(q);
}

/* The exited head, reaped only now: its pid held its group until here. */
static void reap(struct queue *q)
{
	if (q->outfd >= 0)
		drain(q); /* the rest, without waiting for an EOF that a
			   * left-behind grandchild could hold back */
	waitpid(q->pid, NULL, 0);
	next(q);
}

static void on_exit_ev(evutil_socket_t fd, short what, void *arg)
{
	struct queue *q = arg;
	siginfo_t si = { 0 };

	(void)fd;
	(void)what;
	/* WNOWAIT: a zombie keeps the pid, so -pid is still its group */
	if (waitid(P_PID, (id_t)q->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 ||
	    !si.si_pid)
		return; /* not yet (spurious wake-up) */
	report(q, &si);
	if (q->termed && !q->killed) {
		/* what it started may still run: the SIGKILL timer ends it */
		q->exited = true;
		event_del(q->exit_ev);
		return;
	}
	reap(q);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	struct queue *q = arg;
	struct updown_runner *r = q->r;
	struct timeval tv = { r->kill_ms / 1000, (r->kill_ms % 1000) * 1000 };

	(void)fd;
	(void)what;
	if (!q->termed) {
		log_warn("updown %s: %s: still running after %u ms: SIGTERM",
			 q->conn, q->head->verb, r->timeout_ms);
		q->termed = true;
		kill(-q->pid, SIGTERM);
		evtimer_add(q->timer, &tv);
		return;
	}
	q->killed = true;
	if (!q->exited) {
		log_warn("updown %s: %s: still running %u ms after SIGTERM: "
			 "SIGKILL",
			 q->conn, q->head->verb, r->kill_ms);
		kill(-q->pid, SIGKILL);
		return; /* its exit comes through the pidfd */
	}
	if (!kill(-q->pid, SIGKILL))
		log_warn("updown %s: %s: SIGKILL to what it left running",
			 q->conn, q->head->verb);
	reap(q);
}

static int spawn(struct queue *q, int out)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, all;
	char *argv[] = { "/bin/sh", "-c", q->head->cmd, NULL };
	int rc;

	sigemptyset(&none);
	sigfillset(&all);
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_adddup2(&fa, out, 2);
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK |
					      POSIX_SPAWN_SETSIGDEF |
					      POSIX_SPAWN_SETPGROUP);
	rc = posix_spawn(&q->pid, argv[0], &fa, &at, argv, q->head->env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return -rc;
}

static int watch(struct queue *q)
{
	struct updown_runner *r = q->r;
	struct timeval tv = { r->timeout_ms / 1000,
			      (r->timeout_ms % 1000) * 1000 };

	q->pidfd = (int)syscall(SYS_pidfd_open, q->pid, 0);
	if (q->pidfd < 0)
		return -errno;
	q->exit_ev = event_new(r->base, q->pidfd, EV_READ | EV_PERSIST,
			       on_exit_ev, q);
	q->out_ev =
		event_new(r->base, q->outfd, EV_READ | EV_PERSIST, on_out, q);
	q->timer = evtimer_new(r->base, on_timer, q);
	if (!q->exit_ev || !q->out_ev || !q->timer ||
	    event_add(q->exit_ev, NULL) || event_add(q->out_ev, NULL) ||
	    evtimer_add(q->timer, &tv))
		return -ENOMEM;
	return 0;
}

/* Run the head; a job that cannot run is logged and skipped. */
static void start(struct queue *q)
{
	int p[2], rc;

	q->termed = q->killed = q->exited = false;
	q->out_bytes = q->line_len = 0;
	if (pipe2(p, O_CLOEXEC) < 0) {
		rc = -errno;
		goto fail;
	}
	q->outfd = p[0];
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	rc = spawn(q, p[1]);
	close(p[1]);
	if (rc)
		goto fail;
	log_debug("updown %s: %s: running \"%s\" (pid %d)", q->conn,
		  q->head->verb, q->head->cmd, (int)q->pid);
	rc = watch(q);
	if (!rc)
		return;
	/* cannot watch it: wait for it here rather than leave a zombie */
	kill(-q->pid, SIGKILL);
	waitpid(q->pid, NULL, 0);
fail:
	log_err("updown %s: %s: cannot run \"%s\": %s", q->conn, q->head->verb,
		q->head->cmd, strerror(-rc));
	next(q);
}

static struct queue *queue_of(struct updown_runner *r, const char *conn)
{
	struct queue *q;

	for (q = r->queues; q; q = q->next)
		if (!strcmp(q->conn, conn))
			return q;
	q = calloc(1, sizeof(*q));
	if (!q || !(q->conn = strdup(conn))) {
		free(q);
		return NULL;
	}
	q->r = r;
	q->pidfd = q->outfd = -1;
	q->next = r->queues;
	r->queues = q;
	return q;
}

void updown_runner_queue(struct updown_runner *r, struct updown_job *j)
{
	struct queue *q = queue_of(r, j->conn);

	if (!q) {
		log_err("updown %s: %s: out of memory, not run", j->conn,
			j->verb);
		updown_job_free(j);
		return;
	}
	fifo_push(q, j, next);
	if (q->head == j)
		start(q);
}

unsigned updown_runner_pending(const struct updown_runner *r)
{
	unsigned n = 0;

	for (const struct queue *q = r ? r->queues : NULL; q; q = q->next)
		for (const struct updown_job *j = q->head; j; j = j->next)
			n++;
	return n;
}

void updown_runner_free(struct updown_runner *r)
{
	struct queue *q;

	if (!r)
		return;
	while ((q = r->queues)) {
		r->queues = q->next;
		if (q->pid > 0) {
			log_warn("updown %s: %s: the daemon stops: SIGKILL",
				 q->conn, q->head->verb);
			kill(-q->pid, SIGKILL);
			waitpid(q->pid, NULL, 0);
		}
		/* what is queued behind it is dropped with it */
		while (q->head) {
			struct updown_job *j = q->head;

			q->head = j->next;
			updown_job_free(j);
		}
		release_proc(q);
		free(q->conn);
		free(q);
	}
	free(r);
}
