/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What loader.c, rules.c, check.c and dispatch.c share about a plugin set. */
#ifndef IKB_PLUGIN_PRIV_H
#define IKB_PLUGIN_PRIV_H

#include "config/diag.h"
#include "plugin/plugin_set.h"

struct loaded_plugin {
	char *name; /* as written in plugins= */
	char *path;
	void *handle;
	const struct ikb_plugin *desc; /* NULL until the descriptor passed */
	/* desc's tables in this ikebanad's layout (tables.c); NULL if none */
	struct ikb_proposals_ops *proposals;
	struct ikb_child_ops *child;
	struct ikb_kernel_ops *kernel;
	void *state;
	bool inited;
};

struct plugin_set {
	size_t n;
	struct loaded_plugin *p;
	const struct ikb_host *host;
};

/* An error against the plugins= value (file:line), or against nothing. */
void plugin_err(struct ikb_diag *d, const struct ikb_value *at, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));

/* Copy desc's ops tables into lp (tables.c): 0, or -1 with the error said. */
int plugin_tables_copy(struct loaded_plugin *lp, const struct ikb_value *at,
		       struct ikb_diag *d);
void plugin_tables_free(struct loaded_plugin *lp);

/* Cross-plugin rules once every descriptor is read: 0 or -1. */
int plugin_rules_check(const struct plugin_set *ps, const struct ikb_value *at,
		       struct ikb_diag *d);

#endif
