// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The compiled conns by their local address, for conn_match.c. An
 * incoming IKE_SA_INIT or IKE_AUTH looks for its conn among the views
 * whose local address is the one the request reached (any other scores
 * 0), and with 10,000 conns, one address each, trying every view cost
 * more per request than the rest of the exchange (perf: 13 % of a
 * daemon's time bringing 5,000 up). A view without a local address (a
 * name not resolved yet) matches nothing and is left out; conn_host_set()
 * builds the index again once a name resolves.
 */
#include <stdlib.h>
#include <string.h>

#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "log/log.h"

struct conn_index {
	size_t nb; /* buckets, a power of two */
	size_t *start; /* nb + 1: bucket b is ent[start[b] .. start[b+1]) */
	struct conn_index_ent *ent;
};

static size_t addr_hash(const struct ikb_addr *a, size_t nb)
{
	size_t n = a->family == AF_INET6 ? 16 : 4;
	uint32_t h = 2166136261u ^ a->family;

	for (size_t i = 0; i < n; i++)
		h = (h ^ a->bytes[i]) * 16777619u;
	return h & (nb - 1);
}

/* Whether side's view of c can ever be chosen by its local address. */
static bool indexed(const struct conn *c, int side)
{
	const struct ikb_addr *a = &c->view[side].local.addr;

	return !c->ignored && c->shunt == IKB_POLICY_IPSEC &&
	       !c->view_rc[side] &&
	       (a->family == AF_INET || a->family == AF_INET6);
}

void conn_index_free(struct conn_index *x)
{
	if (!x)
		return;
	free(x->start);
	free(x->ent);
	free(x);
}

/* Counting sort into buckets, each in the order best() tried them. */
static void fill(struct conn_index *x, const struct conn_set *set)
{
	size_t *at = x->start + 1;

	for (size_t i = 0; i < set->n; i++)
		for (int side = 1; side >= 0; side--)
			if (indexed(&set->conns[i], side))
				at[addr_hash(
					&set->conns[i].view[side].local.addr,
					x->nb)]++;
	for (size_t b = 0; b < x->nb; b++)
		x->start[b + 1] += x->start[b];
	for (size_t i = 0; i < set->n; i++)
		for (int side = 1; side >= 0; side--) {
			size_t b;

			if (!indexed(&set->conns[i], side))
				continue;
			b = addr_hash(&set->conns[i].view[side].local.addr,
				      x->nb);
			x->ent[x->start[b]++] =
				(struct conn_index_ent){ (uint32_t)i, side };
		}
	/* fill advanced each start to the next bucket's: back by one */
	memmove(x->start + 1, x->start, x->nb * sizeof(x->start[0]));
	x->start[0] = 0;
}

void conn_index_build(struct conn_set *set)
{
	struct conn_index *x = calloc(1, sizeof(*x));
	size_t nb = 16;

	conn_index_free(set->by_local);
	set->by_local = NULL;
	while (nb < set->n * 2)
		nb *= 2;
	if (x) {
		x->nb = nb;
		x->start = calloc(nb + 1, sizeof(x->start[0]));
		x->ent = calloc(set->n * 2 + 1, sizeof(x->ent[0]));
	}
	if (!x || !x->start || !x->ent) {
		/* conn_match.c then tries every view, as before */
		log_err("out of memory indexing %zu conns", set->n);
		conn_index_free(x);
		return;
	}
	fill(x, set);
	set->by_local = x;
}

const struct conn_index_ent *conn_index_find(const struct conn_set *set,
					     const struct ikb_addr *local,
					     size_t *n)
{
	const struct conn_index *x = set->by_local;
	size_t b;

	b = addr_hash(local, x->nb);
	*n = x->start[b + 1] - x->start[b];
	return x->ent + x->start[b];
}
