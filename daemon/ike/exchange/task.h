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

#endif
