// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading and reloading the configuration; the log it sets up is
 * log_conf.c's.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "app/conn_edit.h"
#include "app/daemon.h"
#include "app/ike_glue.h"
#include "app/keylog.h"
#include "app/log_conf.h"
#include "app/metrics_file.h"
#include "config/config.h"
#include "config/diag.h"
#include "log/log.h"
#include "service/notify.h"

int ikbd_conf_load(struct ikbd *d, struct loaded_conf *out,
		   struct ikb_diag *diag)
{
	const struct daemon_opts *o = d->opts;
	struct conf_load_opts lo = {
		.config = o->config,
		.secrets = opts_secrets(o),
		.secrets_flags = o->lsw_paths ? SECRETS_MODE_WARN : 0,
		.plugindir = o->plugindir[0] ? o->plugindir : NULL,
		.base = d->base,
	};

	if (!lo.secrets)
		log_info("no secrets file %s: loading none", o->secrets);
	return conf_load(&lo, out, diag);
}

static void status_line(const struct ikbd *d, char *buf, size_t len)
{
	snprintf(buf, len, "%zu conns loaded from %s", d->conf.cfg->nconns,
		 d->opts->config);
}

static const char *plugins_value(const struct loaded_conf *lc)
{
	const struct ikb_value *v = lc->cfg->set.plugins;

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

/*
 * next in place of the running configuration: the SAs of removed conns go
 * while the configuration they were made with is still there; the engine
 * sees next before the old one is freed. shared: next runs with the
 * running plugins and secrets (a conn edit), which the old one then
 * leaves alone.
 */
void ikbd_conf_swap(struct ikbd *d, struct loaded_conf *next, bool shared)
{
	struct loaded_conf old;

	ikbd_nssdb_open(d, next); /* before the conns compile */
	ikbd_engine_before_reload(d, next);
	old = d->conf;
	d->conf = *next;
	ikbd_engine_after_reload(d);
	if (shared) {
		old.plugins = NULL;
		old.secrets = NULL;
	}
	conf_unload(&old);
}

int ikbd_reload(struct ikbd *d, struct ikb_diag *diag)
{
	struct loaded_conf next = { 0 };
	char status[PATH_MAX + 64];

	notify_reloading();
	/* first: logrotate sends SIGHUP, and the reload may fail */
	ikbd_log_conf(d, true);
	log_notice("reloading %s", d->opts->config);
	if (ikbd_conf_load(d, &next, diag) < 0 ||
	    ikbd_conn_edits_compose(d, &next, diag) < 0) {
		ikbd_log_diag(d, diag);
		log_err("reload failed with %u error(s); the previous "
			"configuration stays in use",
			diag->errors);
		status_line(d, status, sizeof(status));
		notify_ready(status);
		return -1;
	}
	ikbd_log_diag(d, diag);
	keep_running_plugins(d, &next);
	ikbd_conf_swap(d, &next, false);
	ikbd_log_conf(d, false); /* logfile= and plutodebug= may be new */
	keylog_start(d); /* plutodebug=private may be new */
	ikbd_metrics_conf(d); /* metrics-file= may be new, or gone */
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
