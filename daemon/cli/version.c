// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <json-c/json.h>

#include "build-config.h"
#include "cli/cli.h"

/* The client's version always; the daemon's if it answers (else exit 1). */
int version_main(const struct cli *c, int argc, char **argv)
{
	struct json_object *resp, *data, *v;
	int rc = CLI_FAIL;

	if (cli_no_args(c, argc, argv) < 0)
		return CLI_USAGE;
	printf("ikebana %s\n", IKB_VERSION);
	fflush(stdout);
	resp = cli_call(c, "version");
	if (!resp)
		return CLI_FAIL;
	data = cli_response_data(c, resp);
	if (data && json_object_object_get_ex(data, "version", &v)) {
		printf("ikebanad %s\n", json_object_get_string(v));
		rc = CLI_OK;
	}
	json_object_put(resp);
	return rc;
}
