// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one rule for multi-sa's lists, leftsubnets/rightsubnets and
 * leftprotoports/rightprotoports alike, as libreswan's leftsubnets=:
 * every left entry with every right entry, one Child SA per pair. A side
 * without a list pairs as one entry that keeps the core's selector for
 * that side (leftsubnet=, leftprotoport=, or the host), so a one-entry
 * list and no list pair with all of the other side's entries.
 *
 * The order is this host's: its first entry with each of the peer's, in
 * the peer's order, then its second entry, ... The initiator brings the
 * first pair in IKE_AUTH and the others by CREATE_CHILD_SA in that order.
 */
#include <errno.h>
#include <stdio.h>

#include "ms.h"

static const void *entry(const struct ms_lists *ls, int side, unsigned i)
{
	if (!ls->n[side])
		return NULL;
	return (const char *)ls->e[side] + (size_t)i * ls->size;
}

/* "leftsubnets entry 2", or what a side without a list keeps. */
static void entry_name(const struct ms_lists *ls, int side, unsigned i,
		       char *buf, size_t len)
{
	if (ls->n[side])
		snprintf(buf, len, "%s entry %u", ls->key[side], i + 1);
	else
		snprintf(buf, len, "the conn's own %s side (no %s)",
			 side ? "right" : "left", ls->key[side]);
}

static unsigned at_least_one(unsigned n)
{
	return n ? n : 1;
}

int ms_pairs(const struct ms_lists *ls, bool left_is_local,
	     const struct ikb_child_spec *base, struct ikb_child_plan *plan,
	     char *why, size_t len)
{
	/* a copy: base may be plan->c[0], which the first pair overwrites */
	const struct ikb_child_spec b = *base;
	int loc = left_is_local ? 0 : 1, rem = 1 - loc;
	unsigned nloc = at_least_one(ls->n[loc]);
	unsigned nrem = at_least_one(ls->n[rem]);
	unsigned long total = (unsigned long)nloc * nrem;
	char w[96], ln[64], rn[64];
	unsigned k = 0;

	/* a cross product that does not fit is refused, never cut short */
	if (total > IKB_CHILD_PLAN_MAX) {
		snprintf(
			why, len,
			"%s (%u) and %s (%u) make %lu Child SAs, more than %u: every left entry pairs with every right entry",
			ls->key[0], at_least_one(ls->n[0]), ls->key[1],
			at_least_one(ls->n[1]), total, IKB_CHILD_PLAN_MAX);
		return -E2BIG;
	}
	for (unsigned i = 0; i < nloc; i++)
		for (unsigned j = 0; j < nrem; j++) {
			struct ikb_child_spec c = b;
			unsigned li = loc ? j : i, ri = loc ? i : j;

			if (ls->narrow(&c, entry(ls, loc, i), entry(ls, rem, j),
				       w, sizeof(w)) < 0) {
				entry_name(ls, 0, li, ln, sizeof(ln));
				entry_name(ls, 1, ri, rn, sizeof(rn));
				snprintf(why, len,
					 "%s and %s cannot be one Child SA: %s",
					 ln, rn, w);
				return -EINVAL;
			}
			if (plan)
				plan->c[k++] = c;
		}
	if (plan)
		plan->n = k;
	return 0;
}
