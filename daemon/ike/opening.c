// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pacing of the IKE SAs we initiate: at most OPENING_MAX of them wait for
 * their peer's answers at once; the others queue, in the order asked, and
 * start as those finish.
 *
 * Why: a reload with a thousand auto=start conns used to send a thousand
 * IKE_SA_INITs at once. The peer (and our own helper thread) then held
 * seconds of key exchanges in its queue, far past the first retransmit
 * (500 ms), so most requests went out two or three times and every copy
 * cost both daemons a read, a log line and a send: at N = 1000 in the
 * ike-rate bench, 2900 retransmits on the initiator and 1800 on the
 * responder. Paced, the same thousand come up sooner and nothing is sent
 * twice.
 *
 * An SA holds its place from its key pair until its first Child SA is up
 * or it fails (engine_outcome), and gives it up early at its first
 * retransmit: a peer that is down or slow costs the others one
 * retransmit-interval, not retransmit-timeout.
 */
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "log/log.h"
#include "util/fifo.h"

/* Handshakes in flight. With ~5 ms of work per handshake on the slowest
 * host we run on (UML, one CPU for both ends), 32 are ~160 ms of queue,
 * well inside the first retransmit; with a 100 ms round trip they still
 * allow ~300 new IKE SAs per second. */
#define OPENING_MAX 32

static int start(struct ike_sa *sa, struct ikb_error *err)
{
	sa->opening = IKE_OPENING_RUNNING;
	sa->e->opening++;
	ike_sa_log(sa, IKB_LOG_INFO, "initiating IKE_SA_INIT");
	return ike_sa_init_start(sa, err);
}

/* A start that fails deletes its SA, which comes back here: the flag
 * keeps that from recursing. */
void opening_resume(struct ike_engine *e)
{
	struct ikb_error err = { "" };
	struct ike_sa *sa;

	if (e->opening_busy)
		return;
	e->opening_busy = true;
	while (e->opening < OPENING_MAX && (sa = e->open_queue.head)) {
		fifo_drop_head(&e->open_queue, open_next);
		sa->open_next = NULL;
		if (start(sa, &err))
			ike_sa_delete(sa,
				      err.msg[0] ? err.msg : "cannot start");
	}
	e->opening_busy = false;
}

int opening_start(struct ike_sa *sa, struct ikb_error *err)
{
	struct ike_engine *e = sa->e;

	if (e->opening < OPENING_MAX && !e->open_queue.head)
		return start(sa, err);
	ike_sa_log(sa, IKB_LOG_DEBUG, "queued: %u IKE SAs are being opened",
		   e->opening);
	sa->opening = IKE_OPENING_QUEUED;
	fifo_push(&e->open_queue, sa, open_next);
	return 0;
}

static void unqueue(struct ike_sa *sa)
{
	struct ike_engine *e = sa->e;
	struct ike_sa **pp = &e->open_queue.head, *prev = NULL;

	while (*pp && *pp != sa) {
		prev = *pp;
		pp = &(*pp)->open_next;
	}
	if (!*pp)
		return;
	*pp = sa->open_next;
	if (e->open_queue.tail == sa)
		e->open_queue.tail = prev;
	sa->open_next = NULL;
}

void opening_done(struct ike_sa *sa, bool resume)
{
	struct ike_engine *e = sa->e;

	switch (sa->opening) {
	case IKE_OPENING_NONE:
		return;
	case IKE_OPENING_QUEUED:
		unqueue(sa);
		break;
	case IKE_OPENING_RUNNING:
		e->opening--;
		break;
	}
	sa->opening = IKE_OPENING_NONE;
	if (resume)
		opening_resume(e);
}
