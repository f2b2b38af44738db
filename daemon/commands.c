// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "build-config.h"
#include "commands.h"
#include "config/diag.h"
#include "control/proto.h"
#include "daemon.h"
#include "log.h"
#include "status.h"

static struct json_object *cmd_status(struct ikbd *d, struct json_object *req)
{
	return ctl_response_ok(status_json(d));
}

static struct json_object *cmd_version(struct ikbd *d, struct json_object *req)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "version",
			       json_object_new_string(IKB_VERSION));
	return ctl_response_ok(o);
}

/* Every line when all, else the non-errors (warnings and notices). */
static struct json_object *diag_lines(const struct ikb_diag *diag, bool all)
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

static struct json_object *cmd_reload(struct ikbd *d, struct json_object *req)
{
	struct ikb_diag diag;
	struct json_object *r, *data;

	diag_init(&diag);
	if (ikbd_reload(d, &diag) < 0) {
		r = ctl_response_error("reload failed with %u error(s); the "
				       "previous configuration stays in use",
				       diag.errors);
		/* Every line, warnings included, in file order. */
		json_object_object_add(r, "diag", diag_lines(&diag, true));
	} else {
		data = json_object_new_object();
		json_object_object_add(
			data, "conns",
			json_object_new_int((int)d->conf.cfg->nconns));
		json_object_object_add(data, "warnings",
				       diag_lines(&diag, false));
		r = ctl_response_ok(data);
	}
	diag_free(&diag);
	return r;
}

static const struct {
	const char *name;
	struct json_object *(*fn)(struct ikbd *d, struct json_object *req);
} commands[] = {
	{ "status", cmd_status },
	{ "reload", cmd_reload },
	{ "version", cmd_version },
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
