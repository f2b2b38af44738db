/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The whole configuration pipeline, shared by ikebanad (start, SIGHUP) and
 * `ikebana checkconfig`: parse → plugins= → load plugins → key ownership →
 * core values → plugin checks → secrets.
 */
#ifndef IKB_CONF_LOAD_H
#define IKB_CONF_LOAD_H

#include "config/config.h"
#include "config/secrets.h"
#include "plugin/plugin_set.h"

struct loaded_conf {
	struct cfg *cfg;
	struct plugin_set *plugins;
	struct secrets *secrets; /* NULL if no secrets path was given */
};

struct conf_load_opts {
	const char *config;    /* path */
	const char *secrets;   /* path, or NULL to skip */
	unsigned secrets_flags; /* SECRETS_* (secrets.h) */
	const char *plugindir; /* NULL: automatic */
	struct event_base *base; /* NULL outside the daemon */
};

/* Returns 0, or -1 with the reasons in d; out is then empty. */
int conf_load(const struct conf_load_opts *o, struct loaded_conf *out,
	      struct ikb_diag *d);
void conf_unload(struct loaded_conf *lc);
/*
 * The stages after the plugins are loaded, secrets aside, on lc->cfg with
 * lc->plugins: for a configuration composed while the daemon runs.
 */
int conf_check(struct loaded_conf *lc, struct ikb_diag *d);

#endif
