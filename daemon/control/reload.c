// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reload: load the files again (conf.c, which has the engine take down
 * removed conns and start new auto=start ones); on failure the running
 * configuration stays, and the answer carries every diagnostic line.
 */
#include <json-c/json.h>

#include "app/daemon.h"
#include "config/config.h"
#include "config/diag.h"
#include "control/commands.h"
#include "control/proto.h"

struct json_object *cmd_reload(struct ikbd *d, struct json_object *req)
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
