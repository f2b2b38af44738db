// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every plugin validates the keys it owns, section by section; then the
 * checks that span plugins' keys see the values the owners parsed.
 */
#include <netinet/in.h>

#include "plugin/plugin_priv.h"

static int check_one(const struct loaded_plugin *lp, const struct cfg *c,
		     struct ikb_diag *d)
{
	const struct ikb_plugin *p = lp->desc;
	int rc = 0;

	if (p->check_setup && p->check_setup(lp->state, &c->setup, d) != 0)
		rc = -1;
	for (size_t i = 0; p->check_conn && i < c->nconns; i++)
		if (p->check_conn(lp->state, &c->conns[i], d) != 0)
			rc = -1;
	return rc;
}

/*
 * The inbound SA the conn would get, as every child.tune fills it, goes to
 * every child.check_sa. The SA is a template (no ESN, no CPU id): a tune
 * that refuses it says why at install too, so here it costs only the
 * checks, with a warning.
 */
static int check_sa_one(struct plugin_set *ps, const struct ikb_section *conn,
			struct ikb_diag *d)
{
	struct ikb_sa sa = { .proto = IPPROTO_ESP,
			     .dir = IKB_DIR_IN,
			     .cpu = -1 };
	struct ikb_error err;
	int rc = 0;

	if (plugin_set_child_tune(ps, conn, &sa, &err)) {
		ps->host->report(d, conn, NULL, IKB_SEV_WARNING,
				 "not checked across plugins: %s", err.msg);
		return 0;
	}
	for (size_t i = 0; i < plugin_set_count(ps); i++) {
		const struct ikb_child_ops *c = ps->p[i].child;

		if (c && c->check_sa &&
		    c->check_sa(ps->p[i].state, conn, &sa, d) != 0)
			rc = -1;
	}
	return rc;
}

int plugin_set_check(struct plugin_set *ps, const struct cfg *c,
		     struct ikb_diag *d)
{
	unsigned errors = d->errors;
	bool valid;
	int rc = 0;

	for (size_t i = 0; i < plugin_set_count(ps); i++)
		if (check_one(&ps->p[i], c, d) < 0)
			rc = -1;
	/* tune reads what check_conn validated: only valid values */
	valid = rc == 0 && d->errors == errors;
	for (size_t i = 0; valid && i < c->nconns; i++)
		if (check_sa_one(ps, &c->conns[i], d) < 0)
			rc = -1;
	/* A plugin that reports an error but returns 0 still fails the load. */
	return rc < 0 || d->errors > errors ? -1 : 0;
}
