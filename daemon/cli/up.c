// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana up [--no-wait] CONN: initiates CONN and waits for the outcome,
 * the IKE SA and its first Child SA established or why not (the peer's
 * refusal, the kernel's message), for at most UP_WAIT_S seconds. A plan
 * with more Child SAs goes on by CREATE_CHILD_SA: see `ikebana status`.
 * --no-wait returns once the exchange is started.
 */
#include <string.h>

#include "cli/cli.h"

/* Below the client's 30 s call timeout; the daemon caps it at 25 s. */
#define UP_WAIT_S 25

int up_main(const struct cli *c, int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--no-wait")) {
		argv[1] = argv[0];
		return cli_conn_cmd(c, "up", argc - 1, argv + 1, 0);
	}
	return cli_conn_cmd(c, "up", argc, argv, UP_WAIT_S);
}
