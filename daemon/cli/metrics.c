// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana metrics: the daemon's series as it writes them (the text
 * format of Prometheus' textfile collector, ending with "# EOF"), for a
 * look by hand or a cron job; metrics-file= writes the same text.
 */
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"

int metrics_main(const struct cli *c, int argc, char **argv)
{
	struct json_object *resp, *data, *text;
	int rc = CLI_FAIL;

	if (cli_no_args(c, argc, argv) < 0)
		return CLI_USAGE;
	resp = cli_call(c, "metrics");
	if (!resp)
		return CLI_FAIL;
	data = cli_response_data(c, resp);
	if (data && json_object_object_get_ex(data, "text", &text) &&
	    json_object_is_type(text, json_type_string)) {
		fwrite(json_object_get_string(text), 1,
		       (size_t)json_object_get_string_len(text), stdout);
		rc = fflush(stdout) ? CLI_FAIL : CLI_OK;
	} else if (data) {
		fprintf(stderr,
			"%s: metrics: malformed response from ikebanad\n",
			c->prog);
	}
	json_object_put(resp);
	return rc;
}
