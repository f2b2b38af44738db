// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ipsec command's argument vector as an orchestrator may pass it:
 * the bytes split at NUL into arguments. A parse that succeeds must give
 * a verb, a conn name exactly for the verbs that take one, and strings
 * that are arguments of the vector.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ipsec/args.h"

#define ARGS_MAX 64

static bool from_argv(const char *s, char **argv, int argc)
{
	if (!s)
		return true;
	for (int i = 0; i < argc; i++)
		if (s >= argv[i] && s <= argv[i] + strlen(argv[i]))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[ARGS_MAX + 1];
	struct ipsec_args a;
	char why[256];
	int argc;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argc = fuzz_argv(buf, size, argv, ARGS_MAX, "ipsec");
	if (ipsec_args_parse(argc, argv, &a, why, sizeof(why)) == 0) {
		if (a.verb == IPSEC_NONE ||
		    ipsec_verb_named(a.verb) != (a.name != NULL) ||
		    !from_argv(a.name, argv, argc) ||
		    !from_argv(a.config, argv, argc) ||
		    !from_argv(a.ctlsocket, argv, argc) ||
		    !from_argv(a.nssdir, argv, argc) ||
		    (a.nssdir && a.verb != IPSEC_CHECKNSS &&
		     a.verb != IPSEC_INITNSS && a.verb != IPSEC_CHECKCONFIG))
			abort();
	} else if (!why[0] || !memchr(why, '\0', sizeof(why))) {
		abort(); /* every refusal says why */
	}
	free(buf);
	return 0;
}
