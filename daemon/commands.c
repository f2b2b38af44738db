// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "build-config.h"
#include "commands.h"
#include "config/diag.h"
#include "control/proto.h"
#include "config/config.h"
#include "daemon.h"
#include "ike/ike.h"
#include "keylog.h"
#include "log.h"
#include "plugin/plugin_set.h"
#include "status.h"
#include "up_wait.h"
#include "traffic.h"

static bool req_bool(struct json_object *req, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(req, key, &v) &&
	       json_object_get_boolean(v);
}

static struct json_object *cmd_status(struct ikbd *d, struct json_object *req)
{
	struct json_object *o;

	if (req_bool(req, "private") && !keylog_enabled(d))
		return ctl_response_error(
			"status --private needs a daemon started with "
			"--debug-private or plutodebug=private");
	o = status_json(d);
	if (req_bool(req, "private")) {
		log_notice("control: status --private: showing Child SA keys");
		json_object_object_add(o, "private_keys", keylog_json(d));
	}
	return ctl_response_ok(o);
}

/* The conn name of an up/down request, or NULL after setting *err. */
static const char *req_conn(struct json_object *req, const char *cmd,
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

static struct json_object *conn_done(const char *conn, const char *what)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "conn", json_object_new_string(conn));
	json_object_object_add(o, "result", json_object_new_string(what));
	return ctl_response_ok(o);
}

static struct json_object *cmd_up(struct ikbd *d, struct json_object *req)
{
	struct json_object *r = NULL, *wait;
	const char *conn = req_conn(req, "up", &r);
	struct ikb_error err = { "" };
	int rc;

	if (!conn)
		return r;
	if (!cfg_conn_find(d->conf.cfg, conn))
		return ctl_response_error("up: no conn named '%.64s' is "
					  "loaded (see ikebana status)",
					  conn);
	rc = ike_engine_up(d->engine, conn, &err);
	if (rc == -EALREADY)
		return ctl_response_error("up: %s (ikebana down %.64s first)",
					  err.msg, conn);
	if (rc)
		return ctl_response_error("up: conn %.64s: %s", conn, err.msg);
	log_notice("control: up %s: initiating", conn);
	/* {"wait": SECONDS}: answer with the outcome (up_wait.c) */
	if (json_object_object_get_ex(req, "wait", &wait) &&
	    json_object_get_int(wait) > 0 &&
	    !up_wait(d, conn, (unsigned)json_object_get_int(wait)))
		return NULL;
	return conn_done(conn, "initiating");
}

static struct json_object *cmd_down(struct ikbd *d, struct json_object *req)
{
	struct json_object *r = NULL;
	const char *conn = req_conn(req, "down", &r);
	struct ikb_error err = { "" };
	int rc;

	if (!conn)
		return r;
	rc = ike_engine_down(d->engine, conn, &err);
	if (rc == -ENOENT && !cfg_conn_find(d->conf.cfg, conn))
		return ctl_response_error("down: no conn named '%.64s' is "
					  "loaded and no IKE SA has that name",
					  conn);
	if (rc)
		return ctl_response_error("down: %s", err.msg);
	log_notice("control: down %s", conn);
	return conn_done(conn, "deleting");
}

/* {"conn": NAME} is optional: without it, every conn's Child SAs. */
static struct json_object *cmd_trafficstatus(struct ikbd *d,
					     struct json_object *req)
{
	struct json_object *v;
	const char *conn = NULL;
	const struct ikb_kernel_ops *k = NULL;
	void *st = NULL;

	if (json_object_object_get_ex(req, "conn", &v) && v) {
		if (!json_object_is_type(v, json_type_string) ||
		    json_object_get_string_len(v) == 0)
			return ctl_response_error(
				"trafficstatus: expected {\"conn\": NAME} or "
				"no conn");
		conn = json_object_get_string(v);
		/* a conn that reload removed may still have Child SAs */
		if (!cfg_conn_find(d->conf.cfg, conn) &&
		    !(d->engine &&
		      ike_engine_foreach_child(d->engine, conn, NULL, NULL)))
			return ctl_response_error(
				"trafficstatus: no conn named '%.64s' is "
				"loaded (see ikebana status)",
				conn);
	}
	if (d->conf.plugins)
		k = plugin_set_kernel(d->conf.plugins, &st);
	return ctl_response_ok(
		traffic_json(d->engine, k, st, conn, time(NULL)));
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
	{ "status", cmd_status }, { "trafficstatus", cmd_trafficstatus },
	{ "up", cmd_up },	  { "down", cmd_down },
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
