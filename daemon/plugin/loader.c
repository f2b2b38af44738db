// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugins= → dlopen each plugin → check its descriptor → cross-plugin
 * rules → init. Every problem is reported before anything is initialised,
 * so that one start-up shows them all.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "build-config.h"
#include "plugin/plugin_priv.h"

void plugin_err(struct ikb_diag *d, const struct ikb_value *at, const char *fmt,
		...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(d, IKB_SEV_ERROR, at ? at->file : NULL, at ? at->line : 0, fmt,
		 ap);
	va_end(ap);
}

static bool listed_before(const struct plugin_set *ps, const char *name)
{
	for (size_t i = 0; i < ps->n; i++)
		if (strcmp(ps->p[i].name, name) == 0)
			return true;
	return false;
}

/* Split plugins= on spaces and commas into ps->p[].name. */
static int split_names(struct plugin_set *ps, const char *names,
		       const struct ikb_value *at, struct ikb_diag *d)
{
	static const char sep[] = " \t,";
	char *copy = strdup(names), *save = NULL, *tok;
	int rc = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, sep, &save); tok;
	     tok = strtok_r(NULL, sep, &save)) {
		if (!plugin_name_valid(tok)) {
			plugin_err(
				d, at,
				"plugins=: '%s' is not a plugin name (expected lower-case letters, digits and '-')",
				tok);
			rc = -1;
			continue;
		}
		if (listed_before(ps, tok)) {
			plugin_err(d, at, "plugins=: %s is listed twice", tok);
			rc = -1;
			continue;
		}
		ps->p = reallocarray(ps->p, ps->n + 1, sizeof(*ps->p));
		if (!ps->p)
			abort();
		ps->p[ps->n++] = (struct loaded_plugin){ .name = strdup(tok) };
	}
	free(copy);
	return rc;
}

static int check_keys(struct loaded_plugin *lp, const struct ikb_value *at,
		      struct ikb_diag *d)
{
	const struct ikb_key *k = lp->desc->keys;
	const unsigned all = IKB_KEY_CONN | IKB_KEY_SETUP;

	for (; k && k->name; k++) {
		if (k->scope == 0 || (k->scope & ~all) != 0) {
			plugin_err(
				d, at,
				"plugin %s (%s): key %s has an invalid scope %d",
				lp->name, lp->path, k->name, (int)k->scope);
			return -1;
		}
	}
	return 0;
}

/*
 * The ABI number is read before anything else: a plugin built for another
 * ABI may have a different layout after it, or may be shorter.
 */
static int check_descriptor(struct loaded_plugin *lp, const void *sym,
			    const struct ikb_value *at, struct ikb_diag *d)
{
	const struct ikb_plugin *desc = sym;
	uint32_t abi = *(const uint32_t *)sym;

	if (abi != IKB_PLUGIN_ABI) {
		plugin_err(
			d, at,
			"plugin %s (%s): ABI version %u, ikebanad expects %u",
			lp->name, lp->path, abi, IKB_PLUGIN_ABI);
		return -1;
	}
	if (desc->size != sizeof(*desc)) {
		plugin_err(
			d, at,
			"plugin %s (%s): descriptor is %u bytes, ikebanad expects %zu for ABI %u",
			lp->name, lp->path, desc->size, sizeof(*desc),
			IKB_PLUGIN_ABI);
		return -1;
	}
	if (!desc->name || strcmp(desc->name, lp->name) != 0) {
		plugin_err(
			d, at,
			"plugin %s (%s): the descriptor names it '%s'; the file must be called after the plugin",
			lp->name, lp->path, desc->name ? desc->name : "(null)");
		return -1;
	}
	lp->desc = desc;
	if (check_keys(lp, at, d) < 0 || plugin_tables_copy(lp, at, d) < 0) {
		lp->desc = NULL;
		return -1;
	}
	return 0;
}

static int open_one(struct loaded_plugin *lp, const char *dir,
		    const struct ikb_value *at, struct ikb_diag *d)
{
	char path[PATH_MAX];
	const char *from = plugin_set_path(dir, lp->name, path, sizeof(path));
	void *sym;

	if (!from) {
		plugin_err(d, at, "plugin %s: the path is too long", lp->name);
		return -1;
	}
	lp->path = strdup(path);
	lp->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lp->handle) {
		plugin_err(d, at, "plugin %s: cannot load %s (searched %s): %s",
			   lp->name, path, from, dlerror());
		return -1;
	}
	dlerror();
	sym = dlsym(lp->handle, IKB_PLUGIN_SYMBOL);
	if (!sym) {
		plugin_err(
			d, at,
			"plugin %s (%s): no '%s' symbol; not an ikebana plugin",
			lp->name, path, IKB_PLUGIN_SYMBOL);
		return -1;
	}
	return check_descriptor(lp, sym, at, d);
}

static int init_all(struct plugin_set *ps, const struct ikb_value *at,
		    struct ikb_diag *d)
{
	for (size_t i = 0; i < ps->n; i++) {
		struct loaded_plugin *lp = &ps->p[i];
		int rc = lp->desc->init ? lp->desc->init(ps->host, &lp->state) :
					  0;

		if (rc != 0) {
			plugin_err(d, at, "plugin %s: init failed: %s",
				   lp->name, strerror(rc < 0 ? -rc : rc));
			return -1;
		}
		lp->inited = true;
	}
	return 0;
}

int plugin_set_load(struct plugin_set **out, const char *names,
		    const struct ikb_value *at, const char *dir,
		    const struct ikb_host *host, struct ikb_diag *d)
{
	struct plugin_set *ps = calloc(1, sizeof(*ps));
	int rc;

	*out = NULL;
	if (!ps)
		return -1;
	ps->host = host;
	rc = split_names(ps, names ? names : IKB_DEFAULT_PLUGINS, at, d);
	for (size_t i = 0; i < ps->n; i++)
		if (open_one(&ps->p[i], dir, at, d) < 0)
			rc = -1;
	if (plugin_rules_check(ps, at, d) < 0)
		rc = -1;
	if (rc == 0)
		rc = init_all(ps, at, d);
	if (rc < 0) {
		plugin_set_free(ps);
		return -1;
	}
	*out = ps;
	return 0;
}

void plugin_set_free(struct plugin_set *ps)
{
	if (!ps)
		return;
	for (size_t i = ps->n; i-- > 0;) {
		struct loaded_plugin *lp = &ps->p[i];

		if (lp->inited && lp->desc->fini)
			lp->desc->fini(lp->state);
		plugin_tables_free(lp);
		if (lp->handle)
			dlclose(lp->handle);
		free(lp->path);
		free(lp->name);
	}
	free(ps->p);
	free(ps);
}
