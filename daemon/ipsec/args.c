// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <string.h>

#include "ipsec/args.h"

static const struct {
	const char *word;
	enum ipsec_verb verb;
} verbs[] = {
	{ "add", IPSEC_ADD },
	{ "replace", IPSEC_REPLACE },
	{ "delete", IPSEC_DELETE },
	{ "start", IPSEC_START },
	{ "up", IPSEC_UP },
	{ "down", IPSEC_DOWN },
	{ "route", IPSEC_ROUTE },
	{ "unroute", IPSEC_UNROUTE },
	{ "ondemand", IPSEC_ONDEMAND },
	{ "rereadsecrets", IPSEC_REREADSECRETS },
	{ "ready", IPSEC_READY },
	{ "status", IPSEC_STATUS },
	{ "trafficstatus", IPSEC_TRAFFICSTATUS },
	{ "showstates", IPSEC_SHOWSTATES },
	{ "checknss", IPSEC_CHECKNSS },
	{ "initnss", IPSEC_INITNSS },
	{ "checkconfig", IPSEC_CHECKCONFIG },
	{ "version", IPSEC_VERSION },
	{ "stop", IPSEC_DAEMON_STOP },
	{ "restart", IPSEC_DAEMON_RESTART },
	{ "help", IPSEC_HELP },
};

#define NVERBS (sizeof(verbs) / sizeof(verbs[0]))

static enum ipsec_verb verb_of(const char *w)
{
	for (size_t i = 0; i < NVERBS; i++)
		if (!strcmp(w, verbs[i].word))
			return verbs[i].verb;
	return IPSEC_NONE;
}

bool ipsec_verb_named(enum ipsec_verb v)
{
	return v == IPSEC_ADD || v == IPSEC_REPLACE || v == IPSEC_DELETE ||
	       v == IPSEC_START || v == IPSEC_UP || v == IPSEC_DOWN ||
	       v == IPSEC_ROUTE || v == IPSEC_UNROUTE || v == IPSEC_ONDEMAND;
}

/* Options with a value: --opt VALUE or --opt=VALUE. 1: taken, 0: not it */
static int valued(int argc, char *const argv[], int *i, const char *opt,
		  const char **out, char *why, size_t len)
{
	size_t n = strlen(opt);
	const char *arg = argv[*i];

	if (!strncmp(arg, opt, n) && arg[n] == '=') {
		*out = arg + n + 1;
	} else if (!strcmp(arg, opt)) {
		if (*i + 1 >= argc) {
			snprintf(why, len, "%s needs a value", opt);
			return -1;
		}
		*out = argv[++*i];
	} else {
		return 0;
	}
	if (!**out) {
		snprintf(why, len, "%s: empty value", opt);
		return -1;
	}
	return 1;
}

static int set_verb(struct ipsec_args *a, enum ipsec_verb v, const char *arg,
		    char *why, size_t len)
{
	if (a->verb != IPSEC_NONE) {
		snprintf(why, len, "'%.64s': one command at a time", arg);
		return -1;
	}
	a->verb = v;
	return 0;
}

static int option(int argc, char *const argv[], int *i, struct ipsec_args *a,
		  char *why, size_t len)
{
	const char *arg = argv[*i];
	enum ipsec_verb v;
	int r;

	if ((r = valued(argc, argv, i, "--config", &a->config, why, len)) ||
	    (r = valued(argc, argv, i, "--ctlsocket", &a->ctlsocket, why,
			len)) ||
	    (r = valued(argc, argv, i, "--nssdir", &a->nssdir, why, len)))
		return r < 0 ? -1 : 0;
	if (!strcmp(arg, "--asynchronous")) {
		a->async = true;
		return 0;
	}
	/* what libreswan prints differently, never what it does */
	if (!strcmp(arg, "--verbose") || !strcmp(arg, "--utc"))
		return 0;
	if (!strcmp(arg, "-h"))
		return set_verb(a, IPSEC_HELP, arg, why, len);
	v = verb_of(arg + 2);
	if (v != IPSEC_NONE)
		return set_verb(a, v, arg, why, len);
	snprintf(why, len, "unknown option '%.64s'", arg);
	return -1;
}

static int word(const char *arg, struct ipsec_args *a, char *why, size_t len)
{
	enum ipsec_verb v = a->verb == IPSEC_NONE ? verb_of(arg) : IPSEC_NONE;

	/* libreswan 4's ipsec auto and ipsec setup, anywhere before the verb */
	if (a->verb == IPSEC_NONE &&
	    (!strcmp(arg, "auto") || !strcmp(arg, "setup")))
		return 0;
	/* the word start: the daemon, or with a name, the conn (add, up) */
	if (a->verb == IPSEC_NONE && !strcmp(arg, "start"))
		return set_verb(a, IPSEC_DAEMON_START, arg, why, len);
	if (a->verb == IPSEC_DAEMON_START && !a->name) {
		a->verb = IPSEC_START;
		a->name = arg;
		return 0;
	}
	if (v != IPSEC_NONE)
		return set_verb(a, v, arg, why, len);
	if (!ipsec_verb_named(a->verb)) {
		snprintf(why, len, "unexpected '%.64s'", arg);
		return -1;
	}
	if (a->name) {
		snprintf(why, len, "one conn at a time ('%.64s', '%.64s')",
			 a->name, arg);
		return -1;
	}
	a->name = arg;
	return 0;
}

int ipsec_args_parse(int argc, char *const argv[], struct ipsec_args *a,
		     char *why, size_t len)
{
	int i = 1;

	memset(a, 0, sizeof(*a));
	for (; i < argc; i++) {
		int r = argv[i][0] == '-' && argv[i][1] ?
				option(argc, argv, &i, a, why, len) :
				word(argv[i], a, why, len);

		if (r < 0)
			return -1;
	}
	if (a->verb == IPSEC_NONE) {
		snprintf(why, len, "no command");
		return -1;
	}
	if (ipsec_verb_named(a->verb) && !a->name) {
		snprintf(why, len, "this command needs a conn name");
		return -1;
	}
	if (a->config && !strcmp(a->config, "-") && a->verb != IPSEC_ADD &&
	    a->verb != IPSEC_REPLACE && a->verb != IPSEC_START &&
	    a->verb != IPSEC_ONDEMAND) {
		snprintf(why, len, "--config - (standard input) is for add, "
				   "replace, start and ondemand");
		return -1;
	}
	if (a->nssdir && a->verb != IPSEC_CHECKNSS &&
	    a->verb != IPSEC_INITNSS && a->verb != IPSEC_CHECKCONFIG) {
		snprintf(why, len,
			 "--nssdir is for checknss, initnss and checkconfig");
		return -1;
	}
	return 0;
}
