// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A plugin's ops tables, copied to this ikebanad's layout. Each starts with
 * its size (IKB_OPS_SIZE): one built against older headers is shorter, and
 * the ops appended since stay NULL in the zeroed copy; one built against
 * newer headers is longer, and the ops this ikebanad does not know are left
 * out. The engine only ever calls through the copies.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/plugin_priv.h"

/*
 * One table: NULL stays NULL; *ok turns false (with the error said) when
 * the table is shorter than the ABI's first layout of it, min.
 */
static void *copy_one(const struct loaded_plugin *lp, const void *t,
		      size_t ours, size_t min, const char *what,
		      const struct ikb_value *at, struct ikb_diag *d, bool *ok)
{
	uint32_t size;
	void *c;

	if (!t)
		return NULL;
	memcpy(&size, t, sizeof(size));
	if (size < min) {
		plugin_err(
			d, at,
			"plugin %s (%s): its %s table is %u bytes, ABI %u needs at least %zu (was .size = IKB_OPS_SIZE(...) left out?)",
			lp->name, lp->path, what, size, IKB_PLUGIN_ABI, min);
		*ok = false;
		return NULL;
	}
	c = calloc(1, ours);
	if (!c) {
		plugin_err(d, at, "plugin %s: out of memory", lp->name);
		*ok = false;
		return NULL;
	}
	memcpy(c, t, size < ours ? size : ours);
	return c;
}

int plugin_tables_copy(struct loaded_plugin *lp, const struct ikb_value *at,
		       struct ikb_diag *d)
{
	const struct ikb_plugin *p = lp->desc;
	bool ok = true;

	lp->proposals =
		copy_one(lp, p->proposals, sizeof(*lp->proposals),
			 IKB_PROPOSALS_OPS_MIN, "proposals", at, d, &ok);
	lp->child = copy_one(lp, p->child, sizeof(*lp->child),
			     IKB_CHILD_OPS_MIN, "child", at, d, &ok);
	lp->kernel = copy_one(lp, p->kernel, sizeof(*lp->kernel),
			      IKB_KERNEL_OPS_MIN, "kernel", at, d, &ok);
	if (ok)
		return 0;
	plugin_tables_free(lp);
	return -1;
}

void plugin_tables_free(struct loaded_plugin *lp)
{
	free(lp->proposals);
	free(lp->child);
	free(lp->kernel);
	lp->proposals = NULL;
	lp->child = NULL;
	lp->kernel = NULL;
}
