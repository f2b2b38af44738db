/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's log as the configuration says: plutodebug=, logfile=
 * (plutostderrlog=), and where configuration diagnostics go.
 */
#ifndef IKB_LOG_CONF_H
#define IKB_LOG_CONF_H

#include <stdbool.h>

#include "log/log.h"

struct cfg;
struct daemon_opts;
struct ikb_diag;
struct ikb_value;
struct ikbd;

/* Log every diagnostic line (errors at err, the rest at warning). */
void ikbd_log_diag(const struct ikbd *d, const struct ikb_diag *diag);
/*
 * logfile= and plutodebug= of the running configuration: switch the log to
 * the file, or back when logfile= is gone; with reopen, open the same file
 * again (logrotate moved it); and set the level. A file that cannot be
 * opened is reported where the log went so far, which stays in use.
 */
void ikbd_log_conf(struct ikbd *d, bool reopen);
/*
 * The log level: the command line's if it set one, else debug when
 * plutodebug= names a category other than none and private, else info.
 */
enum ikb_log_level conf_log_level(const struct daemon_opts *o,
				  const struct cfg *c);

#endif
