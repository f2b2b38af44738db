// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a reload does to the SAs. Those of a conn that stays keep running
 * and read the new conn from their next step on (ike_engine_set_conf);
 * those of a removed conn go, while the configuration they were made
 * with is still in place, since their Child SAs leave the kernel through
 * its plugins; a new auto=start conn comes up.
 */
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/groups.h"
#include "ike/engine.h"
#include "log/log.h"
#include "plugin/conf_load.h"

/*
 * The conns of every IKE SA, first: ike_engine_down() frees SAs that are
 * not established at once. A conn repeats once per SA, as its notice.
 * SAs already going are not: one that lingers to answer retransmits
 * would be "taken down" again at every edit and rereadsecrets.
 */
static char **sa_conns(const struct ike_engine *e, size_t *n)
{
	size_t cap = 0;
	char **v = NULL;

	*n = 0;
	for (const struct ike_sa *sa = e->all; sa; sa = sa->next_all)
		cap++;
	if (cap && !(v = calloc(cap, sizeof(*v))))
		return NULL;
	for (const struct ike_sa *sa = e->all; sa; sa = sa->next_all)
		if (sa->state != IKE_SA_DELETING && (v[*n] = strdup(sa->conn)))
			(*n)++;
	return v;
}

/*
 * An instance GROUP#ADDRESS stays while its group does and still lists
 * the address: it is made again from the new group (conn_inst.c).
 */
static bool conn_stays(const struct cfg *next, const char *name)
{
	struct ikb_addr a;
	char group[128];

	if (cfg_conn_find(next, name))
		return true;
	return cfg_inst_name_split(name, group, sizeof(group), &a) &&
	       cfg_group_has(cfg_group_find(next, group), &a);
}

void ike_engine_reload_prune(struct ike_engine *e,
			     const struct loaded_conf *next)
{
	size_t n;
	char **conns = sa_conns(e, &n);

	for (size_t i = 0; conns && i < n; i++) {
		struct ikb_error err = { "" };

		if (!conn_stays(next->cfg, conns[i])) {
			log_notice("conn %s was removed by the reload: "
				   "taking it down",
				   conns[i]);
			/* a second call for the same conn: ENOENT is fine */
			ike_engine_down(e, conns[i], &err);
		}
		free(conns[i]);
	}
	free(conns);
}

void ike_engine_reload(struct ike_engine *e, const struct loaded_conf *lc)
{
	ike_engine_set_conf(e, lc);
	ike_engine_start_auto(e);
}
