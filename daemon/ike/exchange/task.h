/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Work an IKE SA is asked to start once its window is free (RFC 7296
 * §2.3): a queue on the IKE SA (task_queue.c), run by tasks.c. Each task
 * is a link embedded in what it concerns, the IKE SA or a Child SA, so
 * that queueing needs no memory and a task is queued at most once.
 * Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_TASK_H
#define IKB_IKE_TASK_H

#include <stdbool.h>
#include <stdint.h>

/* In the order tasks_run() starts them. */
enum ike_task {
	TASK_DELETE_IKE, /* a Delete of the IKE SA (§1.4.1) */
	/* MOBIKE's UPDATE_SA_ADDRESSES first: all else would go on a dead
	 * path (RFC 4555) */
	TASK_MOBIKE,
	TASK_REKEY_IKE, /* §2.18 */
	TASK_DELETE_CHILD, /* a Delete of a Child SA's */
	TASK_REKEY_CHILD, /* a Child SA's successor (§2.8) */
	/* (the plan's further Child SAs and the per-CPU ones run here) */
	TASK_DPD, /* an empty INFORMATIONAL: is the peer there (§2.4) */
};

#define TASK_IKE_LINKS 4 /* DELETE_IKE, MOBIKE, REKEY_IKE, DPD */
#define TASK_CHILD_LINKS 2 /* DELETE_CHILD, REKEY_CHILD */

struct ike_task_link {
	struct ike_task_link *next;
	uint8_t what; /* enum ike_task */
	bool queued;
};

struct ike_sa;
struct child_sa;

/* task_queue.c: queue a task (task.h) of sa, or of its Child SA c. */
void task_want(struct ike_sa *sa, enum ike_task t);
/* Whether sa's own task t waits in its queue. */
bool task_queued(struct ike_sa *sa, enum ike_task t);
void task_want_child(struct ike_sa *sa, struct child_sa *c, enum ike_task t);
/* Out of sa's queue; false: it was not there. */
struct ike_task_link;
bool task_unlink(struct ike_sa *sa, struct ike_task_link *l);
/* The Child SA a task concerns; NULL: the IKE SA's own. */
struct child_sa *task_child(struct ike_task_link *l);
/* c goes: its tasks too. */
void tasks_drop_child(struct ike_sa *sa, struct child_sa *c);
/* An IKE SA rekey moved from's Child SAs to `to`: their tasks follow. */
void tasks_move_children(struct ike_sa *to, struct ike_sa *from);

/* tasks.c: the next exchange, when the window is free. */
void tasks_schedule(struct ike_sa *sa);
void tasks_run(struct ike_sa *sa);
/* The outstanding request is answered or given up. */
void tasks_out_done(struct ike_sa *sa);
/* After IKE_AUTH: timers, the plan's other Child SAs. */
void ike_sa_established(struct ike_sa *sa);

#endif
