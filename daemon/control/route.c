// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * route {"conn": NAME} and unroute {"conn": NAME}: a conn's trap or shunt
 * into the kernel, or out of it, as libreswan's ipsec route and unroute.
 */
#include <errno.h>
#include <json-c/json.h>

#include "app/daemon.h"
#include "config/config.h"
#include "control/commands.h"
#include "control/proto.h"
#include "ike/ike.h"
#include "log/log.h"

typedef int route_fn(struct ike_engine *e, const char *conn,
		     struct ikb_error *err);

static struct json_object *route_cmd(struct ikbd *d, struct json_object *req,
				     const char *cmd, route_fn *fn,
				     const char *done)
{
	struct json_object *r = NULL;
	const char *conn = req_conn(req, cmd, &r);
	struct ikb_error err = { "" };

	if (!conn)
		return r;
	if (!cfg_conn_find(d->conf.cfg, conn))
		return ctl_response_error("%s: no conn named '%.64s' is loaded",
					  cmd, conn);
	if (fn(d->engine, conn, &err))
		return ctl_response_error("%s: %s", cmd, err.msg);
	log_notice("control: %s %s", cmd, conn);
	return conn_done(conn, done);
}

struct json_object *cmd_route(struct ikbd *d, struct json_object *req)
{
	return route_cmd(d, req, "route", ike_engine_route, "routed");
}

struct json_object *cmd_unroute(struct ikbd *d, struct json_object *req)
{
	return route_cmd(d, req, "unroute", ike_engine_unroute, "unrouted");
}
