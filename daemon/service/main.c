// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebanad: args → pid file → config (and plugins) → NSS and helpers →
 * sockets → engine → drop privileges → loop. The pid file comes first so
 * that a second daemon pointed at the same run directory stops before its
 * plugins touch anything. NSS follows the plugins because fips= is read
 * with the rest of the configuration (and no plugin uses NSS); the IKE
 * sockets on 500/4500 are bound while CAP_NET_BIND_SERVICE is certain.
 */
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <event2/event.h>

#include "build-config.h"
#include "service/caps.h"
#include "control/commands.h"
#include "config/diag.h"
#include "control/proto.h"
#include "control/server.h"
#include "app/conn_edit.h"
#include "app/daemon.h"
#include "service/detach.h"
#include "ike/ike.h"
#include "app/ike_glue.h"
#include "app/keylog.h"
#include "app/updown_glue.h"
#include "app/metrics_file.h"
#include "log/log.h"
#include "app/log_conf.h"
#include "service/nodump.h"
#include "service/notify.h"
#include "service/signals.h"

/*
 * Exit codes, also in ikebanad(8). A configuration error has its own
 * (sysexits' EX_CONFIG) so that the unit's RestartPreventExitStatus= does
 * not restart a daemon that would only fail again the same way.
 */
enum { EXIT_START_FAILED = 1, EXIT_USAGE = 2, EXIT_CONFIG = EX_CONFIG };

static void on_stop(void *ctx, int signo)
{
	struct ikbd *d = ctx;

	log_notice("%s: stopping", strsignal(signo));
	event_base_loopbreak(d->base);
}

static void on_reload(void *ctx)
{
	struct ikb_diag diag;

	diag_init(&diag);
	ikbd_reload(ctx, &diag);
	diag_free(&diag);
}

static int claim_rundir(struct ikbd *d)
{
	pid_t other;

	if (pidfile_acquire(&d->pid, d->opts->rundir, &other) == 0)
		return 0;
	if (errno == EEXIST && other)
		log_err("another ikebanad (pid %d) is running with --rundir %s "
			"(%s); stop it or choose another --rundir",
			(int)other, d->opts->rundir, d->pid.path);
	else if (errno == EEXIST)
		log_err("%s is locked by another process; is another ikebanad "
			"starting with --rundir %s?",
			d->pid.path, d->opts->rundir);
	else
		log_err("cannot create the pid file in %s: %s", d->opts->rundir,
			strerror(errno));
	return -1;
}

static int load_config(struct ikbd *d)
{
	struct ikb_diag diag;
	int r;

	diag_init(&diag);
	r = ikbd_conf_load(d, &d->conf, &diag);
	ikbd_log_diag(d, &diag);
	if (r < 0)
		log_err("%s: %u error(s); not starting", d->opts->config,
			diag.errors);
	diag_free(&diag);
	return r;
}

