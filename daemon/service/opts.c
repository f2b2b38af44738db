// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "build-config.h"
#include "crypto/nssdb.h"
#include "log/log.h"
#include "service/opts.h"

enum {
	OPT_SYSLOG = 256,
	OPT_LOG_LEVEL,
	OPT_DEBUG_PRIVATE,
	OPT_CTLSOCKET,
	OPT_LSW_PATHS,
	OPT_STDERRLOG,
};

static const struct option long_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "secrets", required_argument, NULL, 's' },
	{ "rundir", required_argument, NULL, 'r' },
	{ "ctlsocket", required_argument, NULL, OPT_CTLSOCKET },
	{ "libreswan-paths", no_argument, NULL, OPT_LSW_PATHS },
	/* pluto's spellings */
	{ "secretsfile", required_argument, NULL, 's' },
	{ "stderrlog", no_argument, NULL, OPT_STDERRLOG },
	{ "plugindir", required_argument, NULL, 'p' },
	{ "nssdir", required_argument, NULL, 'N' },
	{ "nofork", no_argument, NULL, 'n' },
	{ "debug", no_argument, NULL, 'd' },
	{ "log-level", required_argument, NULL, OPT_LOG_LEVEL },
	{ "debug-private", no_argument, NULL, OPT_DEBUG_PRIVATE },
	{ "syslog", no_argument, NULL, OPT_SYSLOG },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [OPTIONS]\n"
		"IKEv2 keying daemon.\n\n"
		"  -c, --config FILE     configuration (default %s)\n"
		"  -s, --secrets FILE    secrets (default ikebana.secrets next to\n"
		"                        the configuration, if it exists)\n"
		"  -r, --rundir DIR      pid file and control socket (default %s)\n"
		"      --libreswan-paths libreswan's: /etc/ipsec.conf, /etc/ipsec.secrets\n"
		"                        (loaded, with a warning, when others can\n"
		"                        read it), /var/lib/ipsec/nss, /run/pluto,\n"
		"                        /run/pluto/pluto.ctl (the default when run\n"
		"                        as pluto); --secretsfile and --stderrlog\n"
		"                        are taken as pluto's\n"
		"      --ctlsocket PATH  the control socket there instead of\n"
		"                        RUNDIR/ikebana.ctl (pluto's option:\n"
		"                        /run/pluto/pluto.ctl for the ipsec command)\n"
		"  -p, --plugindir DIR   where plugins are loaded from\n"
		"  -N, --nssdir DIR      the NSS database of certificates and\n"
		"                        keys (default: nssdir=, else %s)\n"
		"  -n, --nofork          stay in the foreground, log to stderr\n"
		"  -d, --debug           same as --log-level debug\n"
		"      --log-level LEVEL err, warning, notice, info or debug\n"
		"      --syslog          log to syslog even with --nofork\n"
		"      --debug-private   log Child SA keys at debug level and\n"
		"                        allow status --private (tests only)\n"
		"  -V, --version         print the version and exit\n"
		"  -h, --help            print this help and exit\n",
		prog, IKB_DEFAULT_CONFIG, IKB_DEFAULT_RUNDIR, NSSDB_DEFAULT_DIR);
}

/* Relative paths are made absolute against the starting directory. */
static int set_path(char *dst, const char *src, const char *what, FILE *err)
{
	char cwd[PATH_MAX];
	int n;

	if (!*src) {
		fprintf(err, "ikebanad: %s: empty path\n", what);
		return -1;
	}
	if (src[0] == '/') {
		n = snprintf(dst, PATH_MAX, "%s", src);
	} else {
		if (!getcwd(cwd, sizeof(cwd))) {
			fprintf(err, "ikebanad: cannot resolve %s: %m\n", src);
			return -1;
		}
		n = snprintf(dst, PATH_MAX, "%s/%s", cwd, src);
	}
	if (n < 0 || n >= PATH_MAX) {
		fprintf(err, "ikebanad: %s: path too long\n", what);
		return -1;
	}
	return 0;
}

static void default_secrets(struct daemon_opts *o)
{
	const char *slash = strrchr(o->config, '/');
	int dirlen = (int)(slash - o->config);

	/* config is absolute, so slash is never NULL. */
	snprintf(o->secrets, sizeof(o->secrets), "%.*s/ikebana.secrets", dirlen,
		 o->config);
}

