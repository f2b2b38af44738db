// SPDX-License-Identifier: GPL-2.0-or-later
/* version: the daemon's, which may differ from the client's. */
#include <json-c/json.h>

#include "build-config.h"
#include "control/commands.h"
#include "control/proto.h"

struct json_object *cmd_version(struct ikbd *d, struct json_object *req)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "version",
			       json_object_new_string(IKB_VERSION));
	return ctl_response_ok(o);
}
