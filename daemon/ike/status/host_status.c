// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Status of the hosts that are names or %defaultroute: per conn what
 * each resolved to and when, or why not; per IKE SA the name of its peer
 * (and of its own end) and when the answer it was started on came.
 */
#include <stdio.h>
#include <time.h>
#include <json-c/json.h>

#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/msg/msg.h"
#include "ike/status/status.h"

/* "2026-12-04T18:00:00Z"; NULL for 0 (not yet) */
static const char *iso_str(char buf[32], time_t t)
{
	struct tm tm;

	if (!t)
		return NULL;
	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

static struct json_object *iso_time(time_t t)
{
	char buf[32];

	return t ? json_object_new_string(iso_str(buf, t)) : NULL;
}

static struct json_object *rec_json(const struct host_rec *r)
{
	struct json_object *o = json_object_new_object();
	char a[64];

	json_object_object_add(
		o, "side", json_object_new_string(r->side ? "left" : "right"));
	json_object_object_add(o, "host", json_object_new_string(host_text(r)));
	json_object_object_add(
		o, "family",
		json_object_new_string(r->family == AF_INET  ? "ipv4" :
				       r->family == AF_INET6 ? "ipv6" :
							       "any"));
	json_object_object_add(o, "addr",
			       r->addr.family ?
				       json_object_new_string(addr_str(
					       &r->addr, a, sizeof(a))) :
				       NULL);
	json_object_object_add(o, "resolved_at", iso_time(r->at));
	json_object_object_add(o, "error",
			       r->at && r->rc ? json_object_new_string(r->why) :
						NULL);
	json_object_object_add(o, "resolving",
			       json_object_new_boolean(r->pending));
	json_object_object_add(o, "lookups",
			       json_object_new_int((int)r->lookups));
	return o;
}

struct json_object *ike_engine_hosts(const struct ike_engine *e,
				     const char *conn)
{
	struct json_object *a = json_object_new_array();

	for (int side = 1; e && side >= 0; side--) {
		const struct host_rec *r = host_find(e, conn, side);

		if (r)
			json_object_array_add(a, rec_json(r));
	}
	return a;
}

/* "      right=east.test: 192.0.2.2 at 2026-...Z (resolving)" */
static void rec_text(FILE *f, const struct host_rec *r)
{
	const char *err = r->at && r->rc ? r->why : NULL;
	char a[64], at[32];

	fprintf(f, "      %s=%s: ", r->side ? "left" : "right", host_text(r));
	if (err)
		fputs(err, f);
	if (r->addr.family)
		fprintf(f, "%s%s", err ? ", last address " : "",
			addr_str(&r->addr, a, sizeof(a)));
	if (r->at)
		fprintf(f, " at %s", iso_str(at, r->at));
	if (!err && !r->addr.family)
		fputs("not resolved yet", f);
	if (r->pending)
		fputs(" (resolving)", f);
	fputc('\n', f);
}

void ike_engine_hosts_text(const struct ike_engine *e, const char *conn,
			   FILE *f)
{
	for (int side = 1; e && side >= 0; side--) {
		const struct host_rec *r = host_find(e, conn, side);

		if (r)
			rec_text(f, r);
	}
}

/* The names sa's ends were started on: NULL for an address. */
static void sa_hosts(const struct ike_sa *sa, const char **local,
		     const char **remote)
{
	*local = *remote = NULL;
	for (int side = 1; side >= 0; side--) {
		const struct host_rec *r = host_find(sa->e, sa->conn, side);
		bool mine;

		if (!r)
			continue;
		/* a responder's view is not kept: its own address tells */
		mine = sa->view_side >= 0 ?
			       sa->view_side == side :
			       ike_addr_equal(&r->addr, &sa->path.local);
		*(mine ? local : remote) = host_text(r);
	}
}

/* "remote_host": "east.example", "local_host": "%defaultroute" */
void hosts_put_sa(struct json_object *o, const struct ike_sa *sa)
{
	const char *l, *r;

	sa_hosts(sa, &l, &r);
	if (l)
		json_object_object_add(o, "local_host",
				       json_object_new_string(l));
	if (r)
		json_object_object_add(o, "remote_host",
				       json_object_new_string(r));
	if (l || r)
		json_object_object_add(o, "resolved_at",
				       iso_time(sa->resolved_at));
}

/* "    dns    remote east.example (resolved 2026-...Z)" */
void hosts_text_sa(FILE *f, const struct ike_sa *sa)
{
	const char *l, *r, *at;
	char buf[32];

	sa_hosts(sa, &l, &r);
	if (!l && !r)
		return;
	at = iso_str(buf, sa->resolved_at);
	fputs("    dns   ", f);
	if (l)
		fprintf(f, " local %s", l);
	if (r)
		fprintf(f, " remote %s", r);
	fprintf(f, " (%s%s)\n", at ? "resolved " : "resolving", at ? at : "");
}
