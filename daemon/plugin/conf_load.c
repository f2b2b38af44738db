// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The configuration pipeline. Each stage after the plugins are loaded runs
 * even when an earlier one failed, so that one checkconfig shows every
 * problem; parse and plugin errors stop it, since everything after them
 * would only repeat them.
 */
#include <string.h>

#include "config/groups.h"
#include "plugin/conf_load.h"

static bool owns_cb(void *ctx, const char *key, enum ikb_key_scope scope)
{
	return plugin_set_owns(ctx, key, scope);
}

static int load_plugins(const struct conf_load_opts *o, struct loaded_conf *lc,
			struct ikb_diag *d)
{
	const struct ikb_value *v = lc->cfg->set.plugins;

	return plugin_set_load(&lc->plugins, v ? v->value : NULL, v,
			       o->plugindir, plugin_host(o->base), d);
}

int conf_check(struct loaded_conf *lc, struct ikb_diag *d)
{
	int rc = 0;

	if (cfg_check_keys(lc->cfg, owns_cb, lc->plugins, d) < 0)
		rc = -1;
	if (cfg_check_core(lc->cfg, d) < 0)
		rc = -1;
	if (cfg_groups_load(lc->cfg, d) < 0)
		rc = -1;
	if (plugin_set_check(lc->plugins, lc->cfg, d) < 0)
		rc = -1;
	return rc;
}

static int check_all(const struct conf_load_opts *o, struct loaded_conf *lc,
		     struct ikb_diag *d)
{
	int rc = conf_check(lc, d);

	if (o->secrets && secrets_load_ex(o->secrets, o->secrets_flags,
					  &lc->secrets, d) < 0)
		rc = -1;
	return rc;
}

int conf_load(const struct conf_load_opts *o, struct loaded_conf *out,
	      struct ikb_diag *d)
{
	struct loaded_conf lc = { 0 };
	unsigned errors = d->errors;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = cfg_parse_file(o->config, &lc.cfg, d);
	if (rc == 0)
		rc = load_plugins(o, &lc, d);
	if (rc == 0)
		rc = check_all(o, &lc, d);
	if (rc < 0 || d->errors > errors) {
		conf_unload(&lc);
		return -1;
	}
	*out = lc;
	return 0;
}

void conf_unload(struct loaded_conf *lc)
{
	/* Plugins first: their fini may still look at the configuration. */
	plugin_set_free(lc->plugins);
	if (lc->secrets)
		secrets_free(lc->secrets);
	if (lc->cfg)
		cfg_free(lc->cfg);
	memset(lc, 0, sizeof(*lc));
}
