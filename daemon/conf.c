// SPDX-License-Identifier: GPL-2.0-or-later
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "config/diag.h"
#include "daemon.h"
#include "ike_glue.h"
#include "keylog.h"
#include "log.h"
#include "notify.h"

int ikbd_conf_load(struct ikbd *d, struct loaded_conf *out,
		   struct ikb_diag *diag)
{
	const struct daemon_opts *o = d->opts;
	struct conf_load_opts lo = {
		.config = o->config,
		.secrets = opts_secrets(o),
		.plugindir = o->plugindir[0] ? o->plugindir : NULL,
		.base = d->base,
	};

	if (!lo.secrets)
		log_info("no secrets file %s: loading none", o->secrets);
	return conf_load(&lo, out, diag);
}

void ikbd_log_diag(const struct ikbd *d, const struct ikb_diag *diag)
{
	char line[1024];

	if (d->diag_to_stderr && !log_file_path()) {
		diag_print(diag, stderr);
		return;
	}
	for (size_t i = 0; i < diag->n; i++)
		logm(diag->msgs[i].sev == IKB_SEV_ERROR ? IKB_LOG_ERR :
							  IKB_LOG_WARNING,
		     "%s", diag_format(diag, i, line, sizeof(line)));
}

static const struct ikb_value *setup_get(const struct cfg *c, const char *key)
{
	return c ? cfg_get(&c->setup, key) : NULL;
}

/*
 * plutodebug=: libreswan's debug categories (all, base, crypt, ...). none
 * is none, and private only lets secrets into debug lines (keylog.c).
 */
static bool plutodebug_debugs(const struct ikb_value *v)
{
	char *copy = v ? strdup(v->value) : NULL, *save, *t;
	bool debug = false;

	if (!copy)
		return false;
	for (t = strtok_r(copy, " ,\t", &save); t && !debug;
	     t = strtok_r(NULL, " ,\t", &save))
		debug = strcasecmp(t, "none") && strcasecmp(t, "private");
	free(copy);
	return debug;
}

enum ikb_log_level conf_log_level(const struct daemon_opts *o,
				  const struct cfg *c)
{
	if (o->log_level_given ||
	    !plutodebug_debugs(setup_get(c, "plutodebug")))
		return o->log_level;
	return IKB_LOG_DEBUG;
}

static void log_level_conf(const struct ikbd *d)
{
	const struct ikb_value *v = setup_get(d->conf.cfg, "plutodebug");
	enum ikb_log_level level = conf_log_level(d->opts, d->conf.cfg);

	if (d->opts->log_level_given && plutodebug_debugs(v))
		log_notice("%s:%u: plutodebug=%s: ignored: the command line "
			   "sets the log level",
			   v->file, v->line, v->value);
	if (level == log_get_level())
		return;
	log_set_level(level);
	if (level == IKB_LOG_DEBUG && v)
		log_info("plutodebug=%s: logging at level debug", v->value);
	else
		log_info("plutodebug=%s: logging at level info again",
			 v ? v->value : "");
}

void ikbd_log_conf(struct ikbd *d, bool reopen)
{
	/* plutostderrlog= is stored as logfile= */
	const struct ikb_value *f = setup_get(d->conf.cfg, "logfile");
	const char *cur = log_file_path();
	int rc;

	if (!reopen) /* a reopen comes with the same configuration */
		log_level_conf(d);
	if (!f) {
		if (!cur)
			return;
		log_notice("logfile= is gone: logging to %s from now on",
			   d->opts->syslog || !d->opts->nofork ? "syslog" :
								 "stderr");
		log_file_close();
		log_notice("logfile= is gone: logging here again");
		return;
	}
	if (cur && !strcmp(cur, f->value)) {
		rc = reopen ? log_file_reopen() : 0;
		if (rc < 0)
			log_err("%s:%u: logfile=%s: cannot open it again: %s; "
				"logging on to the file as it was",
				f->file, f->line, f->value, strerror(-rc));
		return;
	}
	log_notice("logfile=%s: switching the log to that file", f->value);
	rc = log_file_open(f->value);
	if (rc < 0)
		log_err("%s:%u: logfile=%s: cannot open: %s; logging on here",
			f->file, f->line, f->value, strerror(-rc));
	else
		log_notice("logging to this file (ikebanad pid %d)",
			   (int)getpid());
}

static void status_line(const struct ikbd *d, char *buf, size_t len)
{
	snprintf(buf, len, "%zu conns loaded from %s", d->conf.cfg->nconns,
		 d->opts->config);
}

static const char *plugins_value(const struct loaded_conf *lc)
{
	const struct ikb_value *v = cfg_get(&lc->cfg->setup, "plugins");

	return v ? v->value : "";
}

/*
 * The load made a fresh instance of every plugin. With the same plugins=
 * the running instances stay instead: they hold runtime state that must
 * survive a reload (kernel-xfrm's netlink sockets and its ownership of the
 * installed SAs, which a new instance would flush as "left by an earlier
 * run"; kernel-mem's whole SA table). Plugin state holds no configuration:
 * every hook is handed its conn.
 */
static void keep_running_plugins(struct ikbd *d, struct loaded_conf *next)
{
	struct plugin_set *fresh = next->plugins;

	if (strcmp(plugins_value(&d->conf), plugins_value(next))) {
		log_notice("plugins= changed: switching to the new plugin "
			   "instances (the kernel backend's SAs may be "
			   "removed; restart to be sure of a clean state)");
		return;
	}
	next->plugins = d->conf.plugins;
	d->conf.plugins = fresh;
}

int ikbd_reload(struct ikbd *d, struct ikb_diag *diag)
{
	struct loaded_conf next = { 0 }, old;
	char status[PATH_MAX + 64];

	notify_reloading();
	/* first: logrotate sends SIGHUP, and the reload may fail */
	ikbd_log_conf(d, true);
	log_notice("reloading %s", d->opts->config);
	if (ikbd_conf_load(d, &next, diag) < 0) {
		ikbd_log_diag(d, diag);
		log_err("reload failed with %u error(s); the previous "
			"configuration stays in use",
			diag->errors);
		status_line(d, status, sizeof(status));
		notify_ready(status);
		return -1;
	}
	ikbd_log_diag(d, diag);
	ikbd_engine_before_reload(d, &next);
	keep_running_plugins(d, &next);
	old = d->conf;
	d->conf = next;
	/* The engine must see the new conf before the old one is freed. */
	ikbd_engine_after_reload(d);
	conf_unload(&old);
	ikbd_log_conf(d, false); /* logfile= and plutodebug= may be new */
	keylog_start(d); /* plutodebug=private may be new */
	d->reloads++;
	status_line(d, status, sizeof(status));
	log_notice("reloaded: %s", status);
	notify_ready(status);
	return 0;
}

long long ikbd_uptime(const struct ikbd *d)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long long)(now.tv_sec - d->started.tv_sec);
}
