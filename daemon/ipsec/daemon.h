/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ipsec start|stop|restart: the daemon itself (daemon.c). */
#ifndef IKB_IPSEC_DAEMON_H
#define IKB_IPSEC_DAEMON_H

#include "cli/cli.h"
#include "ipsec/args.h"

/* pluto's socket: where ikebanad --libreswan-paths answers */
#define IPSEC_LSW_CTLSOCKET "/run/pluto/pluto.ctl"

/* v: IPSEC_DAEMON_START, _STOP or _RESTART. The exit code. */
int ipsec_daemon(const struct cli *c, enum ipsec_verb v);

#endif
