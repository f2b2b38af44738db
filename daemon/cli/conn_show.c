// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What trafficstatus and explain share: [--json] and one conn name. The
 * text is the daemon's when human is NULL (trafficstatus), else human's
 * rendering of the JSON (explain).
 */
#include <getopt.h>
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"

int cli_conn_show(const struct cli *c, int argc, char **argv, bool need_conn,
		  void (*human)(struct json_object *data))
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' }, { 0 }
	};
	struct json_object *req;
	int json = 0, o, left;

	optind = 1;
	while ((o = getopt_long(argc, argv, "j", opts, NULL)) != -1) {
		if (o != 'j')
			return CLI_USAGE;
		json = 1;
	}
	left = argc - optind;
	if (left > 1) {
		fprintf(stderr, "%s %s: unexpected argument '%s'\n", c->prog,
			argv[0], argv[optind + 1]);
		return CLI_USAGE;
	}
	if (need_conn && left != 1) {
		fprintf(stderr, "Usage: %s %s [--json] %s\n", c->prog, argv[0],
			need_conn ? "CONN" : "[CONN]");
		return CLI_USAGE;
	}
	req = json_object_new_object();
	if (left)
		json_object_object_add(req, "conn",
				       json_object_new_string(argv[optind]));
	if (!json && !human) {
		json_object_object_add(req, "text", json_object_new_boolean(1));
		return cli_call_text(c, argv[0], req);
	}
	return cli_call_show(c, argv[0], req, json, human);
}
