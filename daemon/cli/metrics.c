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
	if (cli_no_args(c, argc, argv) < 0)
		return CLI_USAGE;
	return cli_call_text(c, "metrics", json_object_new_object());
}
