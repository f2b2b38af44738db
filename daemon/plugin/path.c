// SPDX-License-Identifier: GPL-2.0-or-later
/* Where a plugin's shared object is looked for. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build-config.h"
#include "plugin/plugin_set.h"

bool plugin_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 63)
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

/*
 * Running from the build tree (tests, `meson devenv`, the README's demo)
 * must load the plugins built next to the binary, never stale installed
 * ones. Asked once per plugin on every reload; the answer cannot change
 * while the process runs, and each realpath() is a dozen readlink calls
 * (UML: ~30 us each), so it is worked out once.
 */
static bool running_uninstalled(void)
{
	static int known = -1;
	char exe[PATH_MAX], root[PATH_MAX];
	size_t n;

	if (known >= 0)
		return known;
	known = 0;
	if (!realpath("/proc/self/exe", exe) || !realpath(IKB_BUILD_ROOT, root))
		return false;
	n = strlen(root);
	known = strncmp(exe, root, n) == 0 && exe[n] == '/';
	return known;
}

const char *plugin_set_path(const char *dir, const char *name, char *buf,
			    size_t len)
{
	const char *env = getenv("IKEBANA_PLUGIN_DIR");
	const char *from;
	int n;

	if (dir) {
		from = "the plugin directory given";
	} else if (env && *env) {
		dir = env;
		from = "IKEBANA_PLUGIN_DIR";
	} else if (running_uninstalled()) {
		n = snprintf(buf, len, "%s/plugins/%s/%s.so", IKB_BUILD_ROOT,
			     name, name);
		return n >= 0 && (size_t)n < len ? "the build tree" : NULL;
	} else {
		dir = IKB_PLUGINDIR;
		from = "the installed plugin directory";
	}
	n = snprintf(buf, len, "%s/%s.so", dir, name);
	return n >= 0 && (size_t)n < len ? from : NULL;
}
