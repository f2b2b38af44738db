/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control socket RUNDIR/ikebana.ctl: a non-blocking listener on the
 * daemon's event loop. It owns the framing and the clients; what a command
 * does is up to the handler.
 */
#ifndef IKB_CONTROL_SERVER_H
#define IKB_CONTROL_SERVER_H

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
 * Bind and listen. Any existing socket file is replaced: the caller must
 * already own RUNDIR (the pid file). Returns NULL with errno.
 */
struct ctl_server *ctl_server_open(struct event_base *base, const char *rundir,
				   ctl_handler_fn fn, void *ctx);
/* Close every client and the listener, and remove the socket file. */
void ctl_server_close(struct ctl_server *srv);
const char *ctl_server_path(const struct ctl_server *srv);

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
/* Takes resp; the client's next request, if buffered, runs from the loop. */
void ctl_client_answer(struct ctl_client *c, struct json_object *resp);

#endif
