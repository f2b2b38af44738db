// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Conns added, replaced and deleted by name while the daemon runs. The
 * running configuration is the file's (d->file_cfg) with the edits on top
 * (config/compose.c); an edit is checked on the whole result with the
 * running plugins, so that what passes is what a reload would accept,
 * and the file's other conns are never read again for it.
 *
 * The edits outlive a reload (SIGHUP comes from logrotate too, and must
 * not drop what an orchestrator added from standard input); one that
 * the reloaded file agrees with is dropped, as the file now says it.
 *
 * Credentials change under the daemon: an orchestrator imports the
 * certificates into the NSS database, then adds the conns. Every edit
 * compiles the conns again against the database as it is now; so does
 * rereadsecrets, and an add of an unchanged conn that could not be used
 * (its certificate was missing). A conn added that this host still
 * cannot use is in, with a warning in the answer that says why.
 */
#include <stdlib.h>
#include <string.h>

#include "app/conn_edit.h"
#include "app/daemon.h"
#include "app/log_conf.h"
#include "config/config.h"
#include "config/diag.h"
#include "ike/ike.h"
#include "log/log.h"

static struct cfg *file_of(const struct ikbd *d)
{
	return d->file_cfg ? d->file_cfg : d->conf.cfg;
}

static void edits_free(struct cfg_edit *ed, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		cfg_free(ed[i].src);
		free((char *)ed[i].name);
	}
	free(ed);
}

/* Whether the file now says what edit e says. */
static bool file_agrees(const struct cfg *file, const struct cfg_edit *e)
{
	const struct ikb_section *f = cfg_conn_find(file, e->name);

	return e->src ? cfg_conn_same(f, cfg_conn_find(e->src, e->name)) :
			!f;
}

/* e's copy: its own name, a reference to its source. */
static bool edit_copy(struct cfg_edit *to, const char *name, struct cfg *src)
{
	to->name = strdup(name);
	to->src = to->name ? cfg_ref(src) : NULL;
	return to->name != NULL;
}

/*
 * The running edits but those keep() refuses, and name's set to src when
 * name is not NULL; NULL when out of memory.
 */
static struct cfg_edit *edits_with(const struct ikbd *d, const char *name,
				   struct cfg *src, const struct cfg *file,
				   size_t *n)
{
	struct cfg_edit *ed = calloc(d->nedits + 1, sizeof(*ed));
	bool ok = ed != NULL;
	size_t k = 0;

	for (size_t i = 0; ok && i < d->nedits; i++) {
		const struct cfg_edit *e = &d->edits[i];

		if ((name && !strcmp(e->name, name)) ||
		    (file && file_agrees(file, e)))
			continue;
		ok = edit_copy(&ed[k++], e->name, e->src);
	}
	if (ok && name)
		ok = edit_copy(&ed[k++], name, src);
	if (!ok) {
		edits_free(ed, k);
		return NULL;
	}
	*n = k;
	return ed;
}

static void edits_set(struct ikbd *d, struct cfg_edit *ed, size_t n)
{
	edits_free(d->edits, d->nedits);
	d->edits = ed;
	d->nedits = n;
}

/* The file with ed on top, checked with the running plugins. */
static int compose(struct cfg *file, const struct cfg_edit *ed, size_t n,
		   struct loaded_conf *next, struct ikb_diag *diag)
{
	if (cfg_compose(file, ed, n, &next->cfg) < 0) {
		diag_at(diag, IKB_SEV_ERROR, file->path, 0,
			"cannot compose the configuration: out of memory");
		return -1;
	}
	if (conf_check(next, diag) < 0) {
		cfg_free(next->cfg);
		next->cfg = NULL;
		return -1;
	}
	return 0;
}

/*
 * ed (consumed) in place of the running edits, when the result passes
 * its checks. redo: the conn whose SAs go, as it changed.
 */
static int apply(struct ikbd *d, struct cfg_edit *ed, size_t n,
		 const char *redo, struct ikb_diag *diag)
{
	struct loaded_conf next = { .plugins = d->conf.plugins,
				    .secrets = d->conf.secrets };
	struct ikb_error err = { "" };
	char name[CFG_CONN_NAME_MAX + 1] = "";

	if (compose(file_of(d), ed, n, &next, diag) < 0) {
		edits_free(ed, n);
		return -1;
	}
	if (!d->file_cfg)
		d->file_cfg = cfg_ref(d->conf.cfg);
	if (redo) /* the swap frees the string */
		snprintf(name, sizeof(name), "%s", redo);
	edits_set(d, ed, n);
	ikbd_conf_swap(d, &next, true);
	if (name[0] && d->engine)
		ike_engine_redo(d->engine, name, &err);
	return 0;
}

static int read_source(const struct ikbd *d, const struct conn_source *s,
		       struct cfg **out, struct ikb_diag *diag)
{
	int rc = s->text ? cfg_parse_buffer(s->name ? s->name : "<stdin>",
					    s->text, s->len, out, diag) :
			   cfg_parse_file(s->config ? s->config :
						      d->opts->config,
					  out, diag);

	if (rc < 0) {
		cfg_free(*out);
		*out = NULL;
	}
	return rc;
}

