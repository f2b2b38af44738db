// SPDX-License-Identifier: GPL-2.0-or-later
/* Every plugin validates the keys it owns, section by section. */
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

int plugin_set_check(struct plugin_set *ps, const struct cfg *c,
		     struct ikb_diag *d)
{
	unsigned errors = d->errors;
	int rc = 0;

	for (size_t i = 0; i < plugin_set_count(ps); i++)
		if (check_one(&ps->p[i], c, d) < 0)
			rc = -1;
	/* A plugin that reports an error but returns 0 still fails the load. */
	return rc < 0 || d->errors > errors ? -1 : 0;
}
