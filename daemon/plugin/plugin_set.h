/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loaded plugins, in plugins= order, and hook dispatch across them. */
#ifndef IKB_PLUGIN_SET_H
#define IKB_PLUGIN_SET_H

#include <stdbool.h>
#include <ikebana/plugin.h>
#include "config/config.h"

struct plugin_set;
struct event_base;

/*
 * The host interface handed to plugins. base is NULL outside the daemon
 * (checkconfig): timers and fd watches are then unavailable.
 */
const struct ikb_host *plugin_host(struct event_base *base);

/*
 * Load the plugins named in `names` (space or comma separated; NULL means
 * IKB_DEFAULT_PLUGINS). `at` is the plugins= value, for file:line in
 * errors; may be NULL. dir NULL: the build tree when running uninstalled,
 * else IKB_PLUGINDIR. Errors (missing file, ABI mismatch, missing
 * requirement, init failure) go to d. Returns 0 or -1.
 */
int plugin_set_load(struct plugin_set **out, const char *names,
		    const struct ikb_value *at, const char *dir,
		    const struct ikb_host *host, struct ikb_diag *d);
void plugin_set_free(struct plugin_set *ps);

size_t plugin_set_count(const struct plugin_set *ps);
const struct ikb_plugin *plugin_set_get(const struct plugin_set *ps, size_t i,
					void **state);
bool plugin_set_owns(const struct plugin_set *ps, const char *key,
		     enum ikb_key_scope scope);
/*
 * Run every plugin's check_setup and check_conn; when they found no error,
 * every child.check_sa on each conn's tuned SA. Returns -1 on errors.
 */
int plugin_set_check(struct plugin_set *ps, const struct cfg *c,
		     struct ikb_diag *d);

/* The first plugin that fills a table; NULL if none does. */
const struct ikb_kernel_ops *plugin_set_kernel(const struct plugin_set *ps,
					       void **state);
const struct ikb_proposals_ops *
plugin_set_proposals(const struct plugin_set *ps, void **state);
/*
 * child.offer (the ESP proposals of a conn), child.plan and child.tune of
 * every plugin, in plugins= order; the first failure stops, with err said.
 */
int plugin_set_child_offer(struct plugin_set *ps,
			   const struct ikb_section *conn,
			   struct ikb_proposal_list *l, struct ikb_error *err);
int plugin_set_child_plan(struct plugin_set *ps, const struct ikb_section *conn,
			  struct ikb_child_plan *plan, struct ikb_error *err);
int plugin_set_child_tune(struct plugin_set *ps, const struct ikb_section *conn,
			  struct ikb_sa *sa, struct ikb_error *err);

/*
 * Where plugin `name` is loaded from: dir if non-NULL, else
 * $IKEBANA_PLUGIN_DIR, else the build tree when this executable runs from
 * it, else IKB_PLUGINDIR. Fills buf and returns where the directory came
 * from (for error messages), or NULL if buf is too small.
 */
const char *plugin_set_path(const char *dir, const char *name, char *buf,
			    size_t len);
/* A plugin name is [a-z0-9-], 1..63 characters: never a path. */
bool plugin_name_valid(const char *name);
/* The loaded plugin called name, or NULL. */
const struct ikb_plugin *plugin_set_find(const struct plugin_set *ps,
					 const char *name, void **state);
/*
 * A symbol a plugin exports beside its descriptor (kernel-mem's event
 * injector for tests); NULL if the plugin is not loaded or lacks it.
 */
void *plugin_set_symbol(const struct plugin_set *ps, const char *name,
			const char *symbol);

#endif
