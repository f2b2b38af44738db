/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running daemon's state: everything the event loop owns. */
#ifndef IKB_DAEMON_H
#define IKB_DAEMON_H

#include <stdbool.h>
#include <time.h>

#include "plugin/conf_load.h"
#include "service/opts.h"
#include "service/pidfile.h"

struct event_base;
struct event;
struct ctl_server;
struct signals;
struct net;
struct ike_engine;
struct keylog;
struct updown;
struct metrics_file;

/* Room for the control commands' request counts (commands.c checks it). */
#define CTL_COMMANDS_MAX 24

struct ikbd {
	const struct daemon_opts *opts;
	struct event_base *base;
	struct loaded_conf conf;
	struct pidfile pid;
	struct ctl_server *ctl;
	struct signals *sig;
	struct event *watchdog;
	struct net *net; /* the IKE sockets */
	struct ike_engine *engine;
	bool crypto_up, helpers_up;
	struct keylog *keylog; /* debug-private only: keylog.c's listener */
	struct updown *updown; /* leftupdown= scripts (updown_glue.c) */
	struct timespec started; /* CLOCK_MONOTONIC */
	time_t started_wall;
	unsigned reloads; /* successful ones */
	/* control/commands.c: requests by command, the last: unknown ones */
	unsigned long ctl_requests[CTL_COMMANDS_MAX + 1];
	struct metrics_file *metrics; /* metrics_file.c; NULL: none */
	/* Diagnostics straight to stderr ("FILE:LINE: error: ...") */
	bool diag_to_stderr;
	/*
	 * Conns added, replaced or deleted by name (conn_edit.c), and the
	 * file's configuration they apply to (a reference), NULL while there
	 * is none: conf.cfg is then the file's.
	 */
	struct cfg_edit *edits;
	size_t nedits;
	struct cfg *file_cfg;
};

/* conf.c: load the configuration files named by the options. */
int ikbd_conf_load(struct ikbd *d, struct loaded_conf *out,
		   struct ikb_diag *diag);
/*
 * Load the files again and swap on success; on failure the running
 * configuration stays and diag holds the reasons. Also logs the outcome
 * and tells systemd. Returns 0 or -1.
 */
int ikbd_reload(struct ikbd *d, struct ikb_diag *diag);
void ikbd_conf_swap(struct ikbd *d, struct loaded_conf *next, bool shared);


/* Seconds since start. */
long long ikbd_uptime(const struct ikbd *d);

#endif
