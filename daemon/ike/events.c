// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The event bus: a list of listeners, told in the order they subscribed.
 * A listener may unsubscribe (itself or another) or subscribe from inside
 * its callback, and an event may cause another (a listener that calls
 * ike_engine_down()): while any emission runs, an unsubscribed listener
 * is only marked, and the marked ones are freed when the outermost
 * emission ends. Nothing is built when nobody listens.
 */
#include <stdlib.h>

#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/events.h"

struct ike_listener {
	struct ike_listener *next;
	ike_event_fn *fn; /* NULL: unsubscribed during an emission */
	void *ctx;
	unsigned long since; /* the first event it hears */
};

struct ike_bus {
	struct ike_listener *head, *tail;
	unsigned depth; /* emissions running */
	unsigned long seq; /* events emitted so far */
	bool marked; /* some listener waits to be freed */
};

static const char *const names[] = {
	[IKE_EVENT_IKE_UP] = "IKE_UP",
	[IKE_EVENT_IKE_DOWN] = "IKE_DOWN",
	[IKE_EVENT_CHILD_UP] = "CHILD_UP",
	[IKE_EVENT_CHILD_DOWN] = "CHILD_DOWN",
	[IKE_EVENT_FAILED] = "FAILED",
};

const char *ike_event_name(enum ike_event_kind kind)
{
	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] :
								   "?";
}

struct ike_listener *ike_engine_subscribe(struct ike_engine *e,
					  ike_event_fn *fn, void *ctx)
{
	struct ike_listener *l;

	if (!e->bus && !(e->bus = calloc(1, sizeof(*e->bus))))
		return NULL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->fn = fn;
	l->ctx = ctx;
	l->since = e->bus->seq + 1;
	if (e->bus->tail)
		e->bus->tail->next = l;
	else
		e->bus->head = l;
	e->bus->tail = l;
	return l;
}

static void sweep(struct ike_bus *b)
{
	struct ike_listener **pp = &b->head, *l;

	b->tail = NULL;
	while ((l = *pp)) {
		if (l->fn) {
			b->tail = l;
			pp = &l->next;
		} else {
			*pp = l->next;
			free(l);
		}
	}
	b->marked = false;
}

void ike_engine_unsubscribe(struct ike_engine *e, struct ike_listener *l)
{
	if (!l || !e->bus)
		return;
	l->fn = NULL;
	e->bus->marked = true;
	if (!e->bus->depth)
		sweep(e->bus);
}

void events_free(struct ike_engine *e)
{
	struct ike_bus *b = e->bus;

	if (!b)
		return;
	while (b->head) {
		struct ike_listener *l = b->head;

		b->head = l->next;
		free(l);
	}
	free(b);
	e->bus = NULL;
}

static bool listened(const struct ike_engine *e)
{
	return e->bus && e->bus->head;
}

static void emit(struct ike_engine *e, const struct ike_event *ev)
{
	struct ike_bus *b = e->bus;
	unsigned long n = ++b->seq;

	b->depth++;
	for (struct ike_listener *l = b->head; l; l = l->next)
		if (l->fn && l->since <= n)
			l->fn(l->ctx, ev);
	if (!--b->depth && b->marked)
		sweep(b);
}

/* ev's ike (and child, when c) from the SA, then emit. */
static void tell(struct ike_sa *sa, const struct child_sa *c,
		 struct ike_event *ev)
{
	struct ike_sa_info info;
	struct ike_child_info ci;
	char alg[128];

	ike_sa_get_info(sa, &info);
	ev->ike = &info;
	if (c) {
		child_info_fill(c->ike ? c->ike : sa, c, alg, sizeof(alg), &ci);
		ev->child = &ci;
	}
	emit(sa->e, ev);
}

void events_ike_up(struct ike_sa *sa, const struct child_sa *first,
		   const struct ike_sa *replaces)
{
	struct ike_event ev = { .kind = IKE_EVENT_IKE_UP };

	if (sa->up_told)
		return;
	sa->up_told = true;
	sa->e->stats.ike_rekeys += replaces != NULL;
	sa->e->stats.established += replaces == NULL;
	if (!listened(sa->e))
		return;
	ev.replaces = replaces ? replaces->serial : 0;
	tell(sa, first, &ev);
}

void events_ike_down(struct ike_sa *sa, const char *why)
{
	struct ike_event ev = { .kind = IKE_EVENT_IKE_DOWN, .why = why };

	if (!sa->up_told)
		return;
	sa->up_told = false;
	if (listened(sa->e))
		tell(sa, NULL, &ev);
}

void events_failed(struct ike_sa *sa, int rc, const char *why, bool ike_up)
{
	struct ike_event ev = {
		.kind = IKE_EVENT_FAILED, .rc = rc, .why = why, .ike_up = ike_up
	};

	if (listened(sa->e))
		tell(sa, NULL, &ev);
}

/*
 * Its CHILD_UP went out (child_established), so its CHILD_DOWN will: every
 * state but these two comes from there.
 */
static bool was_up(const struct child_sa *c)
{
	return c->state != CHILD_NEGOTIATING && c->state != CHILD_FAILED;
}

void events_child_up(struct ike_sa *sa, struct child_sa *c)
{
	struct ike_event ev = { .kind = IKE_EVENT_CHILD_UP };

	if (listened(sa->e))
		tell(sa, c, &ev);
}

void events_child_out(struct ike_sa *sa, struct child_sa *c)
{
	if (was_up(c) && c->sa_out_done)
		events_child_up(sa, c);
}

void events_child_down(struct ike_sa *sa, struct child_sa *c)
{
	struct ike_event ev = { .kind = IKE_EVENT_CHILD_DOWN };

	if (!was_up(c))
		return;
	if (listened(sa->e))
		tell(sa, c, &ev);
}
