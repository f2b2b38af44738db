// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The configuration: ikebana.conf and the files it includes (files.h),
 * through the lexer, the parser with include, %default and also=, the key
 * and core value checks, and both checkconfig outputs, as
 * `ikebana checkconfig` runs them on a file it was given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "config/config.h"
#include "config/diag.h"
#include "files.h"
#include "fuzz.h"

/*
 * Every message names a file, and a line in it unless it is about the
 * whole top-level file (issue 19: 22 of 20,000 mutated configurations
 * gave an error without file:line). A finding aborts, so the fuzzer
 * keeps the input.
 */
static void check_located(const struct ikb_diag *d, const char *top)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct diag_msg *m = &d->msgs[i];

		if (!m->file || (!m->line && strcmp(m->file, top))) {
			fprintf(stderr, "unlocated message: %s\n", m->text);
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	const char *path = fuzz_files_write(data, size, "ikebana.conf");
	struct cfg *c = NULL;
	struct ikb_diag d;

	if (!path)
		return 0;
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	diag_init(&d);
	cfg_parse_file(path, &c, &d);
	if (c) {
		cfg_check_keys(c, NULL, NULL, &d);
		cfg_check_core(c, &d);
		for (size_t i = 0; i < c->nconns; i++)
			(void)cfg_conn_find(c, c->conns[i].name);
		json_object_put(cfg_to_json(c, 0));
		json_object_put(cfg_to_json(c, CFG_PRINT_EXPAND));
		cfg_print(c, null, 0);
		cfg_print(c, null, CFG_PRINT_EXPAND);
	}
	check_located(&d, path);
	diag_print(&d, null);
	diag_free(&d);
	cfg_free(c);
	return 0;
}
