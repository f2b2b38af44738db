// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * whack's options, libreswan's meanings: the first end's options stand
 * before --to, the second's after it; --psk, --encrypt and the DPD
 * options are the conn's. Every value goes into the conn text as it is,
 * so one that could change the text's meaning (white space, quotes, #)
 * is refused rather than quoted.
 */
#include <stdio.h>
#include <string.h>

#include "ipsec/whack.h"

struct end {
	const char *id, *host, *client, *ikeport;
};

struct def {
	struct end end[2];
	int side; /* 0 before --to, 1 after */
	bool to;
	const char *authby, *encaps, *dpdaction, *dpddelay, *dpdtimeout;
	const char *ike, *esp, *family;
	bool any; /* a conn option was given */
};

struct ctx {
	struct whack_args *w;
	struct def d;
	char *why;
	size_t len;
};

static const struct {
	const char *opt;
	unsigned op;
} flags[] = {
	{ "--delete", WHACK_DELETE },
	{ "--route", WHACK_ROUTE },
	{ "--initiate", WHACK_INITIATE },
	{ "--terminate", WHACK_TERMINATE },
	{ "--unroute", WHACK_UNROUTE },
	{ "--rereadsecrets", WHACK_REREADSECRETS },
	{ "--listen", WHACK_LISTEN },
	{ "--status", WHACK_STATUS },
	{ "--trafficstatus", WHACK_TRAFFICSTATUS },
	{ "--showstates", WHACK_SHOWSTATES },
	{ "--shutdown", WHACK_SHUTDOWN },
};

static bool value_ok(struct ctx *c, const char *opt, const char *v)
{
	if (!*v) {
		snprintf(c->why, c->len, "%s: empty value", opt);
		return false;
	}
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == '"' || *p == '#' ||
		    *p == '\\' || (unsigned char)*p == 0x7f) {
			snprintf(c->why, c->len,
				 "%s %.64s: white space, quotes, # and \\ are "
				 "not taken in a value",
				 opt, v);
			return false;
		}
	return true;
}

/* The value of opt at argv[*i] (--opt=V or --opt V); NULL: not opt. */
static const char *valued(int argc, char *const argv[], int *i,
			  const char *opt, bool *err, struct ctx *c)
{
	size_t n = strlen(opt);
	const char *a = argv[*i], *v;

	if (!strncmp(a, opt, n) && a[n] == '=')
		v = a + n + 1;
	else if (!strcmp(a, opt) && *i + 1 < argc)
		v = argv[++*i];
	else if (!strcmp(a, opt)) {
		snprintf(c->why, c->len, "%s needs a value", opt);
		*err = true;
		return NULL;
	} else
		return NULL;
	if (!value_ok(c, opt, v)) {
		*err = true;
		return NULL;
	}
	return v;
}

/* Options with a value: where each goes. 1 taken, 0 not one, -1 error. */
static int value_opt(int argc, char *const argv[], int *i, struct ctx *c)
{
	struct end *e = &c->d.end[c->d.side];
	const struct {
		const char *opt;
		const char **to;
		bool conn; /* defines a conn (not --name, --ctlsocket) */
	} vals[] = {
		{ "--name", &c->w->name, false },
		{ "--ctlsocket", &c->w->ctlsocket, false },
		{ "--id", &e->id, true },
		{ "--host", &e->host, true },
		{ "--client", &e->client, true },
		{ "--ikeport", &e->ikeport, true },
		{ "--encaps", &c->d.encaps, true },
		{ "--dpdaction", &c->d.dpdaction, true },
		{ "--dpddelay", &c->d.dpddelay, true },
		{ "--dpdtimeout", &c->d.dpdtimeout, true },
		{ "--ike", &c->d.ike, true },
		{ "--esp", &c->d.esp, true },
		{ "--debug", NULL, false }, /* log detail only */
	};
	bool err = false;

	for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
		const char *v = valued(argc, argv, i, vals[k].opt, &err, c);

		if (err)
			return -1;
		if (!v)
			continue;
		if (vals[k].to)
			*vals[k].to = v;
		c->d.any |= vals[k].conn;
		return 1;
	}
	return 0;
}

