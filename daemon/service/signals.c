// SPDX-License-Identifier: GPL-2.0-or-later
#include <signal.h>
#include <stdlib.h>
#include <event2/event.h>

#include "service/signals.h"

struct signals {
	struct signal_handlers h;
	struct event *term, *intr, *hup;
};

static void on_signal(evutil_socket_t signo, short what, void *arg)
{
	struct signals *s = arg;

	if (signo == SIGHUP)
		s->h.reload(s->h.ctx);
	else
		s->h.stop(s->h.ctx, (int)signo);
}

static struct event *watch(struct event_base *base, int signo,
			   struct signals *s)
{
	struct event *ev = evsignal_new(base, signo, on_signal, s);

	if (ev && event_add(ev, NULL) < 0) {
		event_free(ev);
		ev = NULL;
	}
	return ev;
}

struct signals *signals_setup(struct event_base *base,
			      const struct signal_handlers *h)
{
	struct signals *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->h = *h;
	/* A control client that hangs up must not kill the daemon. */
	signal(SIGPIPE, SIG_IGN);
	s->term = watch(base, SIGTERM, s);
	s->intr = watch(base, SIGINT, s);
	s->hup = watch(base, SIGHUP, s);
	if (!s->term || !s->intr || !s->hup) {
		signals_free(s);
		return NULL;
	}
	return s;
}

void signals_free(struct signals *s)
{
	if (!s)
		return;
	if (s->term)
		event_free(s->term);
	if (s->intr)
		event_free(s->intr);
	if (s->hup)
		event_free(s->hup);
	free(s);
}
