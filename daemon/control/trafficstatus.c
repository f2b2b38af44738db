// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trafficstatus [{"conn": NAME}]. The engine says which Child SAs are installed and where (dst, SPI,
 * protocol); the kernel backend says what they carried. One failed query
 * becomes that entry's error, so that a vanished SA never hides the others.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ikebana/kernel.h>
#include <json-c/json.h>

#include "app/daemon.h"
#include "config/config.h"
#include "control/commands.h"
#include "control/json_stream.h"
#include "control/proto.h"
#include "control/trafficstatus.h"
#include "ike/ike.h"
#include "plugin/plugin_set.h"
#include "util/json.h"

struct walk {
	const struct ike_engine *e;
	const struct ikb_kernel_ops *k;
	void *kstate;
	time_t now;
	struct json_object *list;   /* traffic_json()'s tree, or */
	struct json_stream *stream; /* the answer, written as it is made */
	const char *conn;
};

static void put_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static void put_spi(struct json_object *o, const char *k,
		    const struct ikb_sa *sa)
{
	static const char digits[] = "0123456789abcdef";
	char buf[9];

	if (!sa) {
		json_object_object_add(o, k, NULL);
		return;
	}
	/* "%08" PRIx32 without snprintf, twice for each Child SA listed */
	for (int i = 0; i < 8; i++)
		buf[i] = digits[sa->spi >> (28 - 4 * i) & 0xf];
	buf[8] = '\0';
	json_put_str(o, k, buf);
}

int traffic_query(const struct ikb_kernel_ops *k, void *kstate,
		  const struct ikb_sa *sa, struct ikb_sa_counters *c,
		  struct ikb_error *err)
{
	int rc;

	*c = (struct ikb_sa_counters){ 0 };
	if (!k)
		rc = ikb_error_set(err, ENOTSUP, "no kernel plugin is loaded");
	else if (!k->sa_query)
		rc = ikb_error_set(err, ENOTSUP,
				   "the kernel plugin cannot query SAs");
	else
		rc = k->sa_query(kstate, &sa->dst, sa->spi, sa->proto, c, err);
	if (rc)
		*c = (struct ikb_sa_counters){ 0 };
	return rc;
}

/* The counters of one direction; *c is zeroed when there are none. */
static struct json_object *dir_json(const struct walk *w,
				    const struct ikb_sa *sa,
				    struct ikb_sa_counters *c)
{
	struct ikb_error err = { "" };
	struct json_object *o;

	*c = (struct ikb_sa_counters){ 0 };
	if (!sa)
		return NULL;
	o = json_object_new_object();
	if (traffic_query(w->k, w->kstate, sa, c, &err)) {
		json_put_str(o, "error",
			     err.msg[0] ? err.msg : "the kernel query failed");
		return o;
	}
	put_u64(o, "bytes", c->bytes);
	put_u64(o, "packets", c->packets);
	put_u64(o, "use_time", c->use_time);
	put_u64(o, "replay_fail", c->replay_fail);
	put_u64(o, "integrity_fail", c->integrity_fail);
	return o;
}

bool traffic_idle(time_t now, const struct ikb_sa_counters *in,
		  const struct ikb_sa_counters *out, int64_t *s)
{
	uint64_t last =
		in->use_time > out->use_time ? in->use_time : out->use_time;

	if (!last)
		return false;
	/* a clock stepped back since the last packet: not idle at all */
	*s = (uint64_t)now > last ? (int64_t)((uint64_t)now - last) : 0;
	return true;
}

/* Seconds since the later use of the two; null if neither was used. */
static struct json_object *idle_json(time_t now,
				     const struct ikb_sa_counters *in,
				     const struct ikb_sa_counters *out)
{
	int64_t s;

	return traffic_idle(now, in, out, &s) ? json_object_new_int64(s) :
						NULL;
}

