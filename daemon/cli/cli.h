/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ikebana client: one file per subcommand, dispatched from main.c. */
#ifndef IKB_CLI_H
#define IKB_CLI_H

#include <stdbool.h>
#include <stdio.h>

struct json_object;

struct cli {
	const char *prog;
	const char *rundir;
	const char *ctlsocket; /* NULL: RUNDIR/ikebana.ctl (the ipsec command) */
};

/* Exit codes: also in ikebana(8). */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Each gets argv[0] = the subcommand's name. */
int status_main(const struct cli *c, int argc, char **argv);
int reload_main(const struct cli *c, int argc, char **argv);
int version_main(const struct cli *c, int argc, char **argv);
int checkconfig_main(const struct cli *c, int argc, char **argv);
int up_main(const struct cli *c, int argc, char **argv);
int down_main(const struct cli *c, int argc, char **argv);
int route_main(const struct cli *c, int argc, char **argv);
int unroute_main(const struct cli *c, int argc, char **argv);
int trafficstatus_main(const struct cli *c, int argc, char **argv);
int metrics_main(const struct cli *c, int argc, char **argv);
int explain_main(const struct cli *c, int argc, char **argv);
/* listcerts.c, import.c: the NSS database, without a daemon. */
int listcerts_main(const struct cli *c, int argc, char **argv);
int import_main(const struct cli *c, int argc, char **argv);
/*
 * conn_cmd.c: the one-conn request both send; the exit code. wait > 0:
 * the daemon answers with the outcome, within wait seconds (up).
 */
int cli_conn_cmd(const struct cli *c, const char *cmd, int argc, char **argv,
		 unsigned wait);

/*
 * call.c: send {"cmd": cmd} and return the response (the caller puts it).
 * NULL when the daemon cannot be reached; the reason is already printed.
 */
struct json_object *cli_call(const struct cli *c, const char *cmd);
/* The same with more request members in req (consumed, even on error). */
struct json_object *cli_call_req(const struct cli *c, const char *cmd,
				 struct json_object *req);
/* The "data" of an ok response; else prints its error and returns NULL. */
struct json_object *cli_response_data(const struct cli *c,
				      struct json_object *resp);
/*
 * Sends cmd with req (consumed) and prints the answer's data: as pretty
 * JSON with json, else through human. Returns CLI_OK, or CLI_FAIL after
 * printing why. The last thing a subcommand does: the answer is left
 * for exit to free (call.c).
 */
int cli_call_show(const struct cli *c, const char *cmd, struct json_object *req,
		  bool json, void (*human)(struct json_object *data));
/*
 * Sends cmd with req (consumed) and writes the answer's {"text": ...}
 * as it is, for the views the daemon renders (metrics, status).
 * CLI_OK, or CLI_FAIL after printing why.
 */
int cli_call_text(const struct cli *c, const char *cmd,
		  struct json_object *req);
/*
 * conn_show.c: `CMD [--json] [CONN]` (CONN required with need_conn):
 * sends argv[0] with {"conn": CONN} when given and shows the answer:
 * with --json as JSON, else through human, or human NULL, the daemon's
 * text ({"text": true}).
 */
int cli_conn_show(const struct cli *c, int argc, char **argv, bool need_conn,
		  void (*human)(struct json_object *data));
/* For subcommands that take no arguments. */
int cli_no_args(const struct cli *c, int argc, char **argv);

/* nssdir_default.c: nssdir= of the default configuration, else the default. */
const char *cli_default_nssdir(char *buf, size_t cap);

#endif
