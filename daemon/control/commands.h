/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control commands ikebanad answers: a table in commands.c, and one
 * file per command, as daemon/cli/ has one per subcommand. Each takes
 * the request and returns the response, or NULL when it answers later
 * (up, with ctl_server_defer()).
 */
#ifndef IKB_DAEMON_CONTROL_COMMANDS_H
#define IKB_DAEMON_CONTROL_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>

struct ikbd;
struct ikb_diag;
struct json_object;

/* A ctl_handler_fn; ctx is the struct ikbd. */
struct json_object *commands_handle(void *ctx, const char *cmd,
				    struct json_object *req);

struct json_object *cmd_status(struct ikbd *d, struct json_object *req);
struct json_object *cmd_trafficstatus(struct ikbd *d, struct json_object *req);
struct json_object *cmd_up(struct ikbd *d, struct json_object *req);
struct json_object *cmd_down(struct ikbd *d, struct json_object *req);
struct json_object *cmd_route(struct ikbd *d, struct json_object *req);
struct json_object *cmd_unroute(struct ikbd *d, struct json_object *req);
struct json_object *cmd_reload(struct ikbd *d, struct json_object *req);
/* conn_edit.c: one conn added, replaced or deleted; the secrets file */
struct json_object *cmd_add(struct ikbd *d, struct json_object *req);
struct json_object *cmd_delete(struct ikbd *d, struct json_object *req);
struct json_object *cmd_rereadsecrets(struct ikbd *d, struct json_object *req);
struct json_object *cmd_shutdown(struct ikbd *d, struct json_object *req);
struct json_object *cmd_version(struct ikbd *d, struct json_object *req);
struct json_object *cmd_explain(struct ikbd *d, struct json_object *req);
struct json_object *cmd_metrics(struct ikbd *d, struct json_object *req);
/* The i-th command of the table, NULL past the last (for the metrics). */
const char *commands_name(size_t i);

/* commands.c: what several commands read from a request and answer. */
bool req_bool(struct json_object *req, const char *key);
/* The conn name of an up/down request, or NULL after setting *err. */
const char *req_conn(struct json_object *req, const char *cmd,
		     struct json_object **err);
/* diag's lines as strings: every one when all, else all but errors */
struct json_object *diag_lines(const struct ikb_diag *diag, bool all);
/* {"conn": conn, "result": what} */
struct json_object *conn_done(const char *conn, const char *what);
/*
 * The answer {"text": text}, what the client writes as it comes (status,
 * trafficstatus and metrics without --json); takes text (malloc'd, len
 * bytes). text NULL, out of memory: cmd's error.
 */
struct json_object *text_response(const char *cmd, char *text, size_t len);

#endif
