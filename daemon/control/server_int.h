/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control server's own state, shared by server.c (framing, dispatch)
 * and limits.c (who may connect, and for how long).
 */
#ifndef IKB_CONTROL_SERVER_INT_H
#define IKB_CONTROL_SERVER_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#include "control/server.h"
#include "log/log.h"

struct ctl_client {
	struct ctl_server *srv;
	struct bufferevent *bev;
	struct ctl_client *prev, *next;
	bool closing; /* framing lost: flush the last response, then close */
	/* ctl_server_defer(): the answer comes from ctl_client_answer() */
	bool deferred;
	ctl_gone_fn *gone;
	void *gone_arg;
	pid_t pid; /* SO_PEERCRED at accept: for the limits and the log */
	uid_t uid;
	struct event *deadline; /* armed while the daemon waits on the client */
	uint64_t since; /* when that wait began, in srv->ticks */
};

struct ctl_server {
	struct event_base *base;
	struct evconnlistener *lev;
	ctl_handler_fn fn;
	void *ctx;
	struct ctl_client *current; /* whose request the handler runs */
	struct ctl_client *clients;
	unsigned nclients;
	struct ctl_limits limits;
	uint64_t ticks; /* orders the waits: the oldest is evicted first */
	struct log_ratelimit rl; /* refused and closed clients */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

/* server.c */
void client_free(struct ctl_client *c);

/* limits.c */
/* The limits a server starts with (server.h says why). */
void limits_default(struct ctl_limits *l);
/*
 * Whether a client with these credentials may take a slot, after closing
 * at most one other client of the same uid to make room.
 */
bool limits_admit(struct ctl_server *srv, pid_t pid, uid_t uid);
/* Start (again) the time the client has for its next request. */
void limits_arm(struct ctl_client *c);
/* The daemon works on the client's request: no deadline meanwhile. */
void limits_disarm(struct ctl_client *c);

#endif
