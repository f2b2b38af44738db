// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * up {"conn": NAME, "wait": SECONDS, "already_ok": BOOL}: initiate conn,
 * and with wait answer once its IKE SA is up or failed. A conn has at most one
 * IKE SA being initiated (ike_engine_up refuses a second), so the next
 * outcome for a conn, the IKE_UP (with its first Child SA) or FAILED of
 * an IKE SA we initiated, answers every request waiting on that conn.
 * The listener is on the engine's bus only while someone waits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <json-c/json.h>

#include "app/daemon.h"
#include "config/config.h"
#include "control/commands.h"
#include "control/proto.h"
#include "control/server.h"
#include "ike/ike.h"
#include "log/log.h"

/* The longest an up request may wait; the client gives up at 30 s. */
#define UP_WAIT_MAX_S 25

struct waiter {
	struct waiter *next;
	char conn[IKE_CONN_NAME_LEN];
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

/*
 * After ike_engine_up(d->engine, conn) returned 0: defer the current
 * control request and answer it once conn's IKE SA and first Child SA
 * are up, or failed (with the reason the engine logged), or after secs
 * seconds. 0 when deferred (the handler returns NULL), -1 when it cannot
 * wait (out of memory, not in a handler): answer at once.
 */
static int up_wait(struct ikbd *d, const char *conn, unsigned secs)
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

struct json_object *cmd_up(struct ikbd *d, struct json_object *req)
{
	struct json_object *r = NULL, *wait;
	const char *conn = req_conn(req, "up", &r);
	struct ikb_error err = { "" };
	int rc;

	if (!conn)
		return r;
	if (!cfg_conn_find(d->conf.cfg, conn))
		return ctl_response_error("up: no conn named '%.64s' is "
					  "loaded (see ikebana status)",
					  conn);
	rc = ike_engine_up(d->engine, conn, &err);
	/*
	 * {"already_ok": true}, the ipsec command's: orchestrators initiate
	 * again and again (Submariner after each --route, ovs-monitor-ipsec
	 * on each refresh); an IKE SA there is what they asked for, and a
	 * second would be the duplicate libreswan's users see.
	 */
	if (rc == -EALREADY && req_bool(req, "already_ok"))
		return conn_done(conn, "already up");
	if (rc == -EALREADY)
		return ctl_response_error("up: %s (ikebana down %.64s first)",
					  err.msg, conn);
	if (rc)
		return ctl_response_error("up: conn %.64s: %s", conn, err.msg);
	log_notice("control: up %s: initiating", conn);
	/* {"wait": SECONDS}: answer with the outcome */
	if (json_object_object_get_ex(req, "wait", &wait) &&
	    json_object_get_int(wait) > 0 &&
	    !up_wait(d, conn, (unsigned)json_object_get_int(wait)))
		return NULL;
	return conn_done(conn, "initiating");
}
