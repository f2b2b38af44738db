// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "log/log.h"
#include "log/log_journal.h"

static enum log_target log_target = LOG_TO_STDERR;
/*
 * logfile=: the descriptor every line goes to, -1 for none. Helper threads
 * log too: a reopen puts the new file in place under the same number, so
 * that a line is never written to a closed or reused descriptor.
 */
static atomic_int log_fd = -1;
static char *log_path;
static enum ikb_log_level log_max = IKB_LOG_INFO;
static const char *log_ident = "ikebana";
/* Under systemd, stderr goes to the journal: "<N>" carries the priority;
 * when stderr is the journal's stream, a line with fields goes natively. */
static bool log_journal_prefix, log_journal_native;

static const char *const level_names[] = {
	[IKB_LOG_ERR] = "err",	     [IKB_LOG_WARNING] = "warning",
	[IKB_LOG_NOTICE] = "notice", [IKB_LOG_INFO] = "info",
	[IKB_LOG_DEBUG] = "debug",
};

static const int level_syslog[] = {
	[IKB_LOG_ERR] = LOG_ERR,       [IKB_LOG_WARNING] = LOG_WARNING,
	[IKB_LOG_NOTICE] = LOG_NOTICE, [IKB_LOG_INFO] = LOG_INFO,
	[IKB_LOG_DEBUG] = LOG_DEBUG,
};

void log_setup(enum log_target target, enum ikb_log_level max,
	       const char *ident)
{
	log_target = target;
	log_max = max;
	log_ident = ident;
	log_journal_prefix = getenv("JOURNAL_STREAM") != NULL;
	log_journal_native = log_journal_is_stderr();
	if (target == LOG_TO_SYSLOG)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

void log_set_level(enum ikb_log_level max)
{
	log_max = max;
}

enum ikb_log_level log_get_level(void)
{
	return log_max;
}

bool log_enabled(enum ikb_log_level level)
{
	return level <= log_max;
}

int log_level_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(level_names) / sizeof(level_names[0]);
	     i++)
		if (strcmp(name, level_names[i]) == 0)
			return (int)i;
	return -1;
}

/* libreswan's plutostderrlog stamp, local time: "Mar  3 14:05:09.123456: " */
static size_t stamp(char *out, size_t len)
{
	static _Thread_local time_t sec = -1;
	static _Thread_local char text[32];
	struct timespec now;
	struct tm tm;
	int n;

	clock_gettime(CLOCK_REALTIME, &now);
	if (now.tv_sec != sec) {
		sec = now.tv_sec;
		if (!localtime_r(&sec, &tm) ||
		    !strftime(text, sizeof(text), "%b %e %H:%M:%S", &tm))
			text[0] = '\0';
	}
	n = snprintf(out, len, "%s.%06ld: ", text, now.tv_nsec / 1000);
	return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

/* One write() per line: with O_APPEND, lines of several threads stay whole. */
static void file_line(int fd, enum ikb_log_level level, const char *msg)
{
	char line[1280];
	size_t n = stamp(line, sizeof(line));
	int m = snprintf(line + n, sizeof(line) - n, "%s: %s: %s\n", log_ident,
			 level_names[level], msg);

	if (m < 0)
		return;
	n += (size_t)m;
	if (n >= sizeof(line)) {
		n = sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	while (write(fd, line, n) < 0 && errno == EINTR)
		;
}

bool log_has_fields(void)
{
	return log_target == LOG_TO_STDERR && log_journal_native &&
	       atomic_load_explicit(&log_fd, memory_order_relaxed) < 0;
}

static void vlog_ctx(enum ikb_log_level level, const struct log_ctx *ctx,
		     const char *fmt, va_list ap)
{
	char buf[1024];
	int fd;

	if (!log_enabled(level))
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	fd = atomic_load_explicit(&log_fd, memory_order_relaxed);
	if (fd >= 0) {
		file_line(fd, level, buf);
		return;
	}
	if (log_target == LOG_TO_SYSLOG) {
		syslog(level_syslog[level], "%s", buf);
		return;
	}
	/* only a line with fields: journald names the unit of a native
	 * line by the sender's PID, which a daemon exiting on a config
	 * error no longer has; the stream is the unit's for good */
	if (ctx && log_journal_native &&
	    !log_journal_send(level_syslog[level], log_ident, buf, ctx))
		return;
	if (log_journal_prefix)
		fprintf(stderr, "<%d>%s\n", level_syslog[level], buf);
	else
		fprintf(stderr, "%s: %s: %s\n", log_ident, level_names[level],
			buf);
}

void vlogm(enum ikb_log_level level, const char *fmt, va_list ap)
{
	vlog_ctx(level, NULL, fmt, ap);
}

void logm_ctx(enum ikb_log_level level, const struct log_ctx *ctx,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog_ctx(level, ctx, fmt, ap);
	va_end(ap);
}

void logm(enum ikb_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlogm(level, fmt, ap);
	va_end(ap);
}

/* Never 0..2: a detaching daemon puts /dev/null there. */
static int open_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	int hi, e;

	if (fd < 0)
		return -errno;
	if (fd > STDERR_FILENO)
		return fd;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	e = errno;
	close(fd);
	return hi < 0 ? -e : hi;
}

/* Put the file at path in place of the current one (or none). */
static int install(const char *path)
{
	int fd = open_file(path), cur = atomic_load(&log_fd);

	if (fd < 0)
		return fd;
	if (cur < 0) {
		atomic_store(&log_fd, fd);
		return 0;
	}
	if (dup3(fd, cur, O_CLOEXEC) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	return 0;
}

int log_file_open(const char *path)
{
	char *copy = strdup(path);
	int rc;

	if (!copy)
		return -ENOMEM;
	rc = install(path);
	if (rc < 0) {
		free(copy);
		return rc;
	}
	free(log_path);
	log_path = copy;
	return 0;
}

int log_file_reopen(void)
{
	return log_path ? install(log_path) : -EBADF;
}

void log_file_close(void)
{
	int fd = atomic_exchange(&log_fd, -1);

	if (fd >= 0)
		close(fd);
	free(log_path);
	log_path = NULL;
}

const char *log_file_path(void)
{
	return log_path;
}

bool log_ratelimit_ok(struct log_ratelimit *rl)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec != rl->window) {
		if (rl->suppressed)
			logm(IKB_LOG_NOTICE, "%u more %s not logged",
			     rl->suppressed, rl->what);
		rl->window = now.tv_sec;
		rl->count = 0;
		rl->suppressed = 0;
	}
	if (rl->count < rl->per_sec) {
		rl->count++;
		return true;
	}
	rl->suppressed++;
	return false;
}