static uint64_t add_time(const struct ike_child_info *c,
			 const struct ikb_sa_counters *in,
			 const struct ikb_sa_counters *out)
{
	if (in->add_time)
		return in->add_time;
	if (out->add_time)
		return out->add_time;
	return c->created > 0 ? (uint64_t)c->created : 0;
}

static struct json_object *child_json(const struct walk *w,
				      const struct ike_child_info *c)
{
	struct json_object *o = json_object_new_object();
	struct ikb_sa_counters in, out;

	json_put_str(o, "conn", c->conn);
	put_u64(o, "ike_serial", c->ike_serial);
	put_u64(o, "reqid", c->reqid);
	json_put_str(o, "remote_id", c->remote_id);
	json_put_str(o, "proto", "ESP");
	json_put_str(o, "mode",
		     c->mode == IKB_MODE_TUNNEL ? "tunnel" : "transport");
	json_put_str(o, "alg", c->alg);
	json_put_str(o, "kernel_alg", c->kernel_alg);
	put_spi(o, "spi_in", c->in);
	put_spi(o, "spi_out", c->out);
	json_object_object_add(o, "in", dir_json(w, c->in, &in));
	json_object_object_add(o, "out", dir_json(w, c->out, &out));
	put_u64(o, "add_time", add_time(c, &in, &out));
	json_object_object_add(o, "idle_s", idle_json(w->now, &in, &out));
	return o;
}

static void on_child(void *ctx, const struct ike_child_info *c)
{
	struct walk *w = ctx;

	if (w->stream)
		json_stream_emit(w->stream, child_json(w, c));
	else
		json_object_array_add(w->list, child_json(w, c));
}

struct json_object *traffic_json(const struct ike_engine *e,
				 const struct ikb_kernel_ops *k, void *kstate,
				 const char *conn, time_t now)
{
	struct json_object *o = json_object_new_object();
	struct walk w = { .e = e, .k = k, .kstate = kstate, .now = now,
			  .list = json_object_new_array(), .conn = conn };

	if (e)
		ike_engine_foreach_child(e, conn, on_child, &w);
	json_object_object_add(o, "child_sas", w.list);
	return o;
}

static void walk_free(void *ctx)
{
	struct walk *w = ctx;

	free((char *)w->conn);
	free(w);
}

static void walk_children(void *ctx, struct json_stream *s)
{
	struct walk *w = ctx;

	w->stream = s;
	if (w->e)
		ike_engine_foreach_child(w->e, w->conn, on_child, w);
	w->stream = NULL;
}

/*
 * traffic_json()'s text, each Child SA's object written and freed before
 * the next is made (json_stream.h): with 10,000 of them, building the
 * whole tree and freeing it after the answer was most of the daemon's
 * time. The answer is encoded before the loop runs again, while e, k and
 * conn (the request's) are the ones walk_children() needs.
 */
static struct json_object *traffic_stream(const struct ike_engine *e,
					  const struct ikb_kernel_ops *k,
					  void *kstate, const char *conn)
{
	struct json_object *o = json_object_new_object();
	struct walk *w = calloc(1, sizeof(*w));

	if (!w)
		return o;
	*w = (struct walk){ .k = k, .kstate = kstate, .now = time(NULL),
			    .e = e, .conn = conn ? strdup(conn) : NULL };
	json_object_object_add(o, "child_sas",
			       json_stream_array(walk_children, w, walk_free));
	return o;
}

/*
 * {"conn": NAME} is optional: without it, every conn's Child SAs.
 * {"text": true}, what `ikebana trafficstatus` asks without --json: the
 * answer is {"text": its lines} (traffic_text()).
 */
struct json_object *cmd_trafficstatus(struct ikbd *d, struct json_object *req)
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
	if (req_bool(req, "text")) {
		size_t len = 0;
		char *text = traffic_text(d->engine, k, st, conn, time(NULL),
					  &len);

		return text_response("trafficstatus", text, len);
	}
	return ctl_response_ok(traffic_stream(d->engine, k, st, conn));
}
