/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ipsec command's arguments, as libreswan 4's `ipsec auto --VERB NAME`
 * and libreswan 5's `ipsec VERB NAME` (and `ipsec --VERB NAME`, which
 * ovs-monitor-ipsec writes for libreswan 5) take them, options anywhere.
 * Parsed without side effects, for the fuzz target.
 */
#ifndef IKB_IPSEC_ARGS_H
#define IKB_IPSEC_ARGS_H

#include <stdbool.h>
#include <stddef.h>

enum ipsec_verb {
	IPSEC_NONE,
	IPSEC_HELP,
	IPSEC_VERSION,
	IPSEC_ADD,
	IPSEC_REPLACE,
	IPSEC_DELETE,
	IPSEC_START, /* add, then up */
	IPSEC_UP,
	IPSEC_DOWN,
	IPSEC_ROUTE,
	IPSEC_UNROUTE,
	IPSEC_ONDEMAND, /* add, then route */
	IPSEC_REREADSECRETS,
	IPSEC_READY,
	IPSEC_STATUS,
	IPSEC_TRAFFICSTATUS,
	IPSEC_SHOWSTATES,
	/* the NSS database, without the daemon (nss.c) */
	IPSEC_CHECKNSS, /* made if missing, as libreswan's unit does */
	IPSEC_INITNSS,	/* made; an error if there is one */
	IPSEC_CHECKCONFIG, /* the configuration file, without the daemon */
	/* the daemon itself: ipsec start|stop|restart, ipsec setup VERB */
	IPSEC_DAEMON_START,
	IPSEC_DAEMON_STOP,
	IPSEC_DAEMON_RESTART,
};

struct ipsec_args {
	enum ipsec_verb verb;
	const char *name;      /* the conn, for the verbs that take one */
	const char *config;    /* --config FILE; "-": standard input */
	const char *ctlsocket; /* --ctlsocket PATH */
	const char *nssdir;    /* --nssdir DIR (checknss, initnss, checkconfig) */
	bool async;            /* --asynchronous */
};

/* 0, or -1 with why filled in (a usage error: exit 2). */
int ipsec_args_parse(int argc, char *const argv[], struct ipsec_args *a,
		     char *why, size_t len);
/* Whether verb takes a conn name. */
bool ipsec_verb_named(enum ipsec_verb v);

#endif
