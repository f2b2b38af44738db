// SPDX-License-Identifier: GPL-2.0-or-later
/* What up and down share: one conn name in, one line out. */
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"

int cli_conn_cmd(const struct cli *c, const char *cmd, int argc, char **argv,
		 unsigned wait)
{
	struct json_object *req, *resp, *data, *v;
	int rc = CLI_FAIL;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "Usage: %s %s%s CONN\n", c->prog, cmd,
			wait ? " [--no-wait]" : "");
		return CLI_USAGE;
	}
	req = json_object_new_object();
	json_object_object_add(req, "conn", json_object_new_string(argv[1]));
	if (wait)
		json_object_object_add(req, "wait",
				       json_object_new_int((int)wait));
	resp = cli_call_req(c, cmd, req);
	if (!resp)
		return CLI_FAIL;
	data = cli_response_data(c, resp);
	if (data) {
		json_object_object_get_ex(data, "result", &v);
		printf("%s: %s\n", argv[1],
		       v ? json_object_get_string(v) : "ok");
		rc = CLI_OK;
	}
	json_object_put(resp);
	return rc;
}
