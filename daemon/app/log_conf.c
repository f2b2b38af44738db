// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The log as the configuration says: the level from plutodebug= (which
 * config/setup.c parses), logfile= (plutostderrlog= is stored as it),
 * and configuration diagnostics to stderr or the log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "app/daemon.h"
#include "app/log_conf.h"
#include "config/config.h"
#include "config/diag.h"
#include "log/log.h"

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

/* plutodebug= names a category other than none and private */
static bool plutodebug_debugs(const struct cfg *c)
{
	return c && c->set.debug;
}

enum ikb_log_level conf_log_level(const struct daemon_opts *o,
				  const struct cfg *c)
{
	if (o->log_level_given || !plutodebug_debugs(c))
		return o->log_level;
	return IKB_LOG_DEBUG;
}

static void log_level_conf(const struct ikbd *d)
{
	const struct cfg *c = d->conf.cfg;
	const struct ikb_value *v = c ? c->set.plutodebug : NULL;
	enum ikb_log_level level = conf_log_level(d->opts, c);

	if (d->opts->log_level_given && plutodebug_debugs(c))
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
	const struct ikb_value *f =
		d->conf.cfg ? d->conf.cfg->set.logfile : NULL;
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
