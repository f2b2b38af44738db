// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana status [--json] [--private]: the text is the daemon's
 * (daemon/control/status_text.c), written as it comes; --json is the
 * whole status object.
 */
#include <getopt.h>
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"

static void no_human(struct json_object *data)
{
}

int status_main(const struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "private", no_argument, NULL, 'p' },
		{ 0 }
	};
	struct json_object *req = json_object_new_object();
	int json = 0, o;

	optind = 1;
	while ((o = getopt_long(argc, argv, "jp", opts, NULL)) != -1) {
		if (o == 'j') {
			json = 1;
		} else if (o == 'p') {
			json_object_object_add(req, "private",
					       json_object_new_boolean(1));
		} else {
			json_object_put(req);
			return CLI_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s status: unexpected argument '%s'\n",
			c->prog, argv[optind]);
		json_object_put(req);
		return CLI_USAGE;
	}
	if (!json) {
		json_object_object_add(req, "text", json_object_new_boolean(1));
		return cli_call_text(c, "status", req);
	}
	return cli_call_show(c, "status", req, true, no_human);
}
