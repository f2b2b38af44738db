// SPDX-License-Identifier: GPL-2.0-or-later
/* ikebana route CONN and unroute CONN: the conn's trap or shunt. */
#include "cli/cli.h"

int route_main(const struct cli *c, int argc, char **argv)
{
	return cli_conn_cmd(c, "route", argc, argv, 0);
}

int unroute_main(const struct cli *c, int argc, char **argv)
{
	return cli_conn_cmd(c, "unroute", argc, argv, 0);
}
