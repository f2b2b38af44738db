// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * checkconfig runs the daemon's own pipeline (conf_load) in the client,
 * without a daemon, so that what passes here loads in ikebanad.
 */
#include <getopt.h>
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"
#include "config/diag.h"
#include "plugin/conf_load.h"

struct checkconfig_opts {
	int json;
	const char *secrets;
	const char *plugindir;
	const char *file;
};

static int parse(const struct cli *c, int argc, char **argv,
		 struct checkconfig_opts *o)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "secrets", required_argument, NULL, 's' },
		{ "plugindir", required_argument, NULL, 'p' },
		{ 0 },
	};
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "js:p:", opts, NULL)) != -1) {
		if (ch == 'j')
			o->json = 1;
		else if (ch == 's')
			o->secrets = optarg;
		else if (ch == 'p')
			o->plugindir = optarg;
		else
			goto usage;
	}
	if (optind != argc - 1)
		goto usage;
	o->file = argv[optind];
	return 0;
usage:
	fprintf(stderr,
		"Usage: %s checkconfig [--json] [--secrets FILE] "
		"[--plugindir DIR] FILE\n",
		c->prog);
	return -1;
}

static void print_conf(const struct loaded_conf *lc, int json)
{
	struct json_object *j;

	if (!json) {
		cfg_print(lc->cfg, stdout);
		return;
	}
	j = cfg_to_json(lc->cfg);
	printf("%s\n", json_object_to_json_string_ext(
			       j, JSON_C_TO_STRING_PRETTY |
					  JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
}

int checkconfig_main(const struct cli *c, int argc, char **argv)
{
	struct checkconfig_opts o = { 0 };
	struct loaded_conf lc = { 0 };
	struct ikb_diag d;
	int r;

	if (parse(c, argc, argv, &o) < 0)
		return CLI_USAGE;
	diag_init(&d);
	r = conf_load(&(struct conf_load_opts){ .config = o.file,
						.secrets = o.secrets,
						.plugindir = o.plugindir },
		      &lc, &d);
	/* Errors and warnings on stderr, as "FILE:LINE: error: ...". */
	diag_print(&d, stderr);
	if (r == 0) {
		print_conf(&lc, o.json);
		conf_unload(&lc);
	} else {
		fprintf(stderr, "%s: %u error(s), %u warning(s)\n", o.file,
			d.errors, d.warnings);
	}
	diag_free(&d);
	return r == 0 ? CLI_OK : CLI_FAIL;
}
