// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The policy table: keyed by selector, direction, mark and if_id, as the
 * kernel's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

static bool sel_eq(const struct ikb_selector *a, const struct ikb_selector *b)
{
	return mem_addr_eq(&a->src, &b->src) && mem_addr_eq(&a->dst, &b->dst) &&
	       a->src_plen == b->src_plen && a->dst_plen == b->dst_plen &&
	       a->proto == b->proto && a->sport == b->sport &&
	       a->dport == b->dport;
}

static struct ikb_policy *pol_find(struct mem_state *st,
				   const struct ikb_policy *pol)
{
	for (size_t i = 0; i < st->npol; i++) {
		struct ikb_policy *p = &st->pols[i];

		if (p->dir == pol->dir && p->mark == pol->mark &&
		    p->mark_mask == pol->mark_mask && p->if_id == pol->if_id &&
		    sel_eq(&p->sel, &pol->sel))
			return p;
	}
	return NULL;
}

static const char *const dir_names[] = { "in", "out", "fwd" };

static int pol_fail(struct ikb_error *err, int errnum, const char *what,
		    const struct ikb_policy *pol)
{
	char s[64], d[64];

	return ikb_error_set(err, errnum, "policy %s/%u -> %s/%u dir %s %s",
			     mem_addr_str(&pol->sel.src, s, sizeof(s)),
			     pol->sel.src_plen,
			     mem_addr_str(&pol->sel.dst, d, sizeof(d)),
			     pol->sel.dst_plen, dir_names[pol->dir], what);
}

int mem_policy_add(void *state, const struct ikb_policy *pol,
		   struct ikb_error *err)
{
	struct mem_state *st = state;
	int rc = mem_policy_validate(pol, err);

	if (!rc)
		rc = mem_refused(st, MEM_POLICY_ADD, err);
	if (rc)
		return rc;
	if (pol_find(st, pol))
		return pol_fail(err, EEXIST, "already exists", pol);
	if (st->npol == st->cappol) {
		size_t cap = st->cappol ? st->cappol * 2 : 16;
		struct ikb_policy *n = reallocarray(st->pols, cap, sizeof(*n));

		if (!n)
			return ikb_error_set(err, ENOMEM, "out of memory");
		st->pols = n;
		st->cappol = cap;
	}
	st->pols[st->npol++] = *pol;
	return 0;
}

int mem_policy_del(void *state, const struct ikb_policy *pol,
		   struct ikb_error *err)
{
	struct mem_state *st = state;
	struct ikb_policy *p;
	int rc = mem_policy_validate(pol, err);

	if (rc)
		return rc;
	p = pol_find(st, pol);
	if (!p)
		return pol_fail(err, ENOENT, "does not exist", pol);
	*p = st->pols[--st->npol];
	return 0;
}

int mem_policy_update(void *state, const struct ikb_policy *pol,
		      struct ikb_error *err)
{
	struct mem_state *st = state;
	struct ikb_policy *p;
	int rc = mem_policy_validate(pol, err);

	if (rc)
		return rc;
	p = pol_find(st, pol);
	if (!p)
		return mem_policy_add(state, pol, err);
	*p = *pol;
	return 0;
}
