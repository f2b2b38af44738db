// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * leftupdown=: the command must name a program that is there to run. It
 * runs as libreswan runs it, through /bin/sh -c, so only its first word
 * is checked: a path, or a name looked up in PATH as the shell would.
 * Failing at load names the file and line; failing at the first Child SA
 * would only leave a log line, and the routes or firewall rules the
 * script adds would be missing.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/internal.h"

/* Where a name without a slash is looked for when PATH is unset. */
#define UPDOWN_PATH \
	"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

const char *cfg_updown_path(void)
{
	const char *p = getenv("PATH");

	return p && *p ? p : UPDOWN_PATH;
}

/* 0: a regular file someone may execute; else -errno (-EACCES: not +x). */
static int runnable(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111))
		return -EACCES;
	return 0;
}

static int find_in_path(const char *name, char *found, size_t len)
{
	const char *p = cfg_updown_path();
	int rc = -ENOENT;

	while (*p) {
		size_t n = strcspn(p, ":");
		int r;

		r = snprintf(found, len, "%.*s/%s", n ? (int)n : 1, n ? p : ".",
			     name) >= (int)len ?
			    -ENAMETOOLONG :
			    runnable(found);
		if (!r)
			return 0;
		if (r != -ENOENT && r != -ENOTDIR && r != -ENAMETOOLONG)
			rc = r;
		p += n + (p[n] == ':');
	}
	return rc;
}

static void check_one(const struct ikb_section *s, const struct ikb_value *v,
		      struct ikb_diag *d)
{
	char prog[PATH_MAX], found[PATH_MAX];
	size_t skip = strspn(v->value, " \t");
	size_t n = strcspn(v->value + skip, " \t;&|<>");
	int rc;

	if (cfg_updown_off(v->value))
		return;
	if (!n || n >= sizeof(prog)) {
		diag_report(d, s, v, IKB_SEV_ERROR,
			    "expected a program to run, or %%disabled");
		return;
	}
	memcpy(prog, v->value + skip, n);
	prog[n] = '\0';
	rc = strchr(prog, '/') ? runnable(prog) :
				 find_in_path(prog, found, sizeof(found));
	if (rc == -ENOENT || rc == -ENOTDIR)
		diag_report(
			d, s, v, IKB_SEV_ERROR,
			"%s: no such program%s; the script would never run: install it, or write %%disabled",
			prog, strchr(prog, '/') ? "" : " in PATH");
	else if (rc == -EACCES)
		diag_report(
			d, s, v, IKB_SEV_ERROR,
			"%s: not an executable file; the script would never run: install it, or write %%disabled",
			prog);
	else if (rc)
		diag_report(d, s, v, IKB_SEV_WARNING,
			    "%s: cannot be checked (%s)", prog, strerror(-rc));
}

void cfg_check_updown(const struct ikb_section *s, struct ikb_diag *d)
{
	const struct ikb_value *v;

	if ((v = cfg_get(s, "leftupdown")))
		check_one(s, v, d);
	if ((v = cfg_get(s, "rightupdown")))
		check_one(s, v, d);
}
