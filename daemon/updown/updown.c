// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * When to run which verb. libreswan runs prepare, route and up when a
 * conn's Child SA is installed and nothing of it was before, down and
 * unroute when it goes for good, and nothing for a rekey ("rekeys do not
 * need to re-UP", libreswan 5's kernel.c). The engine's bus tells of each
 * Child SA, a rekey's successor before its predecessor leaves, so the
 * rule here is a count: the first Child SA of a (conn, reqid) runs the
 * up verbs, the last one to go runs the down verbs; a reqid is shared by
 * a Child SA's rekeyed generations and by the SA that takes over from a
 * replaced IKE SA.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>

#include "log/log.h"
#include "updown/internal.h"

/* One Child SA told up whose down verbs may be due when it goes. */
struct live {
	struct live *next;
	char *conn;
	uint32_t reqid, spi_in;
	char *cmd; /* the script it came up with, run again at down */
	/* its environment, for the down verbs when the daemon stops */
	struct updown_job *at_stop;
};

struct updown {
	struct ike_engine *e;
	struct ike_listener *listener;
	struct updown_runner *run;
	struct updown_opts o;
	struct live *live;
	struct event_base *base;
};

static struct live *find(struct updown *u, const char *conn, uint32_t reqid,
			 uint32_t spi_in, bool by_spi)
{
	for (struct live *l = u->live; l; l = l->next)
		if (!strcmp(l->conn, conn) && l->reqid == reqid &&
		    (!by_spi || l->spi_in == spi_in))
			return l;
	return NULL;
}

static void live_free(struct live *l)
{
	free(l->conn);
	free(l->cmd);
	updown_job_free(l->at_stop);
	free(l);
}

static struct updown_job *make_job(const struct ike_event *ev, const char *cmd,
				   const char *verb,
				   const struct updown_bytes *b)
{
	struct updown_job *j = calloc(1, sizeof(*j));
	char full[64];

	snprintf(full, sizeof(full), "%s%s", verb, updown_suffix(ev));
	if (!j || !(j->conn = strdup(ev->child->conn)) ||
	    !(j->verb = strdup(full)) || !(j->cmd = strdup(cmd)) ||
	    updown_env_build(j, ev, verb, b)) {
		log_err("updown %s: %s: out of memory, not run",
			ev->child->conn, full);
		updown_job_free(j);
		return NULL;
	}
	return j;
}

static void queue(struct updown *u, const struct ike_event *ev, const char *cmd,
		  const char *verb, const struct updown_bytes *b)
{
	struct updown_job *j = make_job(ev, cmd, verb, b);

	if (j)
		updown_runner_queue(u->run, j);
}

static void bytes(struct updown *u, const struct ike_event *ev,
		  struct updown_bytes *b)
{
	b->known = u->o.counters &&
		   !u->o.counters(u->o.ctx, ev->child, &b->in, &b->out);
}

static void child_up(struct updown *u, const struct ike_event *ev)
{
	const struct ike_child_info *c = ev->child;
	struct updown_bytes b;
	struct live *l;
	bool first;

	if (!c->updown || find(u, c->conn, c->reqid, c->spi_in, true))
		return; /* no script, or told again (its outbound SA) */
	first = !find(u, c->conn, c->reqid, 0, false);
	l = calloc(1, sizeof(*l));
	if (!l || !(l->conn = strdup(c->conn)) ||
	    !(l->cmd = strdup(c->updown))) {
		log_err("updown %s: out of memory: its scripts will not run",
			c->conn);
		if (l)
			free(l->conn);
		free(l);
		return;
	}
	l->reqid = c->reqid;
	l->spi_in = c->spi_in;
	l->at_stop = make_job(ev, l->cmd, "down", NULL);
	l->next = u->live;
	u->live = l;
	if (!first)
		return;
	bytes(u, ev, &b); /* 0, as libreswan tells them from its state */
	queue(u, ev, l->cmd, "prepare", &b);
	queue(u, ev, l->cmd, "route", &b);
	queue(u, ev, l->cmd, "up", &b);
}

static void child_down(struct updown *u, const struct ike_event *ev)
{
	const struct ike_child_info *c = ev->child;
	struct live *l = find(u, c->conn, c->reqid, c->spi_in, true), **pp;
	struct updown_bytes b;

	if (!l)
		return;
	for (pp = &u->live; *pp != l; pp = &(*pp)->next)
		;
	*pp = l->next;
	if (!find(u, c->conn, c->reqid, 0, false)) {
		bytes(u, ev, &b);
		queue(u, ev, l->cmd, "down", &b);
		queue(u, ev, l->cmd, "unroute", &b);
	}
	live_free(l);
}

static void on_event(void *ctx, const struct ike_event *ev)
{
	if (ev->kind == IKE_EVENT_CHILD_UP)
		child_up(ctx, ev);
	else if (ev->kind == IKE_EVENT_CHILD_DOWN)
		child_down(ctx, ev);
}

struct updown *updown_new(struct event_base *base, struct ike_engine *e,
			  const struct updown_opts *o)
{
	struct updown *u = calloc(1, sizeof(*u));

	if (u) {
		u->e = e;
		u->base = base;
		u->o = *o;
		u->run = updown_runner_new(base, o->timeout_ms, o->kill_ms);
	}
	if (u && u->run)
		u->listener = ike_engine_subscribe(e, on_event, u);
	if (!u || !u->listener) {
		log_err("updown: cannot listen for Child SAs");
		if (u)
			updown_runner_free(u->run);
		free(u);
		return NULL;
	}
	return u;
}

unsigned updown_pending(const struct updown *u)
{
	return u ? updown_runner_pending(u->run) : 0;
}

/* j for verb instead of down: "down-client" -> "unroute-client". */
static struct updown_job *job_as(const struct updown_job *j, const char *verb)
{
	struct updown_job *n = calloc(1, sizeof(*n));
	const char *sfx = strchr(j->verb, '-');

	if (!n || asprintf(&n->verb, "%s%s", verb, sfx ? sfx : "") < 0) {
		free(n);
		return NULL;
	}
	n->conn = strdup(j->conn);
	n->cmd = strdup(j->cmd);
	n->env = calloc(j->nenv + 1, sizeof(*n->env));
	if (!n->conn || !n->cmd || !n->env)
		goto fail;
	for (size_t i = 0; i < j->nenv; i++, n->nenv++) {
		n->env[i] = strncmp(j->env[i], "PLUTO_VERB=", 11) ?
				    strdup(j->env[i]) :
				    (asprintf(&n->env[i], "PLUTO_VERB=%s",
					      n->verb) < 0 ?
					     NULL :
					     n->env[i]);
		if (!n->env[i])
			goto fail;
	}
	n->cap = n->nenv + 1;
	return n;
fail:
	updown_job_free(n);
	return NULL;
}

static bool earlier(const struct updown *u, const struct live *l)
{
	for (const struct live *o = u->live; o != l; o = o->next)
		if (!strcmp(o->conn, l->conn) && o->reqid == l->reqid)
			return true;
	return false;
}

static void on_deadline(evutil_socket_t fd, short what, void *arg)
{
	*(bool *)arg = true;
}

void updown_stop(struct updown *u, unsigned ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	bool late = false;
	struct event *t;

	if (!u)
		return;
	ike_engine_unsubscribe(u->e, u->listener);
	u->listener = NULL;
	for (struct live *l = u->live; l; l = l->next) {
		if (!l->at_stop || earlier(u, l))
			continue;
		struct updown_job *down = job_as(l->at_stop, "down");
		struct updown_job *unroute = job_as(l->at_stop, "unroute");

		if (down)
			updown_runner_queue(u->run, down);
		if (unroute)
			updown_runner_queue(u->run, unroute);
	}
	if (!updown_pending(u))
		return;
	log_notice("stopping: waiting up to %u ms for %u updown script(s)", ms,
		   updown_pending(u));
	t = evtimer_new(u->base, on_deadline, &late);
	if (!t || evtimer_add(t, &tv)) {
		if (t)
			event_free(t);
		return;
	}
	while (!late && updown_pending(u))
		event_base_loop(u->base, EVLOOP_ONCE);
	event_free(t);
}

void updown_free(struct updown *u)
{
	if (!u)
		return;
	ike_engine_unsubscribe(u->e, u->listener);
	updown_runner_free(u->run);
	while (u->live) {
		struct live *l = u->live;

		u->live = l->next;
		live_free(l);
	}
	free(u);
}
