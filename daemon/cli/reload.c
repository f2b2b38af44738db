// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"

static void print_lines(struct json_object *o, const char *key, FILE *f)
{
	struct json_object *a;

	if (!json_object_object_get_ex(o, key, &a) ||
	    !json_object_is_type(a, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(a); i++)
		fprintf(f, "%s\n",
			json_object_get_string(
				json_object_array_get_idx(a, i)));
}

int reload_main(const struct cli *c, int argc, char **argv)
{
	struct json_object *resp, *data, *n = NULL;
	int rc = CLI_FAIL;

	if (cli_no_args(c, argc, argv) < 0)
		return CLI_USAGE;
	resp = cli_call(c, "reload");
	if (!resp)
		return CLI_FAIL;
	/* On failure: every FILE:LINE line first, then the summary. */
	print_lines(resp, "diag", stderr);
	data = cli_response_data(c, resp);
	if (data) {
		print_lines(data, "warnings", stderr);
		json_object_object_get_ex(data, "conns", &n);
		printf("reloaded: %d conn(s)\n", json_object_get_int(n));
		rc = CLI_OK;
	}
	json_object_put(resp);
	return rc;
}
