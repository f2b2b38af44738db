// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of control commands, and what they share. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "app/daemon.h"
#include "config/diag.h"
#include "control/commands.h"
#include "control/proto.h"
#include "control/server.h"
#include "log/log.h"

bool req_bool(struct json_object *req, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(req, key, &v) &&
	       json_object_get_boolean(v);
}

struct json_object *text_response(const char *cmd, char *text, size_t len)
{
	struct json_object *o;

	/* json-c takes an int length */
	if (!text || len > INT32_MAX) {
		free(text);
		return ctl_response_error("%s: out of memory", cmd);
	}
	o = json_object_new_object();
	json_object_object_add(o, "text",
			       json_object_new_string_len(text, (int)len));
	free(text);
	return ctl_response_ok(o);
}

const char *req_conn(struct json_object *req, const char *cmd,
		     struct json_object **err)
{
	struct json_object *v;

	if (json_object_object_get_ex(req, "conn", &v) &&
	    json_object_is_type(v, json_type_string) &&
	    json_object_get_string_len(v) > 0)
		return json_object_get_string(v);
	*err = ctl_response_error("%s: expected {\"conn\": NAME}", cmd);
	return NULL;
}

struct json_object *diag_lines(const struct ikb_diag *diag, bool all)
{
	struct json_object *a = json_object_new_array();
	char line[1024];

	for (size_t i = 0; i < diag->n; i++)
		if (all || diag->msgs[i].sev != IKB_SEV_ERROR)
			json_object_array_add(
				a, json_object_new_string(diag_format(
					   diag, i, line, sizeof(line))));
	return a;
}

struct json_object *conn_done(const char *conn, const char *what)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "conn", json_object_new_string(conn));
	json_object_object_add(o, "result", json_object_new_string(what));
	return ctl_response_ok(o);
}

/*
 * changes: the command changes what is protected (a tunnel, a trap, the
 * configuration) or shows keys; only root (or the daemon's own user, when
 * it runs unprivileged) may. The socket is 0660 root:ikebana, so the
 * group may still look (status, trafficstatus, version, metrics).
 */
static const struct {
	const char *name;
	struct json_object *(*fn)(struct ikbd *d, struct json_object *req);
	bool changes;
} commands[] = {
	{ "status", cmd_status, false },
	{ "trafficstatus", cmd_trafficstatus, false },
	{ "up", cmd_up, true },
	{ "down", cmd_down, true },
	{ "route", cmd_route, true },
	{ "unroute", cmd_unroute, true },
	{ "reload", cmd_reload, true },
	{ "add", cmd_add, true },
	{ "delete", cmd_delete, true },
	{ "rereadsecrets", cmd_rereadsecrets, true },
	{ "shutdown", cmd_shutdown, true },
	{ "version", cmd_version, false },
	{ "explain", cmd_explain, false },
	{ "metrics", cmd_metrics, false },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))
_Static_assert(NCOMMANDS <= CTL_COMMANDS_MAX, "raise CTL_COMMANDS_MAX");

const char *commands_name(size_t i)
{
	return i < NCOMMANDS ? commands[i].name : NULL;
}

static struct json_object *unknown(const char *cmd)
{
	char known[256] = "";

	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (i)
			strncat(known, ", ", sizeof(known) - strlen(known) - 1);
		strncat(known, commands[i].name,
			sizeof(known) - strlen(known) - 1);
	}
	return ctl_response_error("unknown command '%.64s' (known: %s)", cmd,
				  known);
}

/* The conn a request names, for the log line: "" when none. */
static const char *conn_of(struct json_object *req)
{
	struct json_object *v;

	return json_object_object_get_ex(req, "conn", &v) &&
			       json_object_is_type(v, json_type_string) ?
		       json_object_get_string(v) :
		       "";
}

/*
 * Whether the client may run it; a changing command is logged with who
 * asked, allowed or not, so that the journal says who took a tunnel down.
 */
static bool allowed(struct ikbd *d, size_t i, struct json_object *req)
{
	bool changes = commands[i].changes || (!strcmp(commands[i].name,
						       "status") &&
					       req_bool(req, "private"));
	pid_t pid = 0;
	uid_t uid = 0;
	bool ok;

	if (!ctl_server_peer(d->ctl, &pid, &uid)) {
		log_debug("control: %s", commands[i].name);
		return true; /* not from a client: the daemon's own call */
	}
	if (!changes) {
		log_debug("control: %s (uid %u pid %d)", commands[i].name,
			  (unsigned)uid, (int)pid);
		return true;
	}
	ok = uid == 0 || uid == geteuid();
	logm(ok ? IKB_LOG_NOTICE : IKB_LOG_WARNING,
	     "control: %s%s%.64s by uid %u pid %d%s", commands[i].name,
	     conn_of(req)[0] ? " " : "", conn_of(req), (unsigned)uid, (int)pid,
	     ok ? "" : ": refused, only root may");
	return ok;
}

struct json_object *commands_handle(void *ctx, const char *cmd,
				    struct json_object *req)
{
	struct ikbd *d = ctx;

	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(cmd, commands[i].name))
			continue;
		d->ctl_requests[i]++;
		if (!allowed(ctx, i, req))
			return ctl_response_error(
				"%s: only root may change tunnels, routes or the configuration, or see keys; members of group ikebana may run status, trafficstatus, explain, version and metrics",
				cmd);
		return commands[i].fn(ctx, req);
	}
	d->ctl_requests[CTL_COMMANDS_MAX]++;
	return unknown(cmd);
}
