// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ipsec whack's argument vector (bytes split at NUL into arguments). A
 * conn defined on the command line must come out as well-formed
 * ipsec.conf text: "conn NAME" and then only "\tKEY=VALUE" lines whose
 * values have no white space, quote, # or backslash, so that no argument
 * can add a key of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ipsec/whack.h"

#define ARGS_MAX 64

static bool line_ok(const char *l, size_t n)
{
	const char *eq = memchr(l, '=', n);

	if (n < 3 || l[0] != '\t' || !eq || eq == l + 1 || eq == l + n - 1)
		return false;
	for (const char *p = l + 1; p < l + n; p++)
		if ((unsigned char)*p <= ' ' || *p == '"' || *p == '#' ||
		    *p == '\\')
			return false;
	/* a value may hold '=' (a DN ID): still not a line of its own */
	return true;
}

static void check_conn(const struct whack_args *w)
{
	const char *s = w->conn, *nl;

	if (strncmp(s, "conn ", 5) || !(nl = strchr(s, '\n')))
		abort();
	for (s = nl + 1; *s; s = nl + 1) {
		if (!(nl = strchr(s, '\n')) || !line_ok(s, (size_t)(nl - s)))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[ARGS_MAX + 1];
	static struct whack_args w;
	char why[256];
	int argc;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argc = fuzz_argv(buf, size, argv, ARGS_MAX, "whack");
	if (whack_parse(argc, argv, &w, why, sizeof(why)) == 0) {
		if (!w.ops)
			abort();
		if (w.ops & WHACK_ADD)
			check_conn(&w);
	} else if (!why[0]) {
		abort();
	}
	free(buf);
	return 0;
}
