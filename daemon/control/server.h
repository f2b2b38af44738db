/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control socket RUNDIR/ikebana.ctl: a non-blocking listener on the
 * daemon's event loop. It owns the framing and the clients; what a command
 * does is up to the handler.
 */
#ifndef IKB_CONTROL_SERVER_H
#define IKB_CONTROL_SERVER_H

#include <stdbool.h>
#include <sys/types.h>

struct event_base;
struct json_object;
struct ctl_server;

/*
 * Answer one request (an object whose "cmd" is a string) with a response
 * built by ctl_response_ok()/ctl_response_error(); ownership passes to the
 * server. NULL after ctl_server_defer(): the answer comes later.
 */
typedef struct json_object *(*ctl_handler_fn)(void *ctx, const char *cmd,
					      struct json_object *req);

/*
 * Bind and listen at path (ctl_socket_path(), or ikebanad --ctlsocket).
 * Any existing socket file is replaced: the caller must already own its
 * run directory (the pid file). Returns NULL with errno.
 */
struct ctl_server *ctl_server_open(struct event_base *base, const char *path,
				   ctl_handler_fn fn, void *ctx);
/* Close every client and the listener, and remove the socket file. */
void ctl_server_close(struct ctl_server *srv);
const char *ctl_server_path(const struct ctl_server *srv);

/*
 * What a client may hold. The socket is open to root and group ikebana,
 * so the limits are there for one member (or a stuck script) not to lock
 * the others out, and nobody to lock out root:
 * - max_clients: all clients together; the non-root ones share what is
 *   left after per_uid slots kept for root, so root always finds one.
 * - per_uid: one uid's clients, root's included. A uid at its cap that
 *   connects again closes its own longest-waiting client (one not waiting
 *   on an answer) instead: its newest client is the one likely to be alive.
 * - request_ms: from connecting, and again from each answer, to a complete
 *   request. Our client writes its request at once and closes after the
 *   answer, so this only ends clients that hold a slot doing nothing, or
 *   that trickle a request byte by byte. While a request is answered
 *   later (up), no deadline runs.
 */
struct ctl_limits {
	unsigned max_clients;
	unsigned per_uid;
	unsigned request_ms;
};

/* Replace the defaults (128, 32, 5000 ms); tests shorten the times. */
void ctl_server_set_limits(struct ctl_server *srv, const struct ctl_limits *l);

/*
 * For a command that finishes later (up waits for its IKE SA): called in
 * the handler, which then returns NULL. The client's further requests
 * wait until ctl_client_answer() sends the response. If the client goes
 * away first (or the server closes), gone(arg) runs and the client is no
 * more. NULL outside a handler: then answer at once.
 */
struct ctl_client;
typedef void ctl_gone_fn(void *arg);
struct ctl_client *ctl_server_defer(struct ctl_server *srv, ctl_gone_fn *gone,
				    void *arg);
/*
 * Who sent the request the handler runs: SO_PEERCRED of its connection.
 * False outside a handler.
 */
bool ctl_server_peer(const struct ctl_server *srv, pid_t *pid, uid_t *uid);
/* Takes resp; the client's next request, if buffered, runs from the loop. */
void ctl_client_answer(struct ctl_client *c, struct json_object *resp);

#endif