static int flag_opt(const char *a, struct ctx *c)
{
	for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
		if (!strcmp(a, flags[k].opt)) {
			c->w->ops |= flags[k].op;
			return 1;
		}
	if (!strcmp(a, "--asynchronous")) {
		c->w->async = true;
	} else if (!strcmp(a, "--psk")) {
		c->d.authby = "secret";
	} else if (!strcmp(a, "--rsasig")) {
		c->d.authby = "rsasig";
	} else if (!strcmp(a, "--forceencaps")) {
		c->d.encaps = "yes";
	} else if (!strcmp(a, "--ipv4") || !strcmp(a, "--ipv6")) {
		c->d.family = a + 2;
	} else if (!strcmp(a, "--to")) {
		if (c->d.to) {
			snprintf(c->why, c->len, "whack: --to twice");
			return -1;
		}
		c->d.to = true;
		c->d.side = 1;
	} else if (strcmp(a, "--encrypt")) { /* ESP: the only kind */
		return 0;
	}
	c->d.any |= strcmp(a, "--asynchronous") != 0;
	return 1;
}

static void put(char **p, size_t *left, const char *key, const char *v)
{
	int n;

	if (!v)
		return;
	n = snprintf(*p, *left, "\t%s=%s\n", key, v);
	if (n < 0 || (size_t)n >= *left) {
		*left = 0;
		return;
	}
	*p += n;
	*left -= (size_t)n;
}

static void put_end(char **p, size_t *left, const char *side,
		    const struct end *e)
{
	char key[32];

	put(p, left, side, e->host);
	snprintf(key, sizeof(key), "%sid", side);
	put(p, left, key, e->id);
	snprintf(key, sizeof(key), "%ssubnet", side);
	put(p, left, key, e->client);
	snprintf(key, sizeof(key), "%sikeport", side);
	put(p, left, key, e->ikeport);
}

static int conn_text(struct ctx *c)
{
	const struct def *d = &c->d;
	char *p = c->w->conn;
	size_t left = sizeof(c->w->conn);
	int n;

	if (!c->w->name || !d->to || !d->end[0].host || !d->end[1].host) {
		snprintf(c->why, c->len,
			 "a conn on the command line needs --name, --host, "
			 "--to and --host");
		return -1;
	}
	n = snprintf(p, left, "conn %s\n", c->w->name);
	p += n;
	left -= (size_t)n;
	put(&p, &left, "authby", d->authby);
	put_end(&p, &left, "left", &d->end[0]);
	put_end(&p, &left, "right", &d->end[1]);
	put(&p, &left, "hostaddrfamily", d->family);
	put(&p, &left, "encapsulation", d->encaps);
	put(&p, &left, "dpdaction", d->dpdaction);
	put(&p, &left, "dpddelay", d->dpddelay);
	put(&p, &left, "dpdtimeout", d->dpdtimeout);
	put(&p, &left, "ike", d->ike);
	put(&p, &left, "esp", d->esp);
	put(&p, &left, "auto", "add"); /* --route, --initiate: their own */
	if (!left) {
		snprintf(c->why, c->len, "the conn is longer than %d bytes",
			 WHACK_CONN_TEXT_MAX);
		return -1;
	}
	c->w->ops |= WHACK_ADD;
	return 0;
}

int whack_parse(int argc, char *const argv[], struct whack_args *w,
		char *why, size_t len)
{
	struct ctx c = { .w = w, .why = why, .len = len };

	memset(w, 0, sizeof(*w));
	why[0] = '\0';
	for (int i = 1; i < argc; i++) {
		int r = value_opt(argc, argv, &i, &c);

		if (r == 0)
			r = flag_opt(argv[i], &c);
		if (r < 0)
			return -1;
		if (r == 0) {
			snprintf(why, len, "whack: unknown or unsupported "
					   "option '%.64s'",
				 argv[i]);
			return -1;
		}
	}
	if (c.d.any && conn_text(&c) < 0)
		return -1;
	if ((w->ops & (WHACK_DELETE | WHACK_ROUTE | WHACK_INITIATE |
		       WHACK_TERMINATE | WHACK_UNROUTE)) &&
	    !w->name) {
		snprintf(why, len, "whack: that needs --name");
		return -1;
	}
	if (!w->ops) {
		snprintf(why, len, "whack: nothing to do");
		return -1;
	}
	return 0;
}
