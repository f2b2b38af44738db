// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * With a window of 1 (§2.3) an IKE SA has at most one request of ours
 * outstanding. What is wanted meanwhile is kept as flags on the IKE SA
 * and its Child SAs, and the next exchange starts from the loop once the
 * window is free, in this order: Delete of the IKE SA, a MOBIKE address
 * update, its rekey, Child
 * SA Deletes, Child SA rekeys, the plan's further Child SAs, per-CPU
 * Child SAs the kernel acquired, liveness.
 */
#include <event2/event.h>

#include "crypto/crypto.h"
#include "ike/child_sa.h"
#include "ike/engine.h"
#include "ike/exchange.h"
#include "ike/mobike.h"
#include "ike/timers.h"
#include "ike/tasks.h"

void tasks_schedule(struct ike_sa *sa)
{
	static const struct timeval zero = { 0, 0 };

	if (sa->kick)
		evtimer_add(sa->kick, &zero);
}

void tasks_out_done(struct ike_sa *sa)
{
	exchange_end(sa);
	tasks_schedule(sa);
}

void ike_sa_established(struct ike_sa *sa)
{
	ike_timer_arm(sa);
	dpd_arm(sa);
	tasks_schedule(sa);
}

/* 0: a request went out. */
static int child_tasks(struct ike_sa *sa)
{
	struct child_sa *c;

	for (c = sa->children; c; c = c->next) {
		if (!c->want_delete || child_deleting(c))
			continue;
		c->want_delete = false;
		if (!delete_child_start(sa, c))
			return 0;
		child_remove(sa, c);
		tasks_schedule(sa);
		return 0;
	}
	for (c = sa->children; c; c = c->next) {
		if (!c->want_rekey)
			continue;
		c->want_rekey = false;
		if (c->state == CHILD_REPLACED || c->state == CHILD_REDUNDANT ||
		    child_rekeying(c) || child_deleting(c))
			continue;
		if (!create_child_start(sa, c, -1))
			return 0;
	}
	return -1;
}

void tasks_run(struct ike_sa *sa)
{
	if (sa->state != IKE_SA_ESTABLISHED || sa->x || sa->rtx.req || sa->job)
		return;
	if (sa->want_delete) {
		sa->want_delete = false;
		if (delete_ike_start(sa))
			ike_sa_delete(sa, "cannot send the Delete");
		return;
	}
	/* MOBIKE first: every other exchange would go on a dead path */
	if (!mobike_tasks(sa))
		return;
	if (sa->want_rekey) {
		sa->want_rekey = false;
		if (!rekey_ike_start(sa))
			return;
	}
	if (!child_tasks(sa))
		return;
	while (sa->plan_next < sa->plan_n) {
		if (!create_child_start(sa, NULL, -1))
			return;
		sa->plan_next++; /* could not even ask: the next one */
	}
	if (!pcpu_acquire_start(sa))
		return;
	if (sa->want_dpd) {
		sa->want_dpd = false;
		dpd_start(sa);
	}
}
