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
const struct ikb_plugin *plugin_set_get(const struct plugin_set *ps,
					size_t i, void **state);
bool plugin_set_owns(const struct plugin_set *ps, const char *key,
		     enum ikb_key_scope scope);
/* Run every plugin's check_setup and check_conn. Returns -1 on errors. */
int plugin_set_check(struct plugin_set *ps, const struct cfg *c,
		     struct ikb_diag *d);

/* The first plugin that fills a table; NULL if none does. */
const struct ikb_kernel_ops *plugin_set_kernel(const struct plugin_set *ps,
					       void **state);
const struct ikb_proposals_ops *
plugin_set_proposals(const struct plugin_set *ps, void **state);
/* child.plan then child.tune of every plugin, in order. */
int plugin_set_child_plan(struct plugin_set *ps, const struct ikb_section *conn,
			  struct ikb_child_plan *plan, struct ikb_error *err);
int plugin_set_child_tune(struct plugin_set *ps, const struct ikb_section *conn,
			  struct ikb_sa *sa, struct ikb_error *err);

#endif
