/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a receiver of sequence-numbered datagrams saw, by number: each one
 * is new, a duplicate, or new but older than the highest seen so far
 * (reordered). Lost is what the sender says it sent and never came, so a
 * gap that a late datagram fills is reordering, not loss.
 */
#ifndef SEQCOUNT_H
#define SEQCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct seqcount {
	uint8_t *seen; /* one bit per number */
	size_t nbytes;
	uint64_t unique, dup, reordered;
	uint64_t next; /* highest number seen + 1; 0: none yet */
};

enum seq_kind { SEQ_NEW, SEQ_DUP, SEQ_REORDERED, SEQ_ERR };

void seqcount_init(struct seqcount *s);
void seqcount_fini(struct seqcount *s);
/* Records number n; SEQ_ERR only when out of memory. */
enum seq_kind seqcount_add(struct seqcount *s, uint64_t n);
/* Of 0 .. sent - 1, those never received. */
uint64_t seqcount_lost(const struct seqcount *s, uint64_t sent);
/*
 * The runs of lost numbers below sent, from *from on: sets [*lo, *hi]
 * to the next one and *from past it; false when there is none.
 */
bool seqcount_next_gap(const struct seqcount *s, uint64_t sent, uint64_t *from,
		       uint64_t *lo, uint64_t *hi);

#endif
