// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdint.h>
#include <time.h>
#include <event2/event.h>
#include <systemd/sd-daemon.h>

#include "log/log.h"
#include "service/notify.h"

void notify_ready(const char *status)
{
	sd_notifyf(0, "READY=1\nSTATUS=%s", status);
}

/* MONOTONIC_USEC lets Type=notify-reload (systemd >= 253) match the reply. */
void notify_reloading(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu",
		   (unsigned long long)ts.tv_sec * 1000000ULL +
			   (unsigned long long)ts.tv_nsec / 1000);
}

void notify_stopping(void)
{
	sd_notify(0, "STOPPING=1");
}

static void watchdog_cb(evutil_socket_t fd, short what, void *arg)
{
	sd_notify(0, "WATCHDOG=1");
}

struct event *notify_watchdog_start(struct event_base *base)
{
	uint64_t usec = 0;
	struct timeval tv;
	struct event *ev;

	if (sd_watchdog_enabled(0, &usec) <= 0 || usec == 0)
		return NULL;
	usec /= 2;
	tv.tv_sec = (time_t)(usec / 1000000);
	tv.tv_usec = (suseconds_t)(usec % 1000000);
	ev = event_new(base, -1, EV_PERSIST, watchdog_cb, NULL);
	if (!ev || event_add(ev, &tv) < 0) {
		log_err("cannot arm the systemd watchdog timer");
		if (ev)
			event_free(ev);
		return NULL;
	}
	log_info("systemd watchdog: a ping every %llu ms",
		 (unsigned long long)usec / 1000);
	sd_notify(0, "WATCHDOG=1");
	return ev;
}

void notify_watchdog_stop(struct event *ev)
{
	if (ev)
		event_free(ev);
}
