// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * While a job of an IKE SA runs on the helper pool (sa_job.c), the
 * messages that arrive for that SA wait, and are handled in order once it
 * is done. The exchanges then see what they saw when the key exchange ran
 * on the loop: a Delete of the peer's cannot overtake our own rekey's
 * response, which the §2.8.1 tie-break depends on. Other IKE SAs go on
 * meanwhile. The window (one request each way) bounds what can wait; a
 * retransmit beyond that is dropped and comes again.
 */
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>

#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/msg/msg.h"
#include "log/log.h"

#define HOLD_MAX 4

struct held_msg {
	struct held_msg *next;
	struct ike_path path;
	struct wire_hdr hdr; /* parsed when it came */
	size_t len;
	uint8_t buf[];
};

void hold_msg(struct ike_sa *sa, const struct ike_path *p,
	      const struct ike_dgram *dg)
{
	size_t len = dg->len;
	struct held_msg **pp = &sa->held, *m;
	unsigned n = 0;

	for (; *pp; pp = &(*pp)->next)
		n++;
	if (n >= HOLD_MAX || !(m = malloc(sizeof(*m) + len))) {
		log_wire_drop(p, "key exchange running, too many waiting",
			      NULL);
		return;
	}
	m->next = NULL;
	m->path = *p;
	m->hdr = dg->hdr;
	m->len = len;
	memcpy(m->buf, dg->buf, len);
	*pp = m;
}

/* One message per run: handling it may free the SA, and this event. */
static void on_resume(evutil_socket_t fd, short what, void *arg)
{
	struct ike_sa *sa = arg;
	struct held_msg *m = sa->held;
	struct ike_dgram dg;

	if (!m || sa->jobs)
		return;
	sa->held = m->next;
	if (sa->held)
		event_active(sa->resume, 0, 0);
	sa->rx_path = m->path;
	dg = (struct ike_dgram){ m->buf, m->len, m->hdr };
	if (dg.hdr.flags & WIRE_FLAG_R)
		dispatch_response(sa, &dg);
	else
		dispatch_request(sa, &dg);
	free(m);
}

void hold_resume(struct ike_sa *sa)
{
	if (!sa->held || sa->jobs || !sa->e->base)
		return;
	if (!sa->resume &&
	    !(sa->resume = event_new(sa->e->base, -1, 0, on_resume, sa)))
		return;
	event_active(sa->resume, 0, 0);
}

void hold_free(struct ike_sa *sa)
{
	while (sa->held) {
		struct held_msg *m = sa->held;

		sa->held = m->next;
		free(m);
	}
	if (sa->resume)
		event_free(sa->resume);
	sa->resume = NULL;
}
