// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One Child SA per protoports entry: each is the core's c[0] narrowed to
 * that protocol and port, leftprotoports' port on the left side's end of
 * the selector (src where this host is left, dst where it is right).
 *
 * clones=N (RFC 9611): the core's c[0] is the fallback SA, without a CPU
 * id, and c[1..N] are its clones with CPU ids 0..N-1 and the same
 * selectors. The core negotiates as many of them as the kernel and the
 * peer take.
 */
#include <errno.h>

#include "ms.h"

static int side_list(const struct ms_state *st, const struct ikb_section *conn,
		     const char *key, struct ms_pp_list *l, bool *has,
		     struct ikb_error *err)
{
	const struct ikb_value *v = st->host->get(conn, key);
	char why[128];

	*has = v != NULL;
	if (!v || ms_parse_pp_list(v->value, l, why, sizeof(why)) == 0)
		return 0;
	return ikb_error_set(err, EINVAL, "%s=%s: %s", key, v->value, why);
}

static void narrow(struct ikb_child_spec *c, const struct ms_pp *local,
		   const struct ms_pp *remote)
{
	if (local) {
		c->ts.proto = local->proto ? local->proto : c->ts.proto;
		c->ts.sport = local->port;
	}
	if (remote) {
		c->ts.proto = remote->proto ? remote->proto : c->ts.proto;
		c->ts.dport = remote->port;
	}
}

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
	struct ms_pp_list l, r;
	struct ikb_child_spec base;
	bool has_l, has_r;
	unsigned n;
	int rc;

	if (ms_has_subnets(st, conn))
		return ms_plan_subnets(st, conn, plan, err);
	rc = side_list(st, conn, "leftprotoports", &l, &has_l, err);
	if (!rc)
		rc = side_list(st, conn, "rightprotoports", &r, &has_r, err);
	if (!rc && !has_l && !has_r && st->host->get(conn, "clones"))
		return plan_clones(st, conn, plan, err);
	if (rc || (!has_l && !has_r))
		return rc;
	n = has_l ? l.n : r.n;
	if (has_l && has_r && l.n != r.n)
		return ikb_error_set(
			err, EINVAL,
			"leftprotoports has %u entries, rightprotoports %u",
			l.n, r.n);
	base = plan->c[0];
	for (unsigned i = 0; i < n; i++) {
		const struct ms_pp *le = has_l ? &l.e[i] : NULL;
		const struct ms_pp *re = has_r ? &r.e[i] : NULL;

		/*
		 * Each entry narrows the core's selector, not the entry
		 * before it (c[0] is narrowed first); src is this host's
		 * side: right's list, where right is us.
		 */
		plan->c[i] = base;
		if (plan->left_is_local)
			narrow(&plan->c[i], le, re);
		else
			narrow(&plan->c[i], re, le);
	}
	plan->n = n;
	return 0;
}
