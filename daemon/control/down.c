// SPDX-License-Identifier: GPL-2.0-or-later
/* down {"conn": NAME}: delete the conn's IKE SAs with their Child SAs. */
#include <errno.h>
#include <json-c/json.h>

#include "app/daemon.h"
#include "config/config.h"
#include "control/commands.h"
#include "control/proto.h"
#include "ike/ike.h"
#include "log/log.h"

struct json_object *cmd_down(struct ikbd *d, struct json_object *req)
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
