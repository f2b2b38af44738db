/* SPDX-License-Identifier: GPL-2.0-or-later */
/* systemd readiness and watchdog (sd_notify); no-ops outside systemd. */
#ifndef IKB_DAEMON_NOTIFY_H
#define IKB_DAEMON_NOTIFY_H

struct event_base;
struct event;

void notify_ready(const char *status);
void notify_reloading(void);
void notify_stopping(void);

/*
 * If systemd expects watchdog pings (WatchdogSec=), ping at half the
 * interval from a timer on base. Returns the timer (NULL if none).
 */
struct event *notify_watchdog_start(struct event_base *base);
void notify_watchdog_stop(struct event *ev);

#endif
