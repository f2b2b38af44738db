// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What is shown of the routes (route.h): each conn that has one, whether
 * one has, and the routes for status. trap.c makes and removes them.
 */
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "ike/engine.h"
#include "ike/msg/msg.h"
#include "ike/route/route.h"
#include "ike/route/trap_int.h"
#include "util/json.h"

const char *trap_action_name(enum ikb_policy_action a)
{
	return a == IKB_POLICY_PASS  ? "passthrough" :
	       a == IKB_POLICY_BLOCK ? "drop" :
				       "trap";
}

void trap_each_route(const struct ike_engine *e,
		     void (*fn)(const char *conn, void *arg), void *arg)
{
	for (struct ike_route *r = e->traps ? e->traps->head : NULL; r;
	     r = r->next)
		fn(r->conn, arg);
}

bool trap_routed(const struct ike_engine *e, const char *conn)
{
	for (struct ike_route *r = e->traps ? e->traps->head : NULL; r;
	     r = r->next)
		if (!strcmp(r->conn, conn))
			return true;
	return false;
}

struct json_object *traps_status(const struct ike_engine *e)
{
	struct json_object *a = json_object_new_array();
	char s[64], d[64], sel[160];

	for (struct ike_route *r = e->traps ? e->traps->head : NULL; r;
	     r = r->next) {
		struct json_object *o = json_object_new_object();

		json_put_str(o, "conn", r->conn);
		if (r->group || r->inst)
			json_put_str(o, "opportunistic",
				     r->group ? "group" : "instance");
		json_put_str(o, "kind",
			     r->kind == IKB_POLICY_IPSEC ? "trap" : "shunt");
		json_put_str(o, "action", trap_action_name(r->out_now));
		snprintf(sel, sizeof(sel), "%s/%u === %s/%u",
			 addr_str(&r->sel.src, s, sizeof(s)), r->sel.src_plen,
			 addr_str(&r->sel.dst, d, sizeof(d)), r->sel.dst_plen);
		json_put_str(o, "selectors", sel);
		json_object_object_add(o, "reqid",
				       json_object_new_int64(r->reqid));
		json_object_object_add(o, "policies",
				       json_object_new_int64(r->npol));
		json_object_object_add(
			o, "acquires",
			json_object_new_int64((int64_t)r->acquires));
		json_object_array_add(a, o);
	}
	return a;
}
