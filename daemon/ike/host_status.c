// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Status of the hosts that are names or %defaultroute: per conn what
 * each resolved to and when, or why not; per IKE SA the name of its peer
 * (and of its own end) and when the answer it was started on came.
 */
#include <time.h>
#include <json-c/json.h>

#include "ike/conn.h"
#include "ike/engine.h"
#include "ike/host.h"
#include "ike/msg.h"

static struct json_object *iso_time(time_t t)
{
	char buf[32];
	struct tm tm;

	if (!t)
		return NULL;
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_object_new_string(buf);
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

/* "remote_host": "east.example", "local_host": "%defaultroute" */
void hosts_put_sa(struct json_object *o, const struct ike_sa *sa)
{
	bool any = false;

	for (int side = 1; side >= 0; side--) {
		const struct host_rec *r = host_find(sa->e, sa->conn, side);
		bool local;

		if (!r)
			continue;
		/* a responder's view is not kept: its own address tells */
		local = sa->view_side >= 0 ?
				sa->view_side == side :
				ike_addr_equal(&r->addr, &sa->path.local);
		json_object_object_add(o, local ? "local_host" : "remote_host",
				       json_object_new_string(host_text(r)));
		any = true;
	}
	if (any)
		json_object_object_add(o, "resolved_at",
				       iso_time(sa->resolved_at));
}
