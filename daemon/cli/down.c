// SPDX-License-Identifier: GPL-2.0-or-later
/* ikebana down CONN: deletes the conn's IKE SAs and Child SAs. */
#include "cli/cli.h"

int down_main(const struct cli *c, int argc, char **argv)
{
	return cli_conn_cmd(c, "down", argc, argv, 0);
}
