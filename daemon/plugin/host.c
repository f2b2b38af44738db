// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host interface: what a plugin may call in the daemon. Timers and fd
 * watches run on the daemon's one libevent loop, so plugin callbacks need
 * no locks.
 */
#include <event2/event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "config/config.h"
#include "config/diag.h"
#include "log/log.h"
#include "plugin/plugin_set.h"

/* One-shot: freed when it fires, so the handle is dead in its callback. */
struct ikb_timer {
	struct event *ev;
	void (*cb)(void *arg);
	void *arg;
};

struct ikb_watch {
	struct event *ev;
	int fd;
	void (*cb)(int fd, void *arg);
	void *arg;
};

/* The daemon has exactly one loop; plugin_host(base) records it here. */
static struct event_base *host_base;

static void host_log(const char *plugin, enum ikb_log_level level,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void host_log(const char *plugin, enum ikb_log_level level,
		     const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!log_enabled(level))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	logm(level, "plugin %s: %s", plugin, msg);
}

static const char *host_section_name(const struct ikb_section *s)
{
	return s->name;
}

static void timer_fire(evutil_socket_t fd, short what, void *p)
{
	struct ikb_timer *t = p;
	void (*cb)(void *arg) = t->cb;
	void *arg = t->arg;

	event_free(t->ev);
	free(t);
	cb(arg);
}

static struct ikb_timer *timer_add(unsigned ms, void (*cb)(void *arg),
				   void *arg)
{
	struct timeval tv = { .tv_sec = ms / 1000,
			      .tv_usec = (ms % 1000) * 1000 };
	struct ikb_timer *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	*t = (struct ikb_timer){ .cb = cb, .arg = arg };
	t->ev = evtimer_new(host_base, timer_fire, t);
	if (!t->ev || evtimer_add(t->ev, &tv) < 0) {
		if (t->ev)
			event_free(t->ev);
		free(t);
		return NULL;
	}
	return t;
}

static void timer_cancel(struct ikb_timer *t)
{
	if (!t)
		return;
	event_free(t->ev);
	free(t);
}

static void watch_fire(evutil_socket_t fd, short what, void *p)
{
	struct ikb_watch *w = p;

	w->cb(w->fd, w->arg);
}

static struct ikb_watch *fd_watch(int fd, void (*cb)(int fd, void *arg),
				  void *arg)
{
	struct ikb_watch *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	*w = (struct ikb_watch){ .fd = fd, .cb = cb, .arg = arg };
	w->ev = event_new(host_base, fd, EV_READ | EV_PERSIST, watch_fire, w);
	if (!w->ev || event_add(w->ev, NULL) < 0) {
		if (w->ev)
			event_free(w->ev);
		free(w);
		return NULL;
	}
	return w;
}

static void fd_unwatch(struct ikb_watch *w)
{
	if (!w)
		return;
	event_free(w->ev);
	free(w);
}

/* checkconfig has no loop: a plugin asking for a timer gets NULL. */
static struct ikb_timer *no_timer_add(unsigned ms, void (*cb)(void *arg),
				      void *arg)
{
	return NULL;
}

static struct ikb_watch *no_fd_watch(int fd, void (*cb)(int fd, void *arg),
				     void *arg)
{
	return NULL;
}

static const struct ikb_host host_loop = {
	IKB_OPS_SIZE(struct ikb_host),
	.log = host_log,
	.get = cfg_get,
	.section_name = host_section_name,
	.report = diag_report,
	.timer_add = timer_add,
	.timer_cancel = timer_cancel,
	.fd_watch = fd_watch,
	.fd_unwatch = fd_unwatch,
	.parse_bool = cfg_parse_bool,
};

static const struct ikb_host host_noloop = {
	IKB_OPS_SIZE(struct ikb_host),
	.log = host_log,
	.get = cfg_get,
	.section_name = host_section_name,
	.report = diag_report,
	.timer_add = no_timer_add,
	.timer_cancel = timer_cancel,
	.fd_watch = no_fd_watch,
	.fd_unwatch = fd_unwatch,
	.parse_bool = cfg_parse_bool,
};

const struct ikb_host *plugin_host(struct event_base *base)
{
	if (!base)
		return &host_noloop;
	host_base = base;
	return &host_loop;
}
