// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * leftprotoports= and rightprotoports= as Child SAs, by the rule of
 * pair.c: one per pair of a left and a right entry. Each is the core's
 * c[0] narrowed to the pair: leftprotoports' port on the left side's end
 * of the selector (src where this host is left, dst where it is right).
 */
#include <errno.h>
#include <stdio.h>

#include "ms.h"

/* A protocol narrows c unless c already has another one. */
static int narrow_proto(struct ikb_child_spec *c, uint8_t proto, char *why,
			size_t len)
{
	if (!proto)
		return 0;
	if (c->ts.proto && c->ts.proto != proto) {
		snprintf(why, len, "protocols %u and %u differ", c->ts.proto,
			 proto);
		return -1;
	}
	c->ts.proto = proto;
	return 0;
}

static int narrow(struct ikb_child_spec *c, const void *loc, const void *rem,
		  char *why, size_t len)
{
	const struct ms_pp *l = loc, *r = rem;

	if (l) {
		if (narrow_proto(c, l->proto, why, len) < 0)
			return -1;
		c->ts.sport = l->port;
	}
	if (r) {
		if (narrow_proto(c, r->proto, why, len) < 0)
			return -1;
		c->ts.dport = r->port;
	}
	return 0;
}

void ms_pp_lists(struct ms_lists *ls, const struct ms_pp_list *l,
		 const struct ms_pp_list *r)
{
	*ls = (struct ms_lists){
		.key = { "leftprotoports", "rightprotoports" },
		.e = { l->e, r->e },
		.n = { l->n, r->n },
		.size = sizeof(l->e[0]),
		.narrow = narrow,
	};
}

/* One side's list: 0 with l->n = 0 when unset. */
static int side_list(const struct ms_state *st, const struct ikb_section *conn,
		     const char *key, struct ms_pp_list *l,
		     struct ikb_error *err)
{
	const struct ikb_value *v = st->host->get(conn, key);
	char why[128];

	l->n = 0;
	if (!v || ms_parse_pp_list(v->value, l, why, sizeof(why)) == 0)
		return 0;
	return ikb_error_set(err, EINVAL, "%s=%s: %s", key, v->value, why);
}

bool ms_has_protoports(const struct ms_state *st,
		       const struct ikb_section *conn)
{
	return st->host->get(conn, "leftprotoports") ||
	       st->host->get(conn, "rightprotoports");
}

int ms_plan_protoports(const struct ms_state *st,
		       const struct ikb_section *conn,
		       struct ikb_child_plan *plan, struct ikb_error *err)
{
	struct ms_pp_list l, r;
	struct ms_lists ls;
	char why[256];
	int rc = side_list(st, conn, "leftprotoports", &l, err);

	if (!rc)
		rc = side_list(st, conn, "rightprotoports", &r, err);
	if (rc)
		return rc;
	ms_pp_lists(&ls, &l, &r);
	rc = ms_pairs(&ls, plan->left_is_local, &plan->c[0], plan, why,
		      sizeof(why));
	return rc ? ikb_error_set(err, -rc, "%s", why) : 0;
}
