/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metrics-file= and metrics-interval= (config setup): the metrics text
 * rewritten atomically every interval, for node_exporter's textfile
 * collector. No HTTP listener: the file is the whole interface.
 */
#ifndef IKB_DAEMON_METRICS_FILE_H
#define IKB_DAEMON_METRICS_FILE_H

#include "config/setup.h"

struct ikbd;

/* metrics-interval= when unset, seconds */
#define METRICS_INTERVAL_S CFG_METRICS_INTERVAL_S

/*
 * At start and after each reload: writes the file now and arms the timer
 * with the configuration's keys; without metrics-file= stops writing.
 * 0, or -1 when the timer cannot be made (logged).
 */
int ikbd_metrics_conf(struct ikbd *d);
/* The daemon stops: the file goes too, so that stale SAs are not shown. */
void ikbd_metrics_stop(struct ikbd *d);

#endif
