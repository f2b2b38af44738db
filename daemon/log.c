// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "log.h"

static enum log_target log_target = LOG_TO_STDERR;
static enum ikb_log_level log_max = IKB_LOG_INFO;
static const char *log_ident = "ikebana";
/* Under systemd, stderr goes to the journal: "<N>" carries the priority. */
static bool log_journal_prefix;

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
	if (target == LOG_TO_SYSLOG)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

void log_set_level(enum ikb_log_level max)
{
	log_max = max;
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

void vlogm(enum ikb_log_level level, const char *fmt, va_list ap)
{
	char buf[1024];

	if (!log_enabled(level))
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (log_target == LOG_TO_SYSLOG) {
		syslog(level_syslog[level], "%s", buf);
		return;
	}
	if (log_journal_prefix)
		fprintf(stderr, "<%d>%s\n", level_syslog[level], buf);
	else
		fprintf(stderr, "%s: %s: %s\n", log_ident, level_names[level],
			buf);
}

void logm(enum ikb_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlogm(level, fmt, ap);
	va_end(ap);
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
