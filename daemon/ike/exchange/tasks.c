// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * With a window of 1 (§2.3) an IKE SA has at most one request of ours
 * outstanding. What is wanted meanwhile waits in its queue of tasks
 * (task.h), and the next exchange starts from the loop once the window
 * is free, in the queue's order: Delete of the IKE SA, a MOBIKE address
 * update, its rekey, Child SA Deletes, Child SA rekeys; then the plan's
 * further Child SAs, per-CPU Child SAs the kernel acquired; liveness.
 */
#include <event2/event.h>

#include "crypto/crypto.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/path/path.h"
#include "ike/timers.h"
#include "ike/exchange/task.h"

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
	ike_init_free(sa); /* IKE_AUTH is over */
	ike_timer_arm(sa);
	dpd_arm(sa);
	tasks_schedule(sa);
}

/* What running a task did. */
enum ran {
	RAN_SENT, /* a request went out: the window is taken */
	RAN_DONE, /* nothing to send: the next task */
	RAN_GONE, /* the IKE SA is gone */
};

static enum ran delete_child(struct ike_sa *sa, struct child_sa *c)
{
	if (!delete_child_start(sa, c))
		return RAN_SENT;
	child_remove(sa, c);
	tasks_schedule(sa);
	return RAN_SENT;
}

static enum ran rekey_child(struct ike_sa *sa, struct child_sa *c)
{
	if (c->state == CHILD_REPLACED || c->state == CHILD_REDUNDANT ||
	    child_rekeying(c) || child_deleting(c))
		return RAN_DONE;
	return create_child_start(sa, c, -1) ? RAN_DONE : RAN_SENT;
}

static enum ran run(struct ike_sa *sa, enum ike_task t, struct child_sa *c)
{
	switch (t) {
	case TASK_DELETE_IKE:
		if (!delete_ike_start(sa))
			return RAN_SENT;
		ike_sa_delete(sa, "cannot send the Delete");
		return RAN_GONE;
	case TASK_MOBIKE:
		return mobike_update(sa) ? RAN_DONE : RAN_SENT;
	case TASK_REKEY_IKE:
		return rekey_ike_start(sa) ? RAN_DONE : RAN_SENT;
	case TASK_DELETE_CHILD:
		return delete_child(sa, c);
	case TASK_REKEY_CHILD:
		return rekey_child(sa, c);
	case TASK_DPD:
		dpd_start(sa);
		return RAN_SENT;
	}
	return RAN_DONE;
}

/* The queued tasks before `until`; true: the window is taken or sa gone. */
static bool run_queue(struct ike_sa *sa, enum ike_task until)
{
	struct ike_task_link *l = sa->tasks, *next;

	for (; l && l->what < until; l = next) {
		enum ike_task t = l->what;
		struct child_sa *c = task_child(l);
		enum ran r;

		next = l->next;
		/* our Delete of it is out already: it stays until the answer */
		if (t == TASK_DELETE_CHILD && child_deleting(c))
			continue;
		task_unlink(sa, l);
		r = run(sa, t, c);
		if (r != RAN_DONE)
			return true;
		/* running may have queued or dropped tasks: from the first of
		 * this kind on (the one that ran is out of the queue) */
		next = sa->tasks;
		while (next && next->what < t)
			next = next->next;
	}
	return false;
}

void tasks_run(struct ike_sa *sa)
{
	if (sa->state != IKE_SA_ESTABLISHED || sa->x || sa->rtx.req || sa->job)
		return;
	if (run_queue(sa, TASK_DPD))
		return;
	while (sa->plan_next < sa->plan_n) {
		if (!create_child_start(sa, NULL, -1))
			return;
		sa->plan_next++; /* could not even ask: the next one */
	}
	if (!pcpu_acquire_start(sa))
		return;
	run_queue(sa, TASK_DPD + 1);
}
