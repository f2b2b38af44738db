/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A first-in, first-out queue of structs that carry their own link: a
 * pointer member naming the next one. The queue is any struct with head
 * and tail members of the element's pointer type (zeroed: empty); the
 * tail makes adding at the end O(1).
 *
 * Macros rather than functions, so that each queue keeps its element type
 * and the compiler checks it, without the casts of a generic node. Their
 * arguments are evaluated more than once: pass plain names. There is no
 * locking here: a queue shared between threads is locked by its owner.
 */
#ifndef IKB_UTIL_FIFO_H
#define IKB_UTIL_FIFO_H

#include <stddef.h>

/* Appends elem to q, linked through its member link. */
#define fifo_push(q, elem, link)                  \
	do {                                      \
		(elem)->link = NULL;              \
		if ((q)->tail)                    \
			(q)->tail->link = (elem); \
		else                              \
			(q)->head = (elem);       \
		(q)->tail = (elem);               \
	} while (0)

/* Unlinks q's head, which must exist and which the caller has read
 * first; the element's own link is left as it was. */
#define fifo_drop_head(q, link)              \
	do {                                 \
		(q)->head = (q)->head->link; \
		if (!(q)->head)              \
			(q)->tail = NULL;    \
	} while (0)

#endif
