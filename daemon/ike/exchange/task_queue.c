// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The queue of tasks on an IKE SA (task.h): kept in the order of enum
 * ike_task, first come first within a kind. A Child SA's tasks stay in
 * its IKE SA's queue, and move with the Child SA when a rekey of the IKE
 * SA takes it over.
 */
#include <stddef.h>

#include "ike/child/child.h"
#include "ike/exchange/task.h"
#include "ike/ike_sa.h"

static struct ike_task_link *ike_link(struct ike_sa *sa, enum ike_task t)
{
	switch (t) {
	case TASK_DELETE_IKE:
		return &sa->task_ike[0];
	case TASK_MOBIKE:
		return &sa->task_ike[1];
	case TASK_REKEY_IKE:
		return &sa->task_ike[2];
	case TASK_DPD:
		return &sa->task_ike[3];
	case TASK_DELETE_CHILD:
	case TASK_REKEY_CHILD:
		break;
	}
	return NULL;
}

static bool is_child(const struct ike_task_link *l)
{
	return l->what == TASK_DELETE_CHILD || l->what == TASK_REKEY_CHILD;
}

struct child_sa *task_child(struct ike_task_link *l)
{
	if (!is_child(l))
		return NULL;
	l -= l->what == TASK_DELETE_CHILD ? 0 : 1;
	return (struct child_sa *)((char *)l - offsetof(struct child_sa, task));
}

/* After the last of its kind or of those before it. */
static void link_in(struct ike_sa *sa, struct ike_task_link *l, uint8_t what)
{
	struct ike_task_link **pp = &sa->tasks;

	if (l->queued)
		return;
	while (*pp && (*pp)->what <= what)
		pp = &(*pp)->next;
	l->what = what;
	l->next = *pp;
	l->queued = true;
	*pp = l;
}

bool task_queued(struct ike_sa *sa, enum ike_task t)
{
	struct ike_task_link *l = ike_link(sa, t);

	return l && l->queued;
}

void task_want(struct ike_sa *sa, enum ike_task t)
{
	struct ike_task_link *l = ike_link(sa, t);

	if (l)
		link_in(sa, l, t);
}

void task_want_child(struct ike_sa *sa, struct child_sa *c, enum ike_task t)
{
	if (t == TASK_DELETE_CHILD || t == TASK_REKEY_CHILD)
		link_in(sa, &c->task[t == TASK_DELETE_CHILD ? 0 : 1], t);
}

bool task_unlink(struct ike_sa *sa, struct ike_task_link *l)
{
	struct ike_task_link **pp = &sa->tasks;

	while (*pp && *pp != l)
		pp = &(*pp)->next;
	if (!*pp)
		return false;
	*pp = l->next;
	l->next = NULL;
	l->queued = false;
	return true;
}

/* In sa's queue, or its owner's if the caller is not the owner. */
void tasks_drop_child(struct ike_sa *sa, struct child_sa *c)
{
	for (unsigned i = 0; i < TASK_CHILD_LINKS; i++)
		if (c->task[i].queued && !task_unlink(sa, &c->task[i]) &&
		    c->ike)
			task_unlink(c->ike, &c->task[i]);
}

void tasks_move_children(struct ike_sa *to, struct ike_sa *from)
{
	struct ike_task_link **pp = &from->tasks;

	while (*pp) {
		struct ike_task_link *l = *pp;

		if (!is_child(l)) {
			pp = &l->next;
			continue;
		}
		*pp = l->next;
		l->queued = false;
		link_in(to, l, l->what);
	}
}
