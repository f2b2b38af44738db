// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * status [--private]: the status object is assembled from parts, one
 * function per top-level key: a new subsystem replaces or adds one entry
 * in status_parts[] and nothing else.
 *
 * {"text": true} is what `ikebana status` without --json asks: the
 * answer is the text itself (status_text.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>

#include "app/daemon.h"
#include "app/keylog.h"
#include "build-config.h"
#include "config/config.h"
#include "control/commands.h"
#include "control/json_stream.h"
#include "control/proto.h"
#include "control/status_text.h"
#include "ike/ike.h"
#include "ike/status/ike_failure.h"
#include "log/log.h"

static struct json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

struct status_walk {
	const struct ikbd *d;
};

static struct json_object *part_daemon(const struct status_walk *w)
{
	const struct ikbd *d = w->d;
	struct json_object *o = json_object_new_object();
	char started[64];
	struct tm tm;

	gmtime_r(&d->started_wall, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(o, "version",
			       json_object_new_string(IKB_VERSION));
	json_object_object_add(o, "pid", json_object_new_int(getpid()));
	json_object_object_add(o, "started", json_object_new_string(started));
	json_object_object_add(o, "uptime",
			       json_object_new_int64(ikbd_uptime(d)));
	json_object_object_add(o, "config",
			       json_object_new_string(d->opts->config));
	json_object_object_add(o, "secrets",
			       str_or_null(opts_secrets(d->opts)));
	json_object_object_add(o, "rundir",
			       json_object_new_string(d->opts->rundir));
	json_object_object_add(o, "reloads",
			       json_object_new_int((int)d->reloads));
	return o;
}

static struct json_object *part_plugins(const struct status_walk *w)
{
	const struct ikbd *d = w->d;
	struct json_object *a = json_object_new_array();
	size_t n = d->conf.plugins ? plugin_set_count(d->conf.plugins) : 0;

	for (size_t i = 0; i < n; i++) {
		void *state;
		const struct ikb_plugin *p =
			plugin_set_get(d->conf.plugins, i, &state);
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "name", str_or_null(p->name));
		json_object_object_add(o, "summary", str_or_null(p->summary));
		json_object_array_add(a, o);
	}
	return a;
}

static void add_key(struct json_object *o, const struct ikb_section *s,
		    const char *key)
{
	const struct ikb_value *v = cfg_get(s, key);

	json_object_object_add(o, key, v ? str_or_null(v->value) : NULL);
}

static struct json_object *conn_json(const struct ikbd *d,
				     const struct ikb_section *s)
{
	struct json_object *o = json_object_new_object();
	struct json_object *hosts = ike_engine_hosts(d->engine, s->name);

	json_object_object_add(o, "name", str_or_null(s->name));
	add_key(o, s, "auto");
	add_key(o, s, "left");
	add_key(o, s, "right");
	/* what left=/right= names and %defaultroute resolved to */
	json_object_object_add(o, "hosts", hosts);
	json_object_object_add(o, "file", str_or_null(s->file));
	json_object_object_add(o, "line", json_object_new_int((int)s->line));
	/* why its negotiations failed, newest first (ike_failure.h) */
	json_object_object_add(o, "failures",
			       d->engine ?
				       ike_engine_failures(d->engine, s->name) :
				       json_object_new_array());
	return o;
}

static void walk_conns(void *ctx, struct json_stream *s)
{
	const struct status_walk *w = ctx;
	const struct cfg *c = w->d->conf.cfg;

	for (size_t i = 0; c && i < c->nconns; i++)
		json_stream_emit(s, conn_json(w->d, &c->conns[i]));
}

static void walk_ike_sas(void *ctx, struct json_stream *s)
{
	const struct status_walk *w = ctx;
	const struct ike_sa *sa = NULL;

	while (w->d->engine && (sa = ike_engine_next_sa(w->d->engine, sa)))
		json_stream_emit(s, ike_sa_status(sa));
}

/*
 * The two parts that grow with the conns and the SAs are written one
 * element at a time (json_stream.h): cmd_status()'s answer is encoded
 * at once, while d's conns and SAs are the ones walked here. Each stream
 * has its own copy of w, which lives on cmd_status()'s stack.
 */
static struct json_object *stream_part(const struct status_walk *w,
				       json_stream_walk_fn *fn)
{
	struct status_walk *copy = malloc(sizeof(*copy));

	if (!copy)
		return NULL;
	*copy = *w;
	return json_stream_array(fn, copy, free);
}

static struct json_object *part_conns(const struct status_walk *w)
{
	return stream_part(w, walk_conns);
}

static struct json_object *part_ike_sas(const struct status_walk *w)
{
	return stream_part(w, walk_ike_sas);
}

static struct json_object *part_routes(const struct status_walk *w)
{
	const struct ikbd *d = w->d;

	return d->engine ? ike_engine_routes(d->engine) :
			   json_object_new_array();
}

static struct json_object *part_interfaces(const struct status_walk *w)
{
	const struct ikbd *d = w->d;

	return d->engine ? ike_engine_interfaces(d->engine) :
			   json_object_new_array();
}

static const struct {
	const char *key;
	struct json_object *(*fn)(const struct status_walk *w);
} status_parts[] = {
	{ "daemon", part_daemon }, { "plugins", part_plugins },
	{ "conns", part_conns },   { "ike_sas", part_ike_sas },
	{ "routes", part_routes }, { "interfaces", part_interfaces },
};

static struct json_object *status_json(const struct ikbd *d)
{
	struct json_object *o = json_object_new_object();
	const struct status_walk w = { d };

	for (size_t i = 0; i < sizeof(status_parts) / sizeof(status_parts[0]);
	     i++)
		json_object_object_add(o, status_parts[i].key,
				       status_parts[i].fn(&w));
	return o;
}

/* {"text": what `ikebana status` prints} (status_text.h) */
static struct json_object *text_answer(const struct ikbd *d, bool private_keys)
{
	size_t len = 0;
	char *text = status_text(d, private_keys, &len);

	if (text && private_keys)
		log_notice("control: status --private: showing Child SA keys");
	return text_response("status", text, len);
}

/* {"text": libreswan's whack --status shape} (status_lsw.c) */
static struct json_object *lsw_answer(const struct ikbd *d)
{
	size_t len = 0;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return text_response("status", NULL, 0);
	ike_engine_status_lsw(d->engine, f);
	if (fclose(f)) {
		free(text);
		text = NULL;
	}
	return text_response("status", text, len);
}

struct json_object *cmd_status(struct ikbd *d, struct json_object *req)
{
	struct json_object *o, *v;

	if (req_bool(req, "private") && !keylog_enabled(d))
		return ctl_response_error(
			"status --private needs a daemon started with "
			"--debug-private or plutodebug=private");
	if (req_bool(req, "text"))
		return text_answer(d, req_bool(req, "private"));
	if (json_object_object_get_ex(req, "format", &v) &&
	    json_object_is_type(v, json_type_string) &&
	    !strcmp(json_object_get_string(v), "libreswan"))
		return lsw_answer(d);
	o = status_json(d);
	if (req_bool(req, "private")) {
		log_notice("control: status --private: showing Child SA keys");
		json_object_object_add(o, "private_keys", keylog_json(d));
	}
	return ctl_response_ok(o);
}
