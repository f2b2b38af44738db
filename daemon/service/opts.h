/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ikebanad's command line. */
#ifndef IKB_DAEMON_OPTS_H
#define IKB_DAEMON_OPTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

struct daemon_opts {
	/* Absolute paths: the daemon changes to / when it detaches. */
	char config[PATH_MAX];
	char secrets[PATH_MAX];
	bool secrets_given; /* else: the default, used only if it exists */
	char rundir[PATH_MAX];
	/* the control socket: RUNDIR/ikebana.ctl, or --ctlsocket (pluto's) */
	char ctlsocket[108];
	char plugindir[PATH_MAX]; /* empty: automatic */
	char nssdir[PATH_MAX]; /* empty: nssdir=, else the default */
	bool nofork;
	bool syslog;
	int log_level; /* enum ikb_log_level */
	bool log_level_given; /* --log-level or --debug: plutodebug= yields */
	/* Log and show Child SA keys (interop proofs); never by default. */
	bool debug_private;
	/*
	 * libreswan's paths (--libreswan-paths, or run as pluto): its
	 * defaults, and a secrets file others can read loads with a warning.
	 */
	bool lsw_paths;
};

enum opts_result { OPTS_RUN, OPTS_EXIT_OK, OPTS_EXIT_USAGE };

/* Messages (usage, version, errors) go to out and err. */
enum opts_result opts_parse(struct daemon_opts *o, int argc, char **argv,
			    FILE *out, FILE *err);
/* The secrets path to load now, or NULL when the default does not exist. */
const char *opts_secrets(const struct daemon_opts *o);

#endif
