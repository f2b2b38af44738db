// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Liveness (RFC 7296 §2.4) with libreswan's dpddelay=: when nothing came
 * from the peer for that long, an empty INFORMATIONAL request goes out.
 * Its retransmit timeout (dpdtimeout= if set, else retransmit-timeout=)
 * declares the peer dead: the IKE SA and its Child SAs are deleted
 * locally, and an auto=start conn is initiated again. (libreswan 5 has
 * no dpdaction= any more; this is its restart behaviour.)
 */
#include <event2/event.h>

#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/timers.h"
#include "ike/exchange/exchange.h"

static void arm(struct ike_sa *sa, unsigned long long ms)
{
	struct timeval tv = { (time_t)(ms / 1000),
			      (suseconds_t)(ms % 1000) * 1000 };

	evtimer_add(sa->dpd, &tv);
}

/* dpddelay=, 0: none (or the conn is gone) */
static unsigned long long dpd_delay(const struct ike_sa *sa)
{
	const struct conn *c = engine_conn(sa->e, sa->conn);

	return c ? c->dpd_delay_ms : 0;
}

static void on_dpd(evutil_socket_t fd, short what, void *arg)
{
	struct ike_sa *sa = arg;
	unsigned long long delay = dpd_delay(sa);
	unsigned long long idle = mono_ms() - sa->last_recv_ms;

	if (!delay || sa->state != IKE_SA_ESTABLISHED)
		return;
	if (idle < delay) {
		arm(sa, delay - idle);
		return;
	}
	task_want(sa, TASK_DPD);
	tasks_schedule(sa);
	arm(sa, delay);
}

void dpd_arm(struct ike_sa *sa)
{
	unsigned long long delay = dpd_delay(sa);

	if (!delay)
		return;
	if (!sa->dpd && !(sa->dpd = evtimer_new(sa->e->base, on_dpd, sa)))
		return;
	arm(sa, delay);
}
