/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `ikebana metrics` and metrics-file=: the daemon's series in the text
 * format that Prometheus' textfile collector and promtool read (HELP and
 * TYPE lines, counters named *_total), closed with OpenMetrics' "# EOF".
 */
#ifndef IKB_DAEMON_CONTROL_METRICS_H
#define IKB_DAEMON_CONTROL_METRICS_H

#include <stdio.h>

struct ikbd;
struct ike_engine;
struct ikb_kernel_ops;

/* The whole text, malloc'd and NUL-terminated, *len its length; NULL: ENOMEM. */
char *metrics_render(struct ikbd *d, size_t *len);

/* metrics_fmt.c: "# HELP name help\n# TYPE name type\n" */
void om_family(FILE *f, const char *name, const char *type, const char *help);
/* v as a label value: \ " and newline escaped */
void om_label(FILE *f, const char *v);

/*
 * metrics_traffic.c: ikebana_child_sa_{bytes,packets}_total{conn,
 * direction}: the kernel's counters of the installed Child SAs, summed per
 * conn, through trafficstatus' query. k NULL: no kernel backend (nothing
 * counted, a conn's SAs still appear with 0).
 */
void metrics_traffic(FILE *f, const struct ike_engine *e,
		     const struct ikb_kernel_ops *k, void *kstate);

#endif
