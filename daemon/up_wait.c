// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The `up` requests that wait for their IKE SA. A conn has at most one
 * IKE SA being initiated (ike_engine_up refuses a second), so the next
 * outcome for a conn, the IKE_UP (with its first Child SA) or FAILED of
 * an IKE SA we initiated, answers every request waiting on that conn.
 * The listener is on the engine's bus only while someone waits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <json-c/json.h>

#include "control/proto.h"
#include "control/server.h"
#include "daemon.h"
#include "ike/ike.h"
#include "log.h"
#include "up_wait.h"

struct waiter {
	struct waiter *next;
	char conn[64];
	unsigned secs;
	struct ctl_client *client;
	struct event *timer;
};

/* One daemon per process: its waiters, and the listener for them. */
static struct waiter *waiters;
static struct ike_engine *engine;
static struct ike_listener *listener;

/* Nobody waits: off the bus (also from inside its callback). */
static void idle(void)
{
	if (waiters || !listener)
		return;
	ike_engine_unsubscribe(engine, listener);
	listener = NULL;
}

static void waiter_free(struct waiter *w)
{
	struct waiter **pp = &waiters;

	while (*pp && *pp != w)
		pp = &(*pp)->next;
	if (*pp)
		*pp = w->next;
	if (w->timer)
		event_free(w->timer);
	free(w);
	idle();
}

static void answer(struct waiter *w, struct json_object *resp)
{
	struct ctl_client *c = w->client;

	waiter_free(w);
	ctl_client_answer(c, resp);
}

/* The client went away, or the server closes. */
static void on_gone(void *arg)
{
	waiter_free(arg);
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct waiter *w = arg;

	answer(w,
	       ctl_response_error(
		       "up: conn %.64s: no outcome within %u s; the exchange "
		       "goes on (see ikebana status)",
		       w->conn, w->secs));
}

/* IKE_UP: the IKE SA and its first Child SA are up. */
static struct json_object *established(const struct ike_event *ev)
{
	const struct ike_sa_info *sa = ev->ike;
	struct json_object *r = json_object_new_object();
	char text[160];

	snprintf(text, sizeof(text),
		 "established: IKE SA #%lu, Child SA SPIs in %08x out %08x",
		 sa->serial, ev->child->spi_in, ev->child->spi_out);
	json_object_object_add(r, "conn", json_object_new_string(sa->conn));
	json_object_object_add(r, "result", json_object_new_string(text));
	json_object_object_add(r, "serial",
			       json_object_new_int64((int64_t)sa->serial));
	return ctl_response_ok(r);
}

static struct json_object *failed(const struct ike_event *ev)
{
	const struct ike_sa_info *sa = ev->ike;

	if (ev->ike_up)
		return ctl_response_error(
			"up: conn %.64s: IKE SA #%lu established, but %s",
			sa->conn, sa->serial,
			ev->why ? ev->why : "no Child SA");
	return ctl_response_error("up: conn %.64s: IKE SA #%lu failed: %s",
				  sa->conn, sa->serial,
				  ev->why ? ev->why : "deleted");
}

/*
 * An IKE_UP without a Child SA follows the FAILED of its Child SA, which
 * answered already; a responder's or a rekey's IKE_UP is no outcome.
 */
static void on_event(void *ctx, const struct ike_event *ev)
{
	struct waiter *w = waiters, *next;
	bool up = ev->kind == IKE_EVENT_IKE_UP && ev->child;

	if (!ev->ike->initiator || (!up && ev->kind != IKE_EVENT_FAILED))
		return;
	for (; w; w = next) {
		next = w->next;
		if (!strcmp(w->conn, ev->ike->conn))
			answer(w, up ? established(ev) : failed(ev));
	}
}

int up_wait(struct ikbd *d, const char *conn, unsigned secs)
{
	struct waiter *w = calloc(1, sizeof(*w));
	struct timeval tv = { .tv_sec = secs > UP_WAIT_MAX_S ? UP_WAIT_MAX_S :
							       secs };

	if (!listener) {
		engine = d->engine;
		listener = ike_engine_subscribe(engine, on_event, NULL);
	}
	if (w && listener)
		w->timer = evtimer_new(d->base, on_timeout, w);
	if (!w || !w->timer ||
	    !(w->client = ctl_server_defer(d->ctl, on_gone, w))) {
		if (w && w->timer)
			event_free(w->timer);
		free(w);
		idle();
		return -1;
	}
	snprintf(w->conn, sizeof(w->conn), "%s", conn);
	w->secs = (unsigned)tv.tv_sec;
	w->next = waiters;
	waiters = w;
	evtimer_add(w->timer, &tv);
	return 0;
}
