// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana [--rundir DIR] COMMAND [ARGS]. The subcommand table is the single
 * source of the usage text.
 */
#include <stdio.h>
#include <string.h>

#include "build-config.h"
#include "cli/cli.h"

static const struct {
	const char *name;
	int (*fn)(const struct cli *c, int argc, char **argv);
	const char *args;
	const char *description;
} subcommands[] = {
	{ "status", status_main, "[--json] [--private]",
	  "Show the daemon, its plugins, connections and IKE SAs" },
	{ "trafficstatus", trafficstatus_main, "[--json] [CONN]",
	  "Show bytes, packets and idle time of each Child SA" },
	{ "explain", explain_main, "[--json] CONN",
	  "Say why CONN's last negotiation failed and what to change" },
	{ "metrics", metrics_main, "",
	  "Print the daemon's metrics for Prometheus (text format)" },
	{ "up", up_main, "[--no-wait] CONN",
	  "Initiate CONN; wait for its IKE SA and Child SA, or say why not" },
	{ "down", down_main, "CONN",
	  "Delete the IKE SAs of CONN and their Child SAs (a trap stays)" },
	{ "route", route_main, "CONN",
	  "Install the trap (auto=route) or shunt (type=) of CONN" },
	{ "unroute", unroute_main, "CONN",
	  "Remove the trap or shunt of CONN from the kernel" },
	{ "reload", reload_main, "",
	  "Reload the configuration; print the errors if it fails" },
	{ "checkconfig", checkconfig_main,
	  "[--json] [--secrets FILE] [--plugindir DIR] [--nssdir DIR] FILE",
	  "Check a configuration without a daemon" },
	{ "listcerts", listcerts_main, "[--nssdir DIR] [--json]",
	  "List the certificates of an NSS database, without a daemon" },
	{ "import", import_main,
	  "[--nssdir DIR] [--ca] [--nickname NICK] [--password-file F] FILE",
	  "Import a PKCS#12, PEM or CA certificate file into the database" },
	{ "version", version_main, "", "Show the client and daemon versions" },
};

#define NSUB (sizeof(subcommands) / sizeof(subcommands[0]))

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [--rundir DIR | --ctlsocket PATH] COMMAND [ARGS]\n"
		"Control ikebanad, the IKEv2 keying daemon.\n\n"
		"  --rundir DIR   the daemon's run directory (default %s)\n"
		"  --ctlsocket PATH  the daemon's control socket, for ikebanad\n"
		"                 --ctlsocket (/run/pluto/pluto.ctl: --libreswan-paths)\n\n"
		"Commands:\n",
		prog, IKB_DEFAULT_RUNDIR);
	for (size_t i = 0; i < NSUB; i++)
		fprintf(f, "  %-13s %s\n", subcommands[i].name,
			subcommands[i].description);
	fprintf(f, "\nArguments:\n");
	for (size_t i = 0; i < NSUB; i++)
		if (subcommands[i].args[0])
			fprintf(f, "  %s %s %s\n", prog, subcommands[i].name,
				subcommands[i].args);
}

static int is_help(const char *s)
{
	return !strcmp(s, "--help") || !strcmp(s, "-h") || !strcmp(s, "help");
}

int main(int argc, char **argv)
{
	struct cli c = { .prog = "ikebana", .rundir = IKB_DEFAULT_RUNDIR };
	int i = 1;

	while (i < argc && argv[i][0] == '-' && !is_help(argv[i])) {
		if (!strcmp(argv[i], "--version")) {
			printf("ikebana %s\n", IKB_VERSION);
			return CLI_OK;
		}
		if (!strcmp(argv[i], "--rundir") && i + 1 < argc) {
			c.rundir = argv[i + 1];
			i += 2;
		} else if (!strncmp(argv[i], "--rundir=", 9)) {
			c.rundir = argv[i] + 9;
			i++;
		} else if (!strcmp(argv[i], "--ctlsocket") && i + 1 < argc) {
			c.ctlsocket = argv[i + 1];
			i += 2;
		} else {
			fprintf(stderr, "%s: unknown option '%s'\n", c.prog,
				argv[i]);
			usage(stderr, c.prog);
			return CLI_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr, c.prog);
		return CLI_USAGE;
	}
	if (is_help(argv[i])) {
		usage(stdout, c.prog);
		return CLI_OK;
	}
	for (size_t k = 0; k < NSUB; k++)
		if (!strcmp(argv[i], subcommands[k].name))
			return subcommands[k].fn(&c, argc - i, argv + i);
	fprintf(stderr, "%s: unknown command '%s'\n", c.prog, argv[i]);
	usage(stderr, c.prog);
	return CLI_USAGE;
}
