// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana up CONN: starts IKE_SA_INIT and returns; whoever needs the SA
 * established polls `ikebana status` (the exchange may take seconds).
 */
#include "cli/cli.h"

int up_main(const struct cli *c, int argc, char **argv)
{
	return cli_conn_cmd(c, "up", argc, argv);
}
