// SPDX-License-Identifier: GPL-2.0-or-later
/* The receiver's count by sequence number (seqcount.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "seqcount.h"

/* A sender far past this is not ours (or is broken): 2^31 numbers. */
#define SEQ_MAX (1ULL << 31)

void seqcount_init(struct seqcount *s)
{
	memset(s, 0, sizeof(*s));
}

void seqcount_fini(struct seqcount *s)
{
	free(s->seen);
	memset(s, 0, sizeof(*s));
}

static bool seen(const struct seqcount *s, uint64_t n)
{
	return n / 8 < s->nbytes && (s->seen[n / 8] >> (n % 8)) & 1;
}

static int grow(struct seqcount *s, uint64_t n)
{
	size_t want = s->nbytes ? s->nbytes : 4096;
	uint8_t *p;

	if (n >= SEQ_MAX)
		return -1;
	while (n / 8 >= want)
		want *= 2;
	if (want == s->nbytes)
		return 0;
	p = realloc(s->seen, want);
	if (!p)
		return -1;
	memset(p + s->nbytes, 0, want - s->nbytes);
	s->seen = p;
	s->nbytes = want;
	return 0;
}

enum seq_kind seqcount_add(struct seqcount *s, uint64_t n)
{
	if (seen(s, n)) {
		s->dup++;
		return SEQ_DUP;
	}
	if (grow(s, n))
		return SEQ_ERR;
	s->seen[n / 8] |= (uint8_t)(1u << (n % 8));
	s->unique++;
	if (n + 1 > s->next) {
		s->next = n + 1;
		return SEQ_NEW;
	}
	s->reordered++;
	return SEQ_REORDERED;
}

uint64_t seqcount_lost(const struct seqcount *s, uint64_t sent)
{
	uint64_t got = 0;

	/* numbers at or above sent are not the sender's: not counted */
	for (uint64_t n = 0; n < sent && n < s->next; n++)
		got += seen(s, n);
	return sent - got;
}

bool seqcount_next_gap(const struct seqcount *s, uint64_t sent, uint64_t *from,
		       uint64_t *lo, uint64_t *hi)
{
	uint64_t n = *from;

	while (n < sent && seen(s, n))
		n++;
	if (n >= sent)
		return false;
	*lo = n;
	while (n < sent && !seen(s, n))
		n++;
	*hi = n - 1;
	*from = n;
	return true;
}
