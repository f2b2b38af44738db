// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana trafficstatus [--json] [CONN]: bytes, packets and idle time of
 * each installed Child SA, as the kernel counts them. The daemon writes
 * the text (daemon/control/traffic_text.c).
 */
#include "cli/cli.h"

int trafficstatus_main(const struct cli *c, int argc, char **argv)
{
	return cli_conn_show(c, argc, argv, false, NULL);
}
