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
 * server.
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

#endif
