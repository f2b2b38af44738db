// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Validate clones=, leftprotoports=, rightprotoports=, leftsubnets= and
 * rightsubnets=, and that a conn uses one way of making several Child SAs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms.h"

static const char *const side_name[2] = { "left", "right" };

static void key_name(char *buf, size_t len, int side, bool list)
{
	snprintf(buf, len, "%sprotoport%s", side_name[side], list ? "s" : "");
}

/* Parse one side's list; l->n = 0 when it is unset or not valid. */
static int check_list(const struct ms_state *st, const struct ikb_section *conn,
		      int side, struct ms_pp_list *l, struct ikb_diag *d)
{
	char key[32], why[128];
	const struct ikb_value *v, *single;

	key_name(key, sizeof(key), side, true);
	v = st->host->get(conn, key);
	l->n = 0;
	if (!v)
		return 0;
	key_name(key, sizeof(key), side, false);
	single = st->host->get(conn, key);
	if (single) {
		st->host->report(
			d, conn, v, IKB_SEV_ERROR,
			"%s and %sprotoports cannot both be set (%s at %s:%u)",
			key, side_name[side], key, single->file, single->line);
		return -1;
	}
	if (ms_parse_pp_list(v->value, l, why, sizeof(why)) < 0) {
		st->host->report(
			d, conn, v, IKB_SEV_ERROR,
			"expected PROTO/PORT entries separated by commas or spaces (such as tcp/443, udp/53), got '%s': %s",
			v->value, why);
		l->n = 0;
		return -1;
	}
	return 0;
}

/*
 * Left's and right's lists of one kind by the one rule (pair.c): not more
 * pairs than a plan holds, and each pair one selector. Reported at the
 * right-hand list, else the left-hand one.
 */
static int check_pairs(const struct ms_state *st,
		       const struct ikb_section *conn,
		       const struct ms_lists *ls, struct ikb_diag *d)
{
	const struct ikb_value *v = st->host->get(conn, ls->key[1]);
	/* the core's selector is not known here: families and protocol 0 */
	const struct ikb_child_spec zero = { .cpu = -1 };
	char why[256];

	if (!v)
		v = st->host->get(conn, ls->key[0]);
	if (!v || ms_pairs(ls, true, &zero, NULL, why, sizeof(why)) == 0)
		return 0;
	st->host->report(d, conn, v, IKB_SEV_ERROR, "%s", why);
	return -1;
}

/*
 * Per-CPU clones of several protoports entries would need the responder
 * to count CPUs per selector set; one selector set is what RFC 9611's
 * deployments (and libreswan's clones=) use.
 */
static int check_clones(const struct ms_state *st,
			const struct ikb_section *conn, struct ikb_diag *d)
{
	const struct ikb_value *v = st->host->get(conn, "clones");
	const struct ikb_value *pp = st->host->get(conn, "leftprotoports");
	unsigned n;

	if (!v)
		return 0;
	if (!pp)
		pp = st->host->get(conn, "rightprotoports");
	if (ms_parse_clones(v->value, &n) == 0 && pp) {
		st->host->report(
			d, conn, v, IKB_SEV_ERROR,
			"per-CPU clones of several protoports entries are not supported: drop clones= or %s (%s:%u)",
			pp->key, pp->file, pp->line);
		return -1;
	}
	if (ms_parse_clones(v->value, &n) == 0)
		return 0;
	st->host->report(
		d, conn, v, IKB_SEV_ERROR,
		"expected an integer 1..%u or yes (one per online CPU), got '%s'",
		IKB_CHILD_PLAN_MAX, v->value);
	return -1;
}

/*
 * leftsubnets=: its syntax, and not together with leftsubnet=; l->n = 0
 * when it is unset or not valid.
 */
static int check_nets(const struct ms_state *st, const struct ikb_section *conn,
		      int side, struct ms_net_list *l, struct ikb_diag *d)
{
	char key[32], why[160];
	const struct ikb_value *v, *single;

	l->n = 0;
	snprintf(key, sizeof(key), "%ssubnets", side_name[side]);
	if (!(v = st->host->get(conn, key)))
		return 0;
	snprintf(key, sizeof(key), "%ssubnet", side_name[side]);
	single = st->host->get(conn, key);
	if (single) {
		st->host->report(
			d, conn, v, IKB_SEV_ERROR,
			"%s and %ssubnets cannot both be set (%s at %s:%u)",
			key, side_name[side], key, single->file, single->line);
		return -1;
	}
	if (ms_parse_net_list(v->value, l, why, sizeof(why)) < 0) {
		st->host->report(d, conn, v, IKB_SEV_ERROR, "%s", why);
		l->n = 0;
		return -1;
	}
	return 0;
}

/* One way of making several Child SAs per conn. */
static int check_one_way(const struct ms_state *st,
			 const struct ikb_section *conn, struct ikb_diag *d)
{
	const char *const keys[] = { "leftsubnets", "rightsubnets",
				     "leftprotoports", "rightprotoports",
				     "clones" };
	const struct ikb_value *nets = NULL, *other = NULL, *v;

	for (unsigned i = 0; i < 5; i++) {
		if (!(v = st->host->get(conn, keys[i])))
			continue;
		if (i < 2 && !nets)
			nets = v;
		else if (i >= 2 && !other)
			other = v;
	}
	if (!nets || !other)
		return 0;
	st->host->report(
		d, conn, nets, IKB_SEV_ERROR,
		"cannot be combined with %s (%s:%u): one way of making several Child SAs per conn",
		other->key, other->file, other->line);
	return -1;
}

/* Both subnets lists, and their pairs. */
static int check_subnets(const struct ms_state *st,
			 const struct ikb_section *conn, struct ikb_diag *d)
{
	struct ms_net_list *l = calloc(2, sizeof(*l));
	struct ms_lists ls;
	int rc = 0;

	if (!l) {
		st->host->report(d, conn, NULL, IKB_SEV_ERROR, "out of memory");
		return -1;
	}
	if (check_nets(st, conn, 0, &l[0], d) < 0 ||
	    check_nets(st, conn, 1, &l[1], d) < 0)
		rc = -1;
	ms_net_lists(&ls, &l[0], &l[1]);
	if (!rc && check_pairs(st, conn, &ls, d) < 0)
		rc = -1;
	free(l);
	return rc;
}

/* Both protoports lists, and their pairs. */
static int check_protoports(const struct ms_state *st,
			    const struct ikb_section *conn, struct ikb_diag *d)
{
	struct ms_pp_list l, r;
	struct ms_lists ls;
	int rc = 0;

	if (check_list(st, conn, 0, &l, d) < 0)
		rc = -1;
	if (check_list(st, conn, 1, &r, d) < 0)
		rc = -1;
	ms_pp_lists(&ls, &l, &r);
	if (!rc && check_pairs(st, conn, &ls, d) < 0)
		rc = -1;
	return rc;
}

int ms_check_conn(void *state, const struct ikb_section *conn,
		  struct ikb_diag *d)
{
	const struct ms_state *st = state;
	int rc = check_clones(st, conn, d);

	if (check_subnets(st, conn, d) < 0 || check_one_way(st, conn, d) < 0)
		rc = -1;
	if (check_protoports(st, conn, d) < 0)
		rc = -1;
	return rc;
}
