// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * keyingtries= for auto=start conns: an initiation that fails (no answer,
 * a refusal, a peer that is not up yet) is made again, as libreswan
 * does, up to keyingtries= attempts in all; 0 and %forever, libreswan's
 * default, mean no limit. Between attempts the daemon waits the conn's
 * retransmit-interval=, doubled per attempt up to a minute, so that a
 * peer that refuses at once is not asked in a loop.
 *
 * Not for `ikebana up`: its caller is told of the failure and decides.
 * `ikebana down`, a new `up` and a conn that is gone or no longer
 * auto=start end the retries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>

#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/timers.h"
#include "log/log.h"
#include "plugin/conf_load.h"

#define RETRY_MAX_MS 60000u

struct retry {
	struct retry *next;
	struct ike_engine *e;
	char conn[IKE_CONN_NAME_LEN];
	unsigned attempt; /* the one this retry makes */
	struct event *ev;
};

/* 0: no limit */
static unsigned long keyingtries(const struct ike_engine *e, const char *conn)
{
	const struct conn *c = engine_conn(e, conn);

	return c ? c->keyingtries : 0;
}

static void unlink_retry(struct retry *r)
{
	struct retry **pp = &r->e->retries;

	while (*pp && *pp != r)
		pp = &(*pp)->next;
	if (*pp)
		*pp = r->next;
	event_free(r->ev);
	free(r);
}

static void fire(evutil_socket_t fd, short what, void *arg)
{
	struct retry *r = arg;
	struct ike_engine *e = r->e;
	struct ikb_error err = { "" };
	char conn[sizeof(r->conn)];
	unsigned attempt = r->attempt;

	snprintf(conn, sizeof(conn), "%s", r->conn);
	unlink_retry(r);
	if (!conn_auto_start(e, conn))
		return; /* removed, or auto= changed by a reload */
	if (engine_up(e, conn, attempt, &err))
		log_warn("conn %s: auto=start: attempt %u: %s", conn, attempt,
			 err.msg);
}

static unsigned delay_ms(const struct ike_engine *e, const char *conn,
			 unsigned attempt)
{
	unsigned interval;
	unsigned long long timeout, ms;

	conn_timing(engine_conn(e, conn), &interval, &timeout);
	ms = (unsigned long long)interval << (attempt < 8 ? attempt - 1 : 7);
	return ms < RETRY_MAX_MS ? (unsigned)ms : RETRY_MAX_MS;
}

void retry_after_failure(struct ike_sa *sa, const char *why)
{
	struct ike_engine *e = sa->e;
	unsigned long tries = keyingtries(e, sa->conn);
	struct retry *r;
	unsigned ms;
	struct timeval tv;
	char of[32] = "%forever";

	if (!sa->auto_try || !e->base || !conn_auto_start(e, sa->conn))
		return;
	if (tries && sa->attempt >= tries) {
		log_notice(
			"conn %s: keyingtries=%lu: giving up after %u attempts",
			sa->conn, tries, sa->attempt);
		return;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->ev = evtimer_new(e->base, fire, r))) {
		free(r);
		log_err("conn %s: out of memory: no further attempt", sa->conn);
		return;
	}
	r->e = e;
	r->attempt = sa->attempt + 1;
	snprintf(r->conn, sizeof(r->conn), "%s", sa->conn);
	ms = delay_ms(e, sa->conn, sa->attempt);
	tv = (struct timeval){ ms / 1000, (ms % 1000) * 1000 };
	evtimer_add(r->ev, &tv);
	r->next = e->retries;
	e->retries = r;
	if (tries)
		snprintf(of, sizeof(of), "%lu", tries);
	log_notice("conn %s: auto=start: attempt %u of %s in %u ms (%s)",
		   sa->conn, r->attempt, of, ms, why);
}

unsigned retry_cancel(struct ike_engine *e, const char *conn)
{
	struct retry *r = e->retries, *next;
	unsigned n = 0;

	for (; r; r = next) {
		next = r->next;
		if (!conn || !strcmp(r->conn, conn)) {
			unlink_retry(r);
			n++;
		}
	}
	return n;
}

void engine_reinit(struct ike_engine *e, const char *conn)
{
	struct ikb_error err = { "" };

	if (!conn_auto_start(e, conn))
		return;
	log_notice("conn %s: auto=start: initiating again", conn);
	if (engine_up(e, conn, 1, &err))
		log_warn("conn %s: auto=start: %s", conn, err.msg);
}