/* RUNDIR/ikebana.ctl, or --ctlsocket, whose directory is made if missing */
static int open_control(struct ikbd *d)
{
	char path[sizeof(d->opts->ctlsocket)], dir[sizeof(path)], *slash;

	if (d->opts->ctlsocket[0]) {
		snprintf(path, sizeof(path), "%s", d->opts->ctlsocket);
		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (slash && slash != dir) {
			*slash = '\0';
			if (mkdir(dir, 0755) < 0 && errno != EEXIST)
				log_warn("cannot make %s: %s", dir,
					 strerror(errno));
		}
	} else if (ctl_socket_path(d->opts->rundir, path, sizeof(path)) < 0) {
		log_err("the run directory %s is too long for a socket path",
			d->opts->rundir);
		return -1;
	}
	d->ctl = ctl_server_open(d->base, path, commands_handle, d);
	if (!d->ctl) {
		log_err("cannot open the control socket %s: %s", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* Returns 0, or the exit code: EXIT_CONFIG when the configuration failed. */
static int start(struct ikbd *d)
{
	struct signal_handlers sh = { on_stop, on_reload, d };

	clock_gettime(CLOCK_MONOTONIC, &d->started);
	d->started_wall = time(NULL);
	d->base = event_base_new();
	if (!d->base) {
		log_err("cannot create the event loop");
		return EXIT_START_FAILED;
	}
	if (claim_rundir(d) < 0)
		return EXIT_START_FAILED;
	if (load_config(d) < 0)
		return EXIT_CONFIG;
	/* logfile= and plutodebug=: the rest of the log goes there */
	ikbd_log_conf(d, false);
	if (ikbd_crypto_start(d) < 0 || open_control(d) < 0 ||
	    ikbd_net_start(d) < 0 || ikbd_engine_start(d) < 0)
		return EXIT_START_FAILED;
	if (keylog_start(d) < 0 || ikbd_updown_start(d) < 0 ||
	    ikbd_metrics_conf(d) < 0)
		return EXIT_START_FAILED;
	if (keylog_enabled(d))
		log_warn(
			"debug-private: Child SA keys will be logged and shown "
			"by status --private; never use this in production");
	d->sig = signals_setup(d->base, &sh);
	if (!d->sig) {
		log_err("cannot install the signal handlers");
		return EXIT_START_FAILED;
	}
	/* Sockets are open: from here on only NET_ADMIN/NET_BIND_SERVICE. */
	if (caps_drop() < 0)
		return EXIT_START_FAILED;
	d->watchdog = notify_watchdog_start(d->base);
	return 0;
}

static void stop(struct ikbd *d)
{
	notify_watchdog_stop(d->watchdog);
	signals_free(d->sig);
	ctl_server_close(d->ctl);
	ikbd_metrics_stop(d);
	/* The engine deletes its SAs through the plugins: before unload. */
	ikbd_updown_stop(d); /* it listens on the engine */
	ikbd_ike_stop(d);
	keylog_free(d);
	if (d->conf.cfg)
		conf_unload(&d->conf);
	ikbd_conn_edits_free(d);
	pidfile_release(&d->pid);
	if (d->base)
		event_base_free(d->base);
}

static void announce(const struct ikbd *d)
{
	char status[PATH_MAX + 64];

	snprintf(status, sizeof(status), "%zu conns loaded from %s",
		 d->conf.cfg->nconns, d->opts->config);
	log_notice("ikebanad %s started (pid %d): %s; control socket %s",
		   IKB_VERSION, (int)getpid(), status, ctl_server_path(d->ctl));
	notify_ready(status);
}

/* The reasons went to logfile=: point the terminal (or journal) there. */
static void start_failed(void)
{
	char path[PATH_MAX];

	if (!log_file_path())
		return;
	snprintf(path, sizeof(path), "%s", log_file_path());
	log_file_close();
	log_err("start-up failed; the reasons are logged in %s", path);
}

static enum log_target log_target_for(const struct daemon_opts *o)
{
	return o->syslog ? LOG_TO_SYSLOG : LOG_TO_STDERR;
}

int main(int argc, char **argv)
{
	struct daemon_opts o;
	struct ikbd d = { .opts = &o, .pid = { .fd = -1 } };
	struct detach dt = { .fd = -1 };
	int rc;

	switch (opts_parse(&o, argc, argv, stdout, stderr)) {
	case OPTS_EXIT_OK:
		return 0;
	case OPTS_EXIT_USAGE:
		return EXIT_USAGE;
	case OPTS_RUN:
		break;
	}
	umask(022);
	/* Until detached, errors go to the terminal that started us. */
	log_setup(log_target_for(&o), o.log_level, "ikebanad");
	/* before the configuration and secrets are read */
	if (nodump_set() < 0)
		return EXIT_START_FAILED;
	d.diag_to_stderr = !o.syslog && !getenv("JOURNAL_STREAM");
	if (!o.nofork && detach_begin(&dt) < 0) {
		log_err("cannot fork: %s", strerror(errno));
		return EXIT_START_FAILED;
	}
	rc = start(&d);
	if (rc) {
		stop(&d);
		start_failed();
		detach_fail(&dt, rc);
		return rc;
	}
	announce(&d);
	if (!o.nofork) {
		if (detach_finish(&dt) < 0)
			log_err("cannot detach: %s", strerror(errno));
		/* the level plutodebug= may have set; logfile= stays */
		log_setup(LOG_TO_SYSLOG, log_get_level(), "ikebanad");
		d.diag_to_stderr = false;
	}
	ike_engine_start_auto(d.engine);
	event_base_dispatch(d.base);
	notify_stopping();
	stop(&d);
	log_notice("stopped");
	log_file_close();
	return 0;
}
