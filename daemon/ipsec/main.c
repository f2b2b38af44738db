// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ipsec: libreswan's command for the tools that drive it (ovs-monitor-ipsec,
 * Submariner, NetworkManager-libreswan), over ikebanad's control socket.
 * Its answers keep the shapes those tools parse (status_lsw.c in the
 * engine; trafficstatus here).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "build-config.h"
#include "cli/cli.h"
#include "ipsec/args.h"
#include "ipsec/checkconfig.h"
#include "ipsec/daemon.h"
#include "ipsec/initnss.h"
#include "ipsec/whack.h"

/* libreswan's major version decides a tool's path: 4 is the one we speak */
#define LSW_VERSION "4.10"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ipsec [auto] [--config FILE|-] [--ctlsocket PATH] "
		"[--asynchronous] COMMAND [CONN]\n"
		"libreswan's ipsec command, answered by ikebanad.\n\n"
		"  --add, --replace, --delete, --start, --ondemand CONN\n"
		"  --up, --down, --route, --unroute CONN\n"
		"  --rereadsecrets, --ready, --status\n"
		"  status, trafficstatus, showstates, --version\n"
		"  checknss, initnss [--nssdir DIR] (the NSS database, made\n"
		"        if missing; default /var/lib/ipsec/nss)\n"
		"  checkconfig [--config FILE] [--nssdir DIR] (default\n"
		"        /etc/ipsec.conf: silent when good)\n"
		"  start, stop, restart (the daemon; ipsec setup VERB too)\n"
		"  whack [--name N] --route|--initiate|--delete|... and a conn\n"
		"        on the command line (--psk --id --host --client --to ...)\n"
		"(the same as words: ipsec add CONN, ipsec up CONN, ...)\n");
}

