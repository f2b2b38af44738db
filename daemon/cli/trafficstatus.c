// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana trafficstatus [--json] [CONN]: bytes, packets and idle time of
 * each installed Child SA, as the kernel counts them.
 */
#include <getopt.h>
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"

static void print_traffic(struct json_object *data)
{
	traffic_print(stdout, data);
}

int trafficstatus_main(const struct cli *c, int argc, char **argv)
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
	if (argc - optind > 1) {
		fprintf(stderr, "%s trafficstatus: unexpected argument '%s'\n",
			c->prog, argv[optind + 1]);
		return CLI_USAGE;
	}
	req = json_object_new_object();
	if (optind < argc)
		json_object_object_add(req, "conn",
				       json_object_new_string(argv[optind]));
	return cli_call_show(c, "trafficstatus", req, json, print_traffic);
}
