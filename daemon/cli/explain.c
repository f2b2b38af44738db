// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana explain [--json] CONN: why CONN's last negotiation failed and
 * what to change, from the daemon's failure records (explain_text.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"
#include "cli/explain.h"

static void print_explain(struct json_object *data)
{
	explain_print(stdout, data);
}

int explain_main(const struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' }, { 0 }
	};
	struct json_object *req;
	int json = 0, o;

	optind = 1;
	while ((o = getopt_long(argc, argv, "j", opts, NULL)) != -1) {
		if (o != 'j')
			return CLI_USAGE;
		json = 1;
	}
	if (argc - optind != 1) {
		fprintf(stderr, "Usage: %s explain [--json] CONN\n", c->prog);
		return CLI_USAGE;
	}
	req = json_object_new_object();
	json_object_object_add(req, "conn",
			       json_object_new_string(argv[optind]));
	return cli_call_show(c, "explain", req, json, print_explain);
}
