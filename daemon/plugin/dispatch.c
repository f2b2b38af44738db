// SPDX-License-Identifier: GPL-2.0-or-later
/* Finding plugins and their tables, and calling hooks in plugins= order. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "plugin/plugin_priv.h"

size_t plugin_set_count(const struct plugin_set *ps)
{
	return ps ? ps->n : 0;
}

const struct ikb_plugin *plugin_set_get(const struct plugin_set *ps, size_t i,
					void **state)
{
	if (!ps || i >= ps->n)
		return NULL;
	if (state)
		*state = ps->p[i].state;
	return ps->p[i].desc;
}

const struct ikb_plugin *plugin_set_find(const struct plugin_set *ps,
					 const char *name, void **state)
{
	for (size_t i = 0; i < plugin_set_count(ps); i++)
		if (strcmp(ps->p[i].name, name) == 0)
			return plugin_set_get(ps, i, state);
	return NULL;
}

void *plugin_set_symbol(const struct plugin_set *ps, const char *name,
			const char *symbol)
{
	for (size_t i = 0; i < plugin_set_count(ps); i++)
		if (strcmp(ps->p[i].name, name) == 0)
			return dlsym(ps->p[i].handle, symbol);
	return NULL;
}

bool plugin_set_owns(const struct plugin_set *ps, const char *key,
		     enum ikb_key_scope scope)
{
	for (size_t i = 0; i < plugin_set_count(ps); i++)
		for (const struct ikb_key *k = ps->p[i].desc->keys;
		     k && k->name; k++)
			if ((k->scope & scope) && strcmp(k->name, key) == 0)
				return true;
	return false;
}

const struct ikb_kernel_ops *plugin_set_kernel(const struct plugin_set *ps,
					       void **state)
{
	for (size_t i = 0; i < plugin_set_count(ps); i++) {
		if (!ps->p[i].kernel)
			continue;
		if (state)
			*state = ps->p[i].state;
		return ps->p[i].kernel;
	}
	return NULL;
}

const struct ikb_proposals_ops *
plugin_set_proposals(const struct plugin_set *ps, void **state)
{
	for (size_t i = 0; i < plugin_set_count(ps); i++) {
		if (!ps->p[i].proposals)
			continue;
		if (state)
			*state = ps->p[i].state;
		return ps->p[i].proposals;
	}
	return NULL;
}

/* A hook that fails without saying why still gets a message. */
static void default_msg(struct ikb_error *err, const char *plugin,
			const char *hook, int rc)
{
	if (err->msg[0] == '\0')
		snprintf(err->msg, sizeof(err->msg), "plugin %s: %s failed: %s",
			 plugin, hook, strerror(rc < 0 ? -rc : rc));
}

int plugin_set_child_plan(struct plugin_set *ps, const struct ikb_section *conn,
			  struct ikb_child_plan *plan, struct ikb_error *err)
{
	err->msg[0] = '\0';
	for (size_t i = 0; i < plugin_set_count(ps); i++) {
		const struct ikb_child_ops *c = ps->p[i].child;
		int rc;

		if (!c || !c->plan)
			continue;
		rc = c->plan(ps->p[i].state, conn, plan, err);
		if (rc != 0) {
			default_msg(err, ps->p[i].name, "child.plan", rc);
			return rc;
		}
	}
	return 0;
}

int plugin_set_child_tune(struct plugin_set *ps, const struct ikb_section *conn,
			  struct ikb_sa *sa, struct ikb_error *err)
{
	err->msg[0] = '\0';
	for (size_t i = 0; i < plugin_set_count(ps); i++) {
		const struct ikb_child_ops *c = ps->p[i].child;
		int rc;

		if (!c || !c->tune)
			continue;
		rc = c->tune(ps->p[i].state, conn, sa, err);
		if (rc != 0) {
			default_msg(err, ps->p[i].name, "child.tune", rc);
			return rc;
		}
	}
	return 0;
}

int plugin_set_child_offer(struct plugin_set *ps,
			   const struct ikb_section *conn,
			   struct ikb_proposal_list *l, struct ikb_error *err)
{
	err->msg[0] = '\0';
	for (size_t i = 0; i < plugin_set_count(ps); i++) {
		const struct ikb_child_ops *c = ps->p[i].child;
		int rc;

		if (!c || !c->offer)
			continue;
		rc = c->offer(ps->p[i].state, conn, l, err);
		if (rc != 0) {
			default_msg(err, ps->p[i].name, "child.offer", rc);
			return rc;
		}
	}
	return 0;
}
