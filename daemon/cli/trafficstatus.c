// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana trafficstatus [--json] [CONN]: bytes, packets and idle time of
 * each installed Child SA, as the kernel counts them.
 */
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"

static void print_traffic(struct json_object *data)
{
	traffic_print(stdout, data);
}

int trafficstatus_main(const struct cli *c, int argc, char **argv)
{
	return cli_conn_show(c, argc, argv, false, print_traffic);
}
