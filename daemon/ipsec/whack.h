/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ipsec whack's arguments, for the calls the tools that drive libreswan
 * make (Submariner defines its conns on the command line). A conn so
 * defined becomes ipsec.conf text, which the daemon reads and checks as
 * it reads a file: one parser of conns. Parsed without side effects, for
 * the fuzz target.
 */
#ifndef IKB_IPSEC_WHACK_H
#define IKB_IPSEC_WHACK_H

#include <stdbool.h>
#include <stddef.h>

/* What one whack call asks, done in this order. */
enum whack_op {
	WHACK_DELETE = 1 << 0,
	WHACK_ADD = 1 << 1, /* the conn defined by the arguments */
	WHACK_ROUTE = 1 << 2,
	WHACK_INITIATE = 1 << 3,
	WHACK_TERMINATE = 1 << 4,
	WHACK_UNROUTE = 1 << 5,
	WHACK_REREADSECRETS = 1 << 6,
	WHACK_LISTEN = 1 << 7,
	WHACK_STATUS = 1 << 8,
	WHACK_TRAFFICSTATUS = 1 << 9,
	WHACK_SHOWSTATES = 1 << 10,
	WHACK_SHUTDOWN = 1 << 11,
};

#define WHACK_CONN_TEXT_MAX 4096

struct whack_args {
	unsigned ops;
	const char *name;
	const char *ctlsocket;
	bool async;
	char conn[WHACK_CONN_TEXT_MAX]; /* ipsec.conf text of WHACK_ADD */
};

/* argv[0] is "whack". 0, or -1 with why filled in (usage: exit 2). */
int whack_parse(int argc, char *const argv[], struct whack_args *w,
		char *why, size_t len);

#endif
