/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One conn added, replaced or deleted while the daemon runs, without a
 * whole reload (ipsec auto --add, --replace, --delete): a bad conn that an
 * orchestrator writes fails alone, and the others keep coming up.
 */
#ifndef IKB_APP_CONN_EDIT_H
#define IKB_APP_CONN_EDIT_H

#include <stdbool.h>
#include <stddef.h>

struct ikbd;
struct ikb_diag;
struct loaded_conf;

/* Where the conn is read from: text when not NULL, else the file config. */
struct conn_source {
	const char *config; /* NULL: the daemon's own file */
	const char *text;   /* a configuration in memory (standard input) */
	size_t len;
	const char *name;   /* text's name in messages */
};

/*
 * Add conn `name` as src defines it, or replace the running one. A conn
 * whose keys did not change stays as it is, SAs included; a changed one
 * loses its SAs first. Then its auto= applies as at start (route: the
 * trap; start: initiated). Returns 0 and what was done in *result
 * ("added", "replaced", "unchanged"), or -1 with the reasons in diag and
 * the running configuration untouched.
 */
int ikbd_conn_add(struct ikbd *d, const char *name,
		  const struct conn_source *src, const char **result,
		  struct ikb_diag *diag);
/*
 * Remove conn name, its SAs and its trap. 0 and *result "deleted" or
 * "absent" (no such conn: nothing to do), or -1 with diag.
 */
int ikbd_conn_delete(struct ikbd *d, const char *name, const char **result,
		     struct ikb_diag *diag);
/* The secrets file read again; on failure the running one stays. */
int ikbd_secrets_reload(struct ikbd *d, struct ikb_diag *diag);

/*
 * A reload: next (the file just loaded) with the edits applied on top,
 * checked. Edits the file now agrees with are dropped. 0 or -1.
 */
int ikbd_conn_edits_compose(struct ikbd *d, struct loaded_conf *next,
			    struct ikb_diag *diag);
/* At exit. */
void ikbd_conn_edits_free(struct ikbd *d);

#endif
