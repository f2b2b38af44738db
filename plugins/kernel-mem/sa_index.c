// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The SAs by (SPI, protocol): a chained hash over the indexes of
 * st->sas, so that a lookup does not walk every SA. Tests hold a few; a
 * load test or bench holds tens of thousands, and trafficstatus or the
 * metrics look each of them up: a walk per lookup made that quadratic
 * (10,000 Child SAs: 0.5 s of a metrics answer). The table keeps
 * indexes, not pointers, so that the array may move when it grows; the
 * load factor stays at most 1.
 */
#include <stdint.h>
#include <stdlib.h>

#include "mem.h"

#define INDEX_MIN 64

static size_t slot(const struct mem_state *st, uint32_t spi, uint8_t proto)
{
	uint32_t h = (spi ^ ((uint32_t)proto << 24)) * 2654435761u;

	return h & (st->nheads - 1);
}

static void link_at(struct mem_state *st, size_t i)
{
	size_t s = slot(st, st->sas[i].sa.spi, st->sas[i].sa.proto);

	st->sas[i].next = st->heads[s];
	st->heads[s] = (uint32_t)i + 1;
}

/* A table of 2 * nsa (a power of two) slots, every SA linked again. */
static int rebuild(struct mem_state *st)
{
	size_t n = INDEX_MIN;
	uint32_t *heads;

	while (n < 2 * st->nsa)
		n *= 2;
	heads = calloc(n, sizeof(*heads));
	if (!heads)
		return -1;
	free(st->heads);
	st->heads = heads;
	st->nheads = n;
	for (size_t i = 0; i < st->nsa; i++)
		link_at(st, i);
	return 0;
}

int mem_index_add(struct mem_state *st, struct mem_sa *m)
{
	if (st->nsa > st->nheads)
		return rebuild(st); /* m is linked with the others */
	link_at(st, (size_t)(m - st->sas));
	return 0;
}

void mem_index_del(struct mem_state *st, struct mem_sa *m)
{
	uint32_t want = (uint32_t)(m - st->sas) + 1;
	uint32_t *at;

	if (!st->nheads)
		return;
	for (at = &st->heads[slot(st, m->sa.spi, m->sa.proto)]; *at;
	     at = &st->sas[*at - 1].next)
		if (*at == want) {
			*at = m->next;
			return;
		}
}

struct mem_sa *mem_sa_find(struct mem_state *st, const struct ikb_addr *dst,
			   uint32_t spi, uint8_t proto)
{
	if (!st->nheads)
		return NULL;
	for (uint32_t i = st->heads[slot(st, spi, proto)]; i;
	     i = st->sas[i - 1].next) {
		struct mem_sa *m = &st->sas[i - 1];

		if (m->sa.spi == spi && m->sa.proto == proto &&
		    mem_addr_eq(&m->sa.dst, dst))
			return m;
	}
	return NULL;
}

void mem_sa_remove(struct mem_state *st, struct mem_sa *m)
{
	struct mem_sa *last = &st->sas[st->nsa - 1];

	mem_index_del(st, m);
	if (m != last) {
		mem_index_del(st, last);
		*m = *last;
		link_at(st, (size_t)(m - st->sas));
	}
	st->nsa--;
}

void mem_index_free(struct mem_state *st)
{
	free(st->heads);
	st->heads = NULL;
	st->nheads = 0;
}
