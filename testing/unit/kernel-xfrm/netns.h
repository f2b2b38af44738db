/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tests against the real kernel run in a network namespace of their own:
 * the process unshares one before the first test, so nothing it installs
 * can reach the host's SAD/SPD. Without the privilege they are skipped.
 */
#ifndef IKB_TEST_XFRM_NETNS_H
#define IKB_TEST_XFRM_NETNS_H

#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool netns_ready;

static inline int netns_setup(void **state)
{
	netns_ready =
		unshare(CLONE_NEWNET) == 0 && system("ip link set lo up") == 0;
	if (!netns_ready)
		fprintf(stderr, "# no private network namespace: skipping\n");
	return 0;
}

#define NEED_NETNS()              \
	do {                      \
		if (!netns_ready) \
			skip();   \
	} while (0)

/* The output of a shell command, as one string (static buffer). */
static inline const char *sh(const char *cmd)
{
	static char out[16384];
	FILE *f = popen(cmd, "r");
	size_t n = f ? fread(out, 1, sizeof(out) - 1, f) : 0;

	out[n] = '\0';
	if (f)
		pclose(f);
	return out;
}

#endif
