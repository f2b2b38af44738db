// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rules across plugins, checked on descriptors as data before any plugin
 * runs: requirements, one kernel backend, one proposals provider, and each
 * configuration key with exactly one owner.
 */
#include <string.h>

#include "plugin/plugin_priv.h"

static bool listed(const struct plugin_set *ps, const char *name)
{
	for (size_t i = 0; i < ps->n; i++)
		if (strcmp(ps->p[i].name, name) == 0)
			return true;
	return false;
}

static int check_requires(const struct plugin_set *ps,
			  const struct ikb_value *at, struct ikb_diag *d)
{
	int rc = 0;

	for (size_t i = 0; i < ps->n; i++) {
		const struct ikb_plugin *p = ps->p[i].desc;

		for (const char *const *r = p ? p->requires : NULL; r && *r;
		     r++) {
			if (listed(ps, *r))
				continue;
			plugin_err(
				d, at,
				"plugin %s requires %s, which plugins= does not list",
				p->name, *r);
			rc = -1;
		}
	}
	return rc;
}

/* The first two plugins that fill a table; true if there are two. */
static bool two_providers(const struct plugin_set *ps, bool kernel,
			  const char **a, const char **b)
{
	*a = *b = NULL;
	for (size_t i = 0; i < ps->n; i++) {
		const struct ikb_plugin *p = ps->p[i].desc;

		if (!p || !(kernel ? p->kernel != NULL : p->proposals != NULL))
			continue;
		if (!*a) {
			*a = p->name;
		} else {
			*b = p->name;
			return true;
		}
	}
	return false;
}

static int check_single_tables(const struct plugin_set *ps,
			       const struct ikb_value *at, struct ikb_diag *d)
{
	const char *a, *b;
	int rc = 0;

	if (two_providers(ps, true, &a, &b)) {
		plugin_err(
			d, at,
			"two kernel backends: %s and %s; choose one in plugins=",
			a, b);
		rc = -1;
	}
	if (two_providers(ps, false, &a, &b)) {
		plugin_err(
			d, at,
			"two proposals providers: %s and %s; choose one in plugins=",
			a, b);
		rc = -1;
	}
	return rc;
}

static const char *scope_name(enum ikb_key_scope s)
{
	return s == IKB_KEY_SETUP ? "config setup" :
	       s == IKB_KEY_CONN  ? "conn" :
				    "conn and config setup";
}

/* Is key k also owned by a plugin after index i, in an overlapping scope? */
static int check_key_twice(const struct plugin_set *ps, size_t i,
			   const struct ikb_key *k, const struct ikb_value *at,
			   struct ikb_diag *d)
{
	for (size_t j = i + 1; j < ps->n; j++) {
		const struct ikb_plugin *q = ps->p[j].desc;

		for (const struct ikb_key *l = q ? q->keys : NULL; l && l->name;
		     l++) {
			if (strcmp(k->name, l->name) != 0 ||
			    !(k->scope & l->scope))
				continue;
			plugin_err(d, at,
				   "key %s is owned by two plugins: %s and %s",
				   k->name, ps->p[i].name, q->name);
			return -1;
		}
	}
	return 0;
}

static int check_key_core(const struct loaded_plugin *lp,
			  const struct ikb_key *k, const struct ikb_value *at,
			  struct ikb_diag *d)
{
	static const enum ikb_key_scope scopes[] = { IKB_KEY_CONN,
						     IKB_KEY_SETUP };

	for (size_t s = 0; s < 2; s++) {
		if (!(k->scope & scopes[s]) ||
		    !cfg_core_owns(k->name, scopes[s]))
			continue;
		plugin_err(
			d, at,
			"key %s (%s) is owned by both the core and plugin %s",
			k->name, scope_name(scopes[s]), lp->name);
		return -1;
	}
	return 0;
}

static int check_key_owners(const struct plugin_set *ps,
			    const struct ikb_value *at, struct ikb_diag *d)
{
	int rc = 0;

	for (size_t i = 0; i < ps->n; i++) {
		const struct ikb_plugin *p = ps->p[i].desc;

		for (const struct ikb_key *k = p ? p->keys : NULL; k && k->name;
		     k++) {
			if (check_key_core(&ps->p[i], k, at, d) < 0)
				rc = -1;
			if (check_key_twice(ps, i, k, at, d) < 0)
				rc = -1;
		}
	}
	return rc;
}

int plugin_rules_check(const struct plugin_set *ps, const struct ikb_value *at,
		       struct ikb_diag *d)
{
	int rc = 0;

	if (check_requires(ps, at, d) < 0)
		rc = -1;
	if (check_single_tables(ps, at, d) < 0)
		rc = -1;
	if (check_key_owners(ps, at, d) < 0)
		rc = -1;
	return rc;
}
