// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The textfile collector reads whatever is in its directory when it is
 * scraped: a file half written would be a parse error, or worse, a short
 * and valid one. So the text goes to PATH.tmp in the same directory (a
 * rename never crosses file systems there), is fsync'd, then renamed over
 * PATH: the collector sees the old file or the new one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event2/event.h>

#include "app/daemon.h"
#include "app/metrics_file.h"
#include "config/config.h"
#include "control/metrics.h"
#include "log/log.h"

struct metrics_file {
	struct ikbd *d;
	struct event *timer;
	char *path;
	unsigned interval_s;
	int last_err; /* logged once until it changes: one line, not one per interval */
};

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_atomic(const char *path, const char *text, size_t len)
{
	char tmp[4096];
	int fd, rc;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	rc = write_all(fd, text, len);
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

static void write_now(struct metrics_file *m)
{
	size_t len = 0;
	char *text = metrics_render(m->d, &len);
	int rc = text ? write_atomic(m->path, text, len) : -ENOMEM;

	free(text);
	if (rc && rc != m->last_err)
		log_err("metrics-file=%s: cannot write it: %s (tried again every %u s)",
			m->path, strerror(-rc), m->interval_s);
	else if (!rc && m->last_err)
		log_notice("metrics-file=%s: written again", m->path);
	m->last_err = rc;
}

static void arm(struct metrics_file *m)
{
	struct timeval tv = { (time_t)m->interval_s, 0 };

	evtimer_add(m->timer, &tv);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	struct metrics_file *m = arg;

	write_now(m);
	arm(m);
}

static void metrics_free(struct metrics_file *m)
{
	if (!m)
		return;
	if (m->timer)
		event_free(m->timer);
	free(m->path);
	free(m);
}

/* metrics-interval=, 1 s to a day; unset, METRICS_INTERVAL_S */
static unsigned interval_s(const struct ikbd *d)
{
	return d->conf.cfg ? d->conf.cfg->set.metrics_interval_s :
			     METRICS_INTERVAL_S;
}

/* metrics-file=, or NULL */
static const char *metrics_path(const struct ikbd *d)
{
	const struct ikb_value *v =
		d->conf.cfg ? d->conf.cfg->set.metrics_file : NULL;

	return v ? v->value : NULL;
}

static struct metrics_file *metrics_new(struct ikbd *d, const char *path)
{
	struct metrics_file *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->d = d;
	m->path = strdup(path);
	m->timer = evtimer_new(d->base, on_timer, m);
	if (!m->path || !m->timer) {
		metrics_free(m);
		return NULL;
	}
	return m;
}

int ikbd_metrics_conf(struct ikbd *d)
{
	const char *path = metrics_path(d);
	struct metrics_file *m = d->metrics;

	if (m && (!path || strcmp(path, m->path))) {
		log_notice("metrics-file=%s: no longer written", m->path);
		metrics_free(m);
		d->metrics = m = NULL;
	}
	if (!path)
		return 0;
	if (!m) {
		m = d->metrics = metrics_new(d, path);
		if (!m) {
			log_err("metrics-file=%s: out of memory", path);
			return -1;
		}
		log_info("metrics-file=%s: written every %u s", path,
			 interval_s(d));
	}
	m->interval_s = interval_s(d);
	write_now(m);
	arm(m);
	return 0;
}

void ikbd_metrics_stop(struct ikbd *d)
{
	if (!d->metrics)
		return;
	unlink(d->metrics->path);
	metrics_free(d->metrics);
	d->metrics = NULL;
}
