// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The plan: subnets lists, protoports lists (each by pair.c's rule), or
 * clones.
 *
 * clones=N (RFC 9611): the core's c[0] is the fallback SA, without a CPU
 * id, and c[1..N] are its clones with CPU ids 0..N-1 and the same
 * selectors. The core negotiates as many of them as the kernel and the
 * peer take. These entries are clones= as multi-sa exports it (its only
 * parser): the core counts them, and names that count in its log lines.
 */
#include <errno.h>

#include "ms.h"

static int plan_clones(const struct ms_state *st,
		       const struct ikb_section *conn,
		       struct ikb_child_plan *plan, struct ikb_error *err)
{
	const struct ikb_value *v = st->host->get(conn, "clones");
	unsigned n;

	if (ms_parse_clones(v->value, &n))
		return ikb_error_set(err, EINVAL, "clones=%s: not 1..%u or yes",
				     v->value, IKB_CHILD_PLAN_MAX - 1);
	if (n > IKB_CHILD_PLAN_MAX - 1)
		n = IKB_CHILD_PLAN_MAX - 1;
	plan->c[0].cpu = -1;
	for (unsigned i = 1; i <= n; i++) {
		plan->c[i] = plan->c[0];
		plan->c[i].cpu = (int32_t)(i - 1);
	}
	plan->n = n + 1;
	return 0;
}

int ms_plan(void *state, const struct ikb_section *conn,
	    struct ikb_child_plan *plan, struct ikb_error *err)
{
	const struct ms_state *st = state;

	if (ms_has_subnets(st, conn))
		return ms_plan_subnets(st, conn, plan, err);
	if (ms_has_protoports(st, conn))
		return ms_plan_protoports(st, conn, plan, err);
	if (st->host->get(conn, "clones"))
		return plan_clones(st, conn, plan, err);
	return 0;
}
