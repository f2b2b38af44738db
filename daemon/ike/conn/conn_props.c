// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A proposal list is 8 KB as the ABI declares it (16 proposals of 64
 * transforms), and a conn has two. 1,000 conns with the same ike= and
 * esp= would keep 16 MB of equal lists; they share one, trimmed to the
 * proposals it has. Exchanges take a copy, since they change theirs.
 */
#include <stdlib.h>
#include <string.h>

#include "ike/conn/conn.h"

struct conn_props {
	struct conn_props *next;
	unsigned n;
	struct ikb_proposal p[];
};

static bool same(const struct conn_props *a, const struct ikb_proposal_list *l)
{
	return a->n == l->n && !memcmp(a->p, l->p, l->n * sizeof(l->p[0]));
}

const struct conn_props *conn_props_intern(struct conn_props **pool,
					   const struct ikb_proposal_list *l)
{
	struct conn_props *p;

	for (p = *pool; p; p = p->next)
		if (same(p, l))
			return p;
	p = malloc(sizeof(*p) + l->n * sizeof(l->p[0]));
	if (!p)
		return NULL;
	p->n = l->n;
	memcpy(p->p, l->p, l->n * sizeof(l->p[0]));
	p->next = *pool;
	*pool = p;
	return p;
}

unsigned conn_props_esn(const struct conn_props *p)
{
	unsigned m = 0;

	for (unsigned i = 0; p && i < p->n; i++)
		for (unsigned x = 0; x < p->p[i].n; x++)
			if (p->p[i].xf[x].type == IKB_XF_ESN)
				m |= p->p[i].xf[x].id ? CONN_ESN_YES :
							CONN_ESN_NO;
	return m;
}

void conn_props_copy(const struct conn_props *p, struct ikb_proposal_list *out)
{
	memset(out, 0, sizeof(*out));
	out->n = p->n;
	memcpy(out->p, p->p, p->n * sizeof(p->p[0]));
}

void conn_props_free(struct conn_props **pool)
{
	while (*pool) {
		struct conn_props *next = (*pool)->next;

		free(*pool);
		*pool = next;
	}
}