/* The running configuration compiled again (credentials changed). */
static int recompile(struct ikbd *d, struct ikb_diag *diag)
{
	struct cfg_edit *ed;
	size_t n;

	if (!(ed = edits_with(d, NULL, NULL, NULL, &n))) {
		diag_at(diag, IKB_SEV_ERROR, file_of(d)->path, 0,
			"out of memory");
		return -1;
	}
	return apply(d, ed, n, NULL, diag);
}

static bool usable(struct ikbd *d, const char *name, struct ikb_error *err)
{
	return !d->engine || !ike_engine_conn_usable(d->engine, name, err);
}

/* A conn in that this host cannot use yet: the answer says why. */
static void warn_unusable(struct ikbd *d, const char *name, const char *path,
			  struct ikb_diag *diag)
{
	struct ikb_error err = { "" };

	if (!usable(d, name, &err))
		diag_at(diag, IKB_SEV_WARNING, path, 0,
			"conn %s is loaded, but this host cannot use it yet: "
			"%s",
			name, err.msg);
}

int ikbd_conn_add(struct ikbd *d, const char *name,
		  const struct conn_source *s, const char **result,
		  struct ikb_diag *diag)
{
	struct ikb_error err = { "" };
	const struct ikb_section *want, *have;
	struct cfg_edit *ed;
	struct cfg *src;
	size_t n;
	int rc;

	if (read_source(d, s, &src, diag) < 0)
		return -1;
	want = cfg_conn_find(src, name);
	have = cfg_conn_find(d->conf.cfg, name);
	if (!want) {
		diag_at(diag, IKB_SEV_ERROR, src->path, 0,
			"conn %s: not defined in %s", name, src->path);
		rc = -1;
	} else if (have && cfg_conn_same(have, want)) {
		*result = "unchanged";
		/* its certificate may be there now */
		rc = usable(d, name, &err) ? 0 : recompile(d, diag);
	} else if (!(ed = edits_with(d, name, src, NULL, &n))) {
		diag_at(diag, IKB_SEV_ERROR, src->path, 0, "out of memory");
		rc = -1;
	} else {
		*result = have ? "replaced" : "added";
		rc = apply(d, ed, n, have ? name : NULL, diag);
	}
	if (rc == 0)
		warn_unusable(d, name, src->path, diag);
	cfg_free(src);
	if (rc < 0)
		ikbd_log_diag(d, diag);
	if (rc == 0)
		log_notice("conn %s: %s from %s", name, *result,
			   s->text ? (s->name ? s->name : "<stdin>") :
			   s->config ? s->config : d->opts->config);
	return rc;
}

int ikbd_conn_delete(struct ikbd *d, const char *name, const char **result,
		     struct ikb_diag *diag)
{
	struct cfg_edit *ed;
	size_t n;

	if (!cfg_conn_find(d->conf.cfg, name)) {
		*result = "absent";
		return 0;
	}
	if (!(ed = edits_with(d, name, NULL, NULL, &n))) {
		diag_at(diag, IKB_SEV_ERROR, d->opts->config, 0,
			"out of memory");
		return -1;
	}
	*result = "deleted";
	if (apply(d, ed, n, NULL, diag) < 0) {
		ikbd_log_diag(d, diag);
		return -1;
	}
	log_notice("conn %s: deleted", name);
	return 0;
}

int ikbd_conn_edits_compose(struct ikbd *d, struct loaded_conf *next,
			    struct ikb_diag *diag)
{
	struct cfg *file = next->cfg;
	struct cfg_edit *ed;
	size_t n = 0;

	if (!d->nedits)
		return 0;
	if (!(ed = edits_with(d, NULL, NULL, file, &n))) {
		diag_at(diag, IKB_SEV_ERROR, file->path, 0, "out of memory");
		conf_unload(next);
		return -1;
	}
	if (n && compose(file, ed, n, next, diag) < 0) {
		edits_free(ed, n);
		next->cfg = file;
		conf_unload(next);
		return -1;
	}
	if (n)
		log_notice("%zu conn(s) added, replaced or deleted by name "
			   "stay so over the reload",
			   n);
	edits_set(d, ed, n);
	cfg_free(d->file_cfg);
	/* next->cfg, when composed, holds the file: this is its loader's */
	d->file_cfg = n ? file : NULL;
	return 0;
}

int ikbd_secrets_reload(struct ikbd *d, struct ikb_diag *diag)
{
	const char *path = opts_secrets(d->opts);
	struct secrets *s = NULL;

	if (!path) {
		log_info("no secrets file %s: none to read", d->opts->secrets);
		return recompile(d, diag);
	}
	if (secrets_load_ex(path, d->opts->lsw_paths ? SECRETS_MODE_WARN : 0,
			    &s, diag) < 0) {
		if (s)
			secrets_free(s);
		return -1;
	}
	if (d->conf.secrets)
		secrets_free(d->conf.secrets);
	d->conf.secrets = s;
	log_notice("secrets read again from %s", path);
	/* libreswan reads its certificates again here too */
	return recompile(d, diag);
}

void ikbd_conn_edits_free(struct ikbd *d)
{
	edits_free(d->edits, d->nedits);
	d->edits = NULL;
	d->nedits = 0;
	cfg_free(d->file_cfg);
	d->file_cfg = NULL;
}
