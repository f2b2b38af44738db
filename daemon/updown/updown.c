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
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "updown/internal.h"

/* One Child SA told up whose down verbs may be due when it goes. */
struct live {
	struct live *next;
	char *conn;
	uint32_t reqid, spi_in;
	char *cmd; /* the script it came up with, run again at down */
};

struct updown {
	struct ike_engine *e;
	struct ike_listener *listener;
	struct updown_runner *run;
	struct updown_opts o;
	struct live *live;
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

static void queue(struct updown *u, const struct ike_event *ev, const char *cmd,
		  const char *verb, const struct updown_bytes *b)
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
		return;
	}
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
	free(l->conn);
	free(l->cmd);
	free(l);
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

void updown_free(struct updown *u)
{
	if (!u)
		return;
	ike_engine_unsubscribe(u->e, u->listener);
	updown_runner_free(u->run);
	while (u->live) {
		struct live *l = u->live;

		u->live = l->next;
		free(l->conn);
		free(l->cmd);
		free(l);
	}
	free(u);
}