static int parse_one(struct daemon_opts *o, int c, const char *arg, FILE *err)
{
	switch (c) {
	case 'c':
		return set_path(o->config, arg, "--config", err);
	case 's':
		o->secrets_given = true;
		return set_path(o->secrets, arg, "--secrets", err);
	case 'r':
		return set_path(o->rundir, arg, "--rundir", err);
	case 'p':
		return set_path(o->plugindir, arg, "--plugindir", err);
	case OPT_LSW_PATHS: /* applied before the others: lsw_defaults() */
	case OPT_STDERRLOG: /* --nofork logs to stderr already */
		return 0;
	case OPT_CTLSOCKET:
		if (*arg == '/' && strlen(arg) < sizeof(o->ctlsocket)) {
			snprintf(o->ctlsocket, sizeof(o->ctlsocket), "%s", arg);
			return 0;
		}
		fprintf(err,
			"ikebanad: --ctlsocket %s: expected an absolute path "
			"of at most %zu characters\n",
			arg, sizeof(o->ctlsocket) - 1);
		return -1;
	case 'N':
		return set_path(o->nssdir, arg, "--nssdir", err);
	case 'n':
		o->nofork = true;
		return 0;
	case 'd':
		o->log_level = IKB_LOG_DEBUG;
		o->log_level_given = true;
		return 0;
	case OPT_SYSLOG:
		o->syslog = true;
		return 0;
	case OPT_DEBUG_PRIVATE:
		o->debug_private = true;
		return 0;
	case OPT_LOG_LEVEL:
		o->log_level = log_level_parse(arg);
		o->log_level_given = true;
		if (o->log_level >= 0)
			return 0;
		fprintf(err,
			"ikebanad: --log-level %s: expected err, warning, "
			"notice, info or debug\n",
			arg);
		return -1;
	}
	return -1;
}

/* Run as pluto, or given --libreswan-paths anywhere on the line. */
static bool wants_lsw(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');

	if (!strcmp(base ? base + 1 : argv[0], "pluto"))
		return true;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--libreswan-paths"))
			return true;
	return false;
}

/* libreswan's defaults, which the options given may still override */
static void lsw_defaults(struct daemon_opts *o, FILE *err)
{
	o->lsw_paths = true;
	set_path(o->config, "/etc/ipsec.conf", "config", err);
	set_path(o->secrets, "/etc/ipsec.secrets", "secrets", err);
	set_path(o->rundir, "/run/pluto", "rundir", err);
	set_path(o->nssdir, "/var/lib/ipsec/nss", "nssdir", err);
	snprintf(o->ctlsocket, sizeof(o->ctlsocket), "/run/pluto/pluto.ctl");
}

enum opts_result opts_parse(struct daemon_opts *o, int argc, char **argv,
			    FILE *out, FILE *err)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->log_level = IKB_LOG_INFO;
	set_path(o->config, IKB_DEFAULT_CONFIG, "config", err);
	set_path(o->rundir, IKB_DEFAULT_RUNDIR, "rundir", err);
	if (argc > 0 && wants_lsw(argc, argv))
		lsw_defaults(o, err);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:s:r:p:N:ndVh", long_opts,
				NULL)) != -1) {
		if (c == 'h') {
			usage(out, argv[0]);
			return OPTS_EXIT_OK;
		}
		if (c == 'V') {
			fprintf(out, "ikebanad %s\n", IKB_VERSION);
			return OPTS_EXIT_OK;
		}
		if (c == '?' || c == ':') {
			fprintf(err, "ikebanad: %s: %s\n", argv[optind - 1],
				c == ':' ? "missing argument" :
					   "unknown option");
			usage(err, argv[0]);
			return OPTS_EXIT_USAGE;
		}
		if (parse_one(o, c, optarg, err) < 0)
			return OPTS_EXIT_USAGE;
	}
	if (optind < argc) {
		fprintf(err, "ikebanad: unexpected argument '%s'\n",
			argv[optind]);
		usage(err, argv[0]);
		return OPTS_EXIT_USAGE;
	}
	if (!o->secrets_given && !o->lsw_paths)
		default_secrets(o);
	return OPTS_RUN;
}

const char *opts_secrets(const struct daemon_opts *o)
{
	if (o->secrets_given || access(o->secrets, F_OK) == 0)
		return o->secrets;
	return NULL;
}