/* The rest of standard input; NULL on error (said). */
static char *read_stdin(size_t *len)
{
	size_t cap = 4096, n = 0, r;
	char *buf = malloc(cap), *nb;

	while (buf && (r = fread(buf + n, 1, cap - n - 1, stdin)) > 0) {
		n += r;
		if (n + 1 < cap)
			continue;
		if (cap > (64u << 20) || !(nb = realloc(buf, cap * 2))) {
			fprintf(stderr, "ipsec: standard input: too large\n");
			free(buf);
			return NULL;
		}
		buf = nb;
		cap *= 2;
	}
	if (!buf || ferror(stdin)) {
		fprintf(stderr, "ipsec: cannot read standard input\n");
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* An answer's diagnostic lines (key "diag", or "warnings" of its data). */
static void print_diag_key(struct json_object *resp, const char *key)
{
	struct json_object *d;

	if (!resp || !json_object_object_get_ex(resp, key, &d) ||
	    !json_object_is_type(d, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(d); i++)
		fprintf(stderr, "%s\n", json_object_get_string(
						json_object_array_get_idx(d, i)));
}

static void print_diag(struct json_object *resp)
{
	print_diag_key(resp, "diag");
}

/* Sends cmd {"conn": name} plus req; prints "NAME: RESULT". */
static int conn_call(const struct cli *c, const char *cmd, const char *name,
		     struct json_object *req)
{
	struct json_object *resp, *data, *v;

	if (!req)
		req = json_object_new_object();
	json_object_object_add(req, "conn", json_object_new_string(name));
	resp = cli_call_req(c, cmd, req);
	if (!resp)
		return CLI_FAIL;
	print_diag(resp);
	data = cli_response_data(c, resp);
	if (data) {
		print_diag_key(data, "warnings");
		json_object_object_get_ex(data, "result", &v);
		printf("\"%s\": %s\n", name,
		       v ? json_object_get_string(v) : "done");
	}
	json_object_put(resp);
	return data ? CLI_OK : CLI_FAIL;
}

static int add(const struct cli *c, const struct ipsec_args *a)
{
	struct json_object *req = json_object_new_object();
	char path[PATH_MAX], *text;
	size_t len = 0;

	if (a->config && !strcmp(a->config, "-")) {
		if (!(text = read_stdin(&len))) {
			json_object_put(req);
			return CLI_FAIL;
		}
		json_object_object_add(req, "text",
				       json_object_new_string_len(text, (int)len));
		json_object_object_add(req, "name",
				       json_object_new_string("<stdin>"));
		free(text);
	} else if (a->config) {
		/* the daemon runs elsewhere: an absolute path */
		if (!realpath(a->config, path)) {
			fprintf(stderr, "ipsec: --config %s: %s\n", a->config,
				strerror(errno));
			json_object_put(req);
			return CLI_FAIL;
		}
		json_object_object_add(req, "config",
				       json_object_new_string(path));
	}
	return conn_call(c, "add", a->name, req);
}

static int up(const struct cli *c, const struct ipsec_args *a)
{
	struct json_object *req = json_object_new_object();
	int rc;

	if (!a->async)
		json_object_object_add(req, "wait", json_object_new_int(60));
	json_object_object_add(req, "already_ok", json_object_new_boolean(1));
	rc = conn_call(c, "up", a->name, req);
	/* the words ovs-monitor-ipsec and others look for on stdout */
	if (rc)
		printf("\"%s\": failed to initiate connection\n", a->name);
	return rc;
}

static int lsw_status(const struct cli *c, bool states_only)
{
	struct json_object *req = json_object_new_object(), *resp, *data, *t;
	const char *s, *nl;

	json_object_object_add(req, "format", json_object_new_string("libreswan"));
	resp = cli_call_req(c, "status", req);
	data = resp ? cli_response_data(c, resp) : NULL;
	if (!data || !json_object_object_get_ex(data, "text", &t)) {
		json_object_put(resp);
		return CLI_FAIL;
	}
	for (s = json_object_get_string(t); *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			break;
		if (!states_only || !strncmp(s, "000 #", 5))
			fwrite(s, 1, (size_t)(nl - s + 1), stdout);
	}
	json_object_put(resp);
	return CLI_OK;
}

static long long num(struct json_object *o, const char *path1, const char *k)
{
	struct json_object *v;

	if (path1 && !json_object_object_get_ex(o, path1, &o))
		return 0;
	return json_object_object_get_ex(o, k, &v) ? json_object_get_int64(v) :
						     0;
}

/* whack --trafficstatus's line, whose inBytes=/outBytes= Submariner reads */
static int trafficstatus(const struct cli *c)
{
	struct json_object *resp = cli_call(c, "trafficstatus"), *data, *a, *e,
			   *v;

	data = resp ? cli_response_data(c, resp) : NULL;
	if (!data || !json_object_object_get_ex(data, "child_sas", &a)) {
		json_object_put(resp);
		return CLI_FAIL;
	}
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		e = json_object_array_get_idx(a, i);
		json_object_object_get_ex(e, "conn", &v);
		/* 006: whack's reply code, as libreswan 4 prints it */
		printf("006 #%lld: \"%s\", type=ESP, add_time=%lld, inBytes=%lld, "
		       "outBytes=%lld, maxBytes=2^63B",
		       num(e, NULL, "ike_serial"), json_object_get_string(v),
		       num(e, NULL, "add_time"), num(e, "in", "bytes"),
		       num(e, "out", "bytes"));
		if (json_object_object_get_ex(e, "remote_id", &v) && v)
			printf(", id='%s'", json_object_get_string(v));
		putchar('\n');
	}
	json_object_put(resp);
	return CLI_OK;
}

static int simple(const struct cli *c, const char *cmd)
{
	struct json_object *resp = cli_call(c, cmd);
	int rc;

	if (!resp)
		return CLI_FAIL;
	print_diag(resp);
	rc = cli_response_data(c, resp) ? CLI_OK : CLI_FAIL;
	json_object_put(resp);
	return rc;
}

static int run(const struct cli *c, const struct ipsec_args *a)
{
	int rc;

	switch (a->verb) {
	case IPSEC_ADD:
	case IPSEC_REPLACE:
		return add(c, a);
	case IPSEC_START:
		return (rc = add(c, a)) ? rc : up(c, a);
	case IPSEC_ONDEMAND:
		return (rc = add(c, a)) ? rc : conn_call(c, "route", a->name, NULL);
	case IPSEC_UP:
		return up(c, a);
	case IPSEC_DOWN:
		return conn_call(c, "down", a->name, NULL);
	case IPSEC_DELETE:
		return conn_call(c, "delete", a->name, NULL);
	case IPSEC_ROUTE:
		return conn_call(c, "route", a->name, NULL);
	case IPSEC_UNROUTE:
		return conn_call(c, "unroute", a->name, NULL);
	case IPSEC_REREADSECRETS:
		return simple(c, "rereadsecrets");
	case IPSEC_READY: /* the sockets listen from the start */
		return simple(c, "version");
	case IPSEC_STATUS:
		return lsw_status(c, false);
	case IPSEC_SHOWSTATES:
		return lsw_status(c, true);
	case IPSEC_TRAFFICSTATUS:
		return trafficstatus(c);
	case IPSEC_CHECKNSS:
	case IPSEC_INITNSS:
		return ipsec_nss(a->verb, a->nssdir);
	case IPSEC_CHECKCONFIG:
		return ipsec_checkconfig(c, a->config, a->nssdir);
	case IPSEC_VERSION:
		printf("Libreswan %s (ikebana %s)\n", LSW_VERSION, IKB_VERSION);
		return CLI_OK;
	case IPSEC_HELP:
		usage(stdout);
		return CLI_OK;
	case IPSEC_DAEMON_START:
	case IPSEC_DAEMON_STOP:
	case IPSEC_DAEMON_RESTART:
		return ipsec_daemon(c, a->verb);
	case IPSEC_NONE:
		break;
	}
	return CLI_USAGE;
}

/*
 * pluto's socket where ikebanad runs with libreswan's paths, else
 * ikebana's own (NULL: the run directory's).
 */
static const char *default_socket(void)
{
	return access(IPSEC_LSW_CTLSOCKET, F_OK) == 0 ? IPSEC_LSW_CTLSOCKET :
							 NULL;
}

/* whack's operations, in whack's order */
static int whack_run(const struct cli *c, const struct whack_args *w)
{
	struct json_object *req;
	int rc = CLI_OK;

	if (w->ops & WHACK_DELETE)
		rc |= conn_call(c, "delete", w->name, NULL);
	if (!rc && (w->ops & WHACK_ADD)) {
		req = json_object_new_object();
		json_object_object_add(req, "text", json_object_new_string(w->conn));
		json_object_object_add(req, "name", json_object_new_string("<whack>"));
		rc |= conn_call(c, "add", w->name, req);
	}
	if (!rc && (w->ops & WHACK_ROUTE))
		rc |= conn_call(c, "route", w->name, NULL);
	if (!rc && (w->ops & WHACK_INITIATE)) {
		struct ipsec_args a = { .name = w->name, .async = w->async };

		rc |= up(c, &a);
	}
	if (!rc && (w->ops & WHACK_TERMINATE))
		rc |= conn_call(c, "down", w->name, NULL);
	if (!rc && (w->ops & WHACK_UNROUTE))
		rc |= conn_call(c, "unroute", w->name, NULL);
	if (!rc && (w->ops & WHACK_REREADSECRETS))
		rc |= simple(c, "rereadsecrets");
	if (!rc && (w->ops & WHACK_LISTEN))
		rc |= simple(c, "version");
	if (!rc && (w->ops & WHACK_STATUS))
		rc |= lsw_status(c, false);
	if (!rc && (w->ops & WHACK_SHOWSTATES))
		rc |= lsw_status(c, true);
	if (!rc && (w->ops & WHACK_TRAFFICSTATUS))
		rc |= trafficstatus(c);
	if (!rc && (w->ops & WHACK_SHUTDOWN))
		rc |= simple(c, "shutdown");
	return rc ? CLI_FAIL : CLI_OK;
}

static int whack_main(struct cli *c, int argc, char **argv)
{
	static struct whack_args w;
	char why[256];

	if (whack_parse(argc, argv, &w, why, sizeof(why)) < 0) {
		fprintf(stderr, "ipsec %s\n", why);
		return CLI_USAGE;
	}
	c->ctlsocket = w.ctlsocket ? w.ctlsocket : default_socket();
	return whack_run(c, &w);
}

/* The index of the word "whack" when it is the command, else 0. */
static int whack_word(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--ctlsocket")) {
			i++;
			continue;
		}
		if (argv[i][0] == '-')
			continue;
		return strcmp(argv[i], "whack") ? 0 : i;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ipsec_args a;
	struct cli c = { .prog = "ipsec", .rundir = IKB_DEFAULT_RUNDIR };
	char why[256];

	int w = whack_word(argc, argv);

	if (w > 0) {
		/* whack with the options before it after it: whack's own */
		char *wv[argc];

		wv[0] = argv[w];
		memcpy(wv + 1, argv + 1, (size_t)(w - 1) * sizeof(*wv));
		memcpy(wv + w, argv + w + 1, (size_t)(argc - w - 1) * sizeof(*wv));
		return whack_main(&c, argc - 1, wv);
	}

	if (ipsec_args_parse(argc, argv, &a, why, sizeof(why)) < 0) {
		fprintf(stderr, "ipsec: %s\n", why);
		usage(stderr);
		return CLI_USAGE;
	}
	c.ctlsocket = a.ctlsocket ? a.ctlsocket : default_socket();
	return run(&c, &a);
}
