// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Times parse + resolve + key and value checks of one configuration.
 * Usage: config_load_bench FILE; prints "N conns S.SSS" on success.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "config/config.h"
#include "config/diag.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The default plugins' keys, so that the generated file checks clean. */
static bool plugins_own(void *ctx, const char *key, enum ikb_key_scope scope)
{
	static const char *const keys[] = { "esp", "ike", "replay-window",
					    NULL };

	for (size_t i = 0; keys[i]; i++)
		if (scope == IKB_KEY_CONN && !strcmp(key, keys[i]))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct ikb_diag d;
	struct cfg *c;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	diag_init(&d);
	double t0 = now();
	int rc = cfg_parse_file(argv[1], &c, &d);

	rc |= cfg_check_keys(c, plugins_own, NULL, &d);
	rc |= cfg_check_core(c, &d);
	double t1 = now();

	diag_print(&d, stderr);
	printf("%zu %.3f\n", c->nconns, t1 - t0);
	cfg_free(c);
	diag_free(&d);
	return rc ? 1 : 0;
}
