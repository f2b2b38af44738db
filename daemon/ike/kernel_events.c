// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel plugin's events (kernel.events_subscribe), routed to the
 * engine: a soft EXPIRE (the Child SA's byte or packet limits) rekeys the
 * Child SA; a hard EXPIRE means the kernel has removed the SA, so the
 * Child SA is deleted. An ACQUIRE goes to its trap (trap.c), or with a
 * CPU id to child_pcpu.c; a MAPPING to nat_float.c. Others are logged.
 */
#include <stdbool.h>

#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/path/path.h"
#include "ike/timers.h"
#include "ike/exchange/exchange.h"
#include "ike/route/route.h"
#include "log/log.h"

static void expire(struct ike_sa *sa, struct child_sa *c, bool in, bool hard)
{
	ike_sa_log(sa, IKB_LOG_INFO, "kernel: %s EXPIRE of %s SA %08x",
		   hard ? "hard" : "soft", in ? "inbound" : "outbound",
		   in ? c->spi_in : c->spi_out);
	if (hard) {
		/* the kernel has removed it already */
		if (in)
			c->sa_in_done = false;
		else
			c->sa_out_done = false;
		if (!child_deleting(c))
			task_want_child(sa, c, TASK_DELETE_CHILD);
	} else if (c->state != CHILD_REPLACED && c->state != CHILD_REDUNDANT &&
		   !child_rekeying(c) && !child_deleting(c) &&
		   conn_rekey(sa->e, sa->conn)) {
		task_want_child(sa, c, TASK_REKEY_CHILD);
	}
	tasks_schedule(sa);
}

static void on_kernel_event(void *ctx, const struct ikb_kernel_event *ev)
{
	struct ike_engine *e = ctx;

	if (ev->type == IKB_KEV_ACQUIRE && ev->cpu >= 0) {
		pcpu_acquire(e, ev);
		return;
	}
	if (ev->type == IKB_KEV_ACQUIRE) {
		trap_acquire(e, ev);
		return;
	}
	if (ev->type == IKB_KEV_MAPPING) {
		nat_mapping(e, ev);
		return;
	}
	if (ev->type != IKB_KEV_EXPIRE) {
		log_debug("kernel event %d (reqid %u): not handled yet",
			  (int)ev->type, ev->reqid);
		return;
	}
	for (struct ike_sa *sa = e->all; sa; sa = sa->next_all) {
		for (struct child_sa *c = sa->children; c; c = c->next) {
			bool in = c->spi_in == ev->spi &&
				  ike_addr_equal(&ev->dst, &sa->path.local);
			bool out = c->spi_out == ev->spi &&
				   ike_addr_equal(&ev->dst, &sa->path.remote);

			if (in || out) {
				expire(sa, c, in, ev->hard);
				return;
			}
		}
	}
	log_debug("kernel: EXPIRE of SA %08x that no Child SA owns", ev->spi);
}

void rekey_events_unsubscribe(struct ike_engine *e)
{
	const struct ikb_kernel_ops *k = e->events_ops;

	if (k && k->events_unsubscribe)
		k->events_unsubscribe(e->events_state, on_kernel_event, e);
	e->events_ops = NULL;
	e->events_state = NULL;
}

/*
 * A reload that switched plugin instances lets go of the old one here,
 * while it is still loaded (the old configuration is freed after).
 */
void rekey_events_subscribe(struct ike_engine *e)
{
	void *st = NULL;
	const struct ikb_kernel_ops *k = engine_kernel(e, &st);
	struct ikb_error err = { "" };

	if (k == e->events_ops && st == e->events_state)
		return; /* the same instance, or none again */
	rekey_events_unsubscribe(e);
	if (!k || !k->events_subscribe)
		return;
	if (k->events_subscribe(st, on_kernel_event, e, &err))
		log_warn("kernel events: %s; soft EXPIRE will not rekey",
			 err.msg);
	else
		e->events_ops = k, e->events_state = st;
}
