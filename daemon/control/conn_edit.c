// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * add, delete, rereadsecrets, shutdown: one conn changed without a whole reload
 * (app/conn_edit.c), as ipsec auto --add/--replace/--delete and whack
 * --rereadsecrets do. An error answers with every diagnostic line, which
 * names the conn and where it was read.
 *
 * add: {"conn": NAME, "config": PATH} reads the conn from PATH (default:
 * the daemon's file), {"conn": NAME, "text": CONF, "name": LABEL} from
 * the text (a client's standard input).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "app/conn_edit.h"
#include "app/daemon.h"
#include "config/config.h"
#include "config/diag.h"
#include "control/commands.h"
#include "control/proto.h"

static const char *req_str(struct json_object *req, const char *key,
			   size_t *len)
{
	struct json_object *v;

	if (!json_object_object_get_ex(req, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	if (len)
		*len = (size_t)json_object_get_string_len(v);
	return json_object_get_string(v);
}

static struct json_object *answer(const char *cmd, const char *conn, int rc,
				  const char *result, struct ikb_diag *diag)
{
	struct json_object *r;

	if (rc < 0) {
		r = ctl_response_error("%s %s: %u error(s); nothing changed",
				       cmd, conn, diag->errors);
		json_object_object_add(r, "diag", diag_lines(diag, true));
	} else {
		r = conn_done(conn, result);
		json_object_object_add(json_object_object_get(r, "data"),
				       "warnings", diag_lines(diag, false));
	}
	diag_free(diag);
	return r;
}

struct json_object *cmd_add(struct ikbd *d, struct json_object *req)
{
	struct json_object *err = NULL;
	const char *conn = req_conn(req, "add", &err), *result = "";
	struct conn_source src = { 0 };
	struct ikb_diag diag;
	int rc;

	if (!conn)
		return err;
	if (strlen(conn) > CFG_CONN_NAME_MAX)
		return ctl_response_error("add: a conn name has at most %d "
					  "characters",
					  CFG_CONN_NAME_MAX);
	src.config = req_str(req, "config", NULL);
	src.text = req_str(req, "text", &src.len);
	src.name = req_str(req, "name", NULL);
	diag_init(&diag);
	rc = ikbd_conn_add(d, conn, &src, &result, &diag);
	return answer("add", conn, rc, result, &diag);
}

struct json_object *cmd_delete(struct ikbd *d, struct json_object *req)
{
	struct json_object *err = NULL;
	const char *conn = req_conn(req, "delete", &err), *result = "";
	struct ikb_diag diag;
	int rc;

	if (!conn)
		return err;
	diag_init(&diag);
	rc = ikbd_conn_delete(d, conn, &result, &diag);
	return answer("delete", conn, rc, result, &diag);
}

/*
 * shutdown (whack --shutdown): the way SIGTERM goes, so that the SAs are
 * deleted and the daemon exits 0 as it does on a signal.
 */
struct json_object *cmd_shutdown(struct ikbd *d, struct json_object *req)
{
	(void)d;
	(void)req;
	if (kill(getpid(), SIGTERM) < 0)
		return ctl_response_error("shutdown: %s", strerror(errno));
	return ctl_response_ok(json_object_new_object());
}

struct json_object *cmd_rereadsecrets(struct ikbd *d, struct json_object *req)
{
	struct ikb_diag diag;
	struct json_object *r;

	(void)req;
	diag_init(&diag);
	if (ikbd_secrets_reload(d, &diag) < 0) {
		r = ctl_response_error("rereadsecrets: %u error(s); the "
				       "secrets in use stay",
				       diag.errors);
		json_object_object_add(r, "diag", diag_lines(&diag, true));
	} else {
		r = ctl_response_ok(json_object_new_object());
	}
	diag_free(&diag);
	return r;
}
