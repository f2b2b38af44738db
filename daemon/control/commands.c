// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of control commands, and what they share. */
#include <stdbool.h>
#include <string.h>
#include <json-c/json.h>

#include "control/commands.h"
#include "control/proto.h"
#include "log.h"

bool req_bool(struct json_object *req, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(req, key, &v) &&
	       json_object_get_boolean(v);
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

struct json_object *conn_done(const char *conn, const char *what)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "conn", json_object_new_string(conn));
	json_object_object_add(o, "result", json_object_new_string(what));
	return ctl_response_ok(o);
}

static const struct {
	const char *name;
	struct json_object *(*fn)(struct ikbd *d, struct json_object *req);
} commands[] = {
	{ "status", cmd_status }, { "trafficstatus", cmd_trafficstatus },
	{ "up", cmd_up },	  { "down", cmd_down },
	{ "route", cmd_route },	  { "unroute", cmd_unroute },
	{ "reload", cmd_reload }, { "version", cmd_version },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

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

struct json_object *commands_handle(void *ctx, const char *cmd,
				    struct json_object *req)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(cmd, commands[i].name) == 0) {
			log_debug("control: %s", cmd);
			return commands[i].fn(ctx, req);
		}
	return unknown(cmd);
}
