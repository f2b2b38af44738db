// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The core reads no key a plugin owns: each in-tree plugin (argv, as
 * meson built them) names its keys, and no file of daemon/ outside the
 * plugin loader and the config checker may look one up (cfg_get() or the
 * engine's value(), flag() and conn_end_value() helpers). The plugin
 * hands the core what it parsed instead (esp-proposals: conn_proposals).
 */
#include <dirent.h>
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <ikebana/plugin.h>

static int nargs;
static char **args;

static bool reads(const char *line)
{
	static const char *const calls[] = { "cfg_get(", "value(",
					     "flag(",	 "conn_end_value(",
					     "->get(",	 NULL };

	for (size_t i = 0; calls[i]; i++)
		if (strstr(line, calls[i]))
			return true;
	return false;
}

static void scan_file(const char *path, const char *key, int *found)
{
	FILE *f = fopen(path, "re");
	char line[1024], quoted[96];

	assert_non_null(f);
	snprintf(quoted, sizeof(quoted), "\"%s\"", key);
	for (unsigned ln = 1; fgets(line, sizeof(line), f); ln++)
		if (strstr(line, quoted) && reads(line)) {
			print_error("%s:%u: reads %s=, a plugin's: %s", path,
				    ln, key, line);
			(*found)++;
		}
	fclose(f);
}

/* The loader (plugin/) and the checker (config/) name keys to route them. */
static void scan(const char *dir, const char *key, int *found)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char path[4096];

	assert_non_null(dp);
	while ((e = readdir(dp))) {
		size_t n = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR) {
			if (strcmp(e->d_name, "config") &&
			    strcmp(e->d_name, "plugin"))
				scan(path, key, found);
		} else if (n > 2 && !strcmp(e->d_name + n - 2, ".c")) {
			scan_file(path, key, found);
		}
	}
	closedir(dp);
}

static void test_core_reads_no_plugin_key(void **state)
{
	const char *src = getenv("IKB_SRC");
	char daemon[4096];
	int found = 0, keys = 0;

	assert_non_null(src);
	assert_true(nargs > 0);
	snprintf(daemon, sizeof(daemon), "%s/daemon", src);
	for (int i = 0; i < nargs; i++) {
		void *h = dlopen(args[i], RTLD_NOW | RTLD_LOCAL);
		const struct ikb_plugin *p;

		if (!h)
			fail_msg("%s: %s", args[i], dlerror());
		p = dlsym(h, "ikb_plugin");
		assert_non_null(p);
		for (const struct ikb_key *k = p->keys; k && k->name; k++) {
			scan(daemon, k->name, &found);
			keys++;
		}
		dlclose(h);
	}
	print_message("%d plugin keys, %d read by the core\n", keys, found);
	/* esp-proposals alone owns ike=, esp= and phase2alg= */
	assert_true(keys >= 3);
	assert_int_equal(found, 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core_reads_no_plugin_key),
	};

	nargs = argc - 1;
	args = argv + 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
