/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SIGTERM/SIGINT stop the loop; SIGHUP reloads; SIGPIPE is ignored. */
#ifndef IKB_DAEMON_SIGNALS_H
#define IKB_DAEMON_SIGNALS_H

struct event_base;
struct signals;

struct signal_handlers {
	void (*stop)(void *ctx, int signo);
	void (*reload)(void *ctx);
	void *ctx;
};

/* Handlers run on the loop, never in signal context. NULL on failure. */
struct signals *signals_setup(struct event_base *base,
			      const struct signal_handlers *h);
void signals_free(struct signals *s);

#endif
