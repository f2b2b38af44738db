// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * checkconfig runs the daemon's own pipeline (conf_load) in the client,
 * without a daemon, so that what passes here loads in ikebanad; then it
 * looks at the certificates conns name in the NSS database, opened as
 * the daemon opens it (read-only, nssdb.c).
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"
#include "config/diag.h"
#include "config/groups.h"
#include "crypto/nss_init.h"
#include "crypto/nssdb.h"
#include "ike/conn/conn_check.h"
#include "plugin/conf_load.h"

struct checkconfig_opts {
	int json;
	int expand;
	const char *conn; /* --conn: only this conn, expanded */
	const char *secrets;
	const char *plugindir;
	const char *nssdir;
	const char *file;
};

static int parse(const struct cli *c, int argc, char **argv,
		 struct checkconfig_opts *o)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "expand", no_argument, NULL, 'e' },
		{ "conn", required_argument, NULL, 'c' },
		{ "secrets", required_argument, NULL, 's' },
		{ "plugindir", required_argument, NULL, 'p' },
		{ "nssdir", required_argument, NULL, 'd' },
		{ 0 },
	};
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "jec:s:p:d:", opts, NULL)) != -1) {
		if (ch == 'j')
			o->json = 1;
		else if (ch == 'e')
			o->expand = 1;
		else if (ch == 'c')
			o->conn = optarg;
		else if (ch == 's')
			o->secrets = optarg;
		else if (ch == 'p')
			o->plugindir = optarg;
		else if (ch == 'd')
			o->nssdir = optarg;
		else
			goto usage;
	}
	if (optind != argc - 1)
		goto usage;
	o->file = argv[optind];
	return 0;
usage:
	fprintf(stderr,
		"Usage: %s checkconfig [--json] [--expand | --conn NAME] "
		"[--secrets FILE] [--plugindir DIR] [--nssdir DIR] FILE\n",
		c->prog);
	return -1;
}

/* A group's network as its file has it: ADDRESS/PREFIX. */
static const char *net_text(const struct cfg_group_net *n, char *buf,
			    size_t len)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(n->a.family, n->a.bytes, a, sizeof(a));
	snprintf(buf, len, "%s/%u", a, n->plen);
	return buf;
}

/*
 * The policy groups the conns of %group/%opportunisticgroup read, after
 * the conns: comments, so that the output still parses as a config.
 */
static void print_groups(const struct cfg *c)
{
	char t[64];

	for (size_t i = 0; i < c->ngroups; i++) {
		const struct cfg_group *g = &c->groups[i];

		printf("\n# policy group %s: %s (%zu network%s)\n", g->conn,
		       g->file, g->n, g->n == 1 ? "" : "s");
		for (size_t k = 0; k < g->n; k++)
			printf("#\t%s\t(line %u)\n",
			       net_text(&g->nets[k], t, sizeof(t)),
			       g->nets[k].line);
	}
}

static struct json_object *groups_json(const struct cfg *c)
{
	struct json_object *a = json_object_new_array();
	char t[64];

	for (size_t i = 0; i < c->ngroups; i++) {
		const struct cfg_group *g = &c->groups[i];
		struct json_object *o = json_object_new_object(),
				   *nets = json_object_new_array();

		for (size_t k = 0; k < g->n; k++)
			json_object_array_add(
				nets, json_object_new_string(net_text(
					      &g->nets[k], t, sizeof(t))));
		json_object_object_add(o, "conn",
				       json_object_new_string(g->conn));
		json_object_object_add(o, "file",
				       json_object_new_string(g->file));
		json_object_object_add(o, "networks", nets);
		json_object_array_add(a, o);
	}
	return a;
}

/*
 * Each section once, as written; --expand: every conn with all it
 * inherits; --conn: that one. Returns -1 if there is no such conn.
 */
static int print_conf(const struct loaded_conf *lc,
		      const struct checkconfig_opts *o)
{
	unsigned flags = o->expand ? CFG_PRINT_EXPAND : 0;
	const struct ikb_section *s = NULL;
	struct json_object *j;

	if (o->conn && !(s = cfg_conn_find(lc->cfg, o->conn))) {
		fprintf(stderr, "%s: no conn named \"%s\"\n", o->file, o->conn);
		return -1;
	}
	if (!o->json) {
		if (s)
			cfg_print_conn(s, stdout);
		else
			cfg_print(lc->cfg, stdout, flags);
		if (!s)
			print_groups(lc->cfg);
		return 0;
	}
	j = s ? cfg_conn_to_json(s) : cfg_to_json(lc->cfg, flags);
	if (!s)
		json_object_object_add(j, "groups", groups_json(lc->cfg));
	printf("%s\n", json_object_to_json_string_ext(
			       j, JSON_C_TO_STRING_PRETTY |
					  JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
	return 0;
}

/*
 * The database as ikebanad picks it: --nssdir, else nssdir=, else the
 * default. Only when a conn names a certificate: a PSK-only host has
 * none. A missing database is each leftcert='s error.
 */
static void check_certs(const struct loaded_conf *lc, const char *opt,
			struct ikb_diag *d)
{
	const struct ikb_value *v = lc->cfg->set.nssdir;
	const char *dir = opt ? opt : v ? v->value : NSSDB_DEFAULT_DIR;
	struct crypto_err err = { 0 };
	bool keys = true;

	if (!conn_check_wants_certs(lc->cfg))
		return;
	if (crypto_init(false, &err)) {
		diag_at(d, IKB_SEV_ERROR, NULL, 0,
			"cannot start NSS to check the certificates: %s",
			err.msg);
		return;
	}
	/* Open, but locked: the keys cannot be seen, as in the daemon. */
	if (nssdb_open(dir, &err) && nssdb_slot()) {
		diag_at(d, IKB_SEV_ERROR, v && !opt ? v->file : NULL,
			v && !opt ? v->line : 0, "%s; private keys not checked",
			err.msg);
		keys = false;
	}
	conn_check_certs(lc->cfg, dir, keys, d);
	crypto_shutdown();
}

int checkconfig_main(const struct cli *c, int argc, char **argv)
{
	struct checkconfig_opts o = { 0 };
	struct loaded_conf lc = { 0 };
	struct ikb_diag d;
	bool loaded = false, unknown = false;
	int r;

	if (parse(c, argc, argv, &o) < 0)
		return CLI_USAGE;
	if (o.expand && o.conn) {
		fprintf(stderr,
			"%s checkconfig: --conn expands one conn; "
			"--expand is for all of them\n",
			c->prog);
		return CLI_USAGE;
	}
	diag_init(&d);
	r = conf_load(&(struct conf_load_opts){ .config = o.file,
						.secrets = o.secrets,
						.plugindir = o.plugindir },
		      &lc, &d);
	if (r == 0) {
		check_certs(&lc, o.nssdir, &d);
		loaded = true;
		if (d.errors)
			r = -1;
	}
	/* Errors and warnings on stderr, as "FILE:LINE: error: ...". */
	diag_print(&d, stderr);
	if (r == 0 && print_conf(&lc, &o))
		unknown = true;
	if (loaded)
		conf_unload(&lc);
	if (r) {
		fprintf(stderr, "%s: %u error(s), %u warning(s)\n", o.file,
			d.errors, d.warnings);
	}
	diag_free(&d);
	return r == 0 && !unknown ? CLI_OK : CLI_FAIL;
}
