/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tasks: which exchange runs next on an IKE SA, the pacing of the IKE
 * SAs we initiate, and a Child SA's removal.
 * Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_TASKS_H
#define IKB_IKE_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ikebana/plugin.h>

#include "ike/exchange/task.h"

struct ike_engine;
struct ike_sa;
struct child_sa;

/* delete.c */
/*
 * Take c out of sa and the kernel, make-before-break: a successor
 * waiting for this Delete gets its outbound SA first, the policies go to
 * another Child SA of the same reqid, then c's SAs are removed.
 */
void child_remove(struct ike_sa *sa, struct child_sa *c);

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

/* opening.c: pacing of the IKE SAs we initiate (see there). Starts sa's
 * IKE_SA_INIT now (its result) or queues it (0). */
int opening_start(struct ike_sa *sa, struct ikb_error *err);
/* sa's first Child SA is up, it failed, it retransmits or it goes;
 * resume: start queued ones in its place. */
void opening_done(struct ike_sa *sa, bool resume);
void opening_resume(struct ike_engine *e);

#endif
