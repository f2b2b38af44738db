// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana explain [--json] CONN: why CONN's last negotiation failed and
 * what to change, from the daemon's failure records (explain_text.c).
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/explain.h"

static void print_explain(struct json_object *data)
{
	explain_print(stdout, data);
}

int explain_main(const struct cli *c, int argc, char **argv)
{
	return cli_conn_show(c, argc, argv, true, print_explain);
}
