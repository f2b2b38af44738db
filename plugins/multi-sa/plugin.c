// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * multi-sa: several Child SAs per conn, so that decryption spreads over
 * CPUs instead of one SA's one queue: one per protoports entry, one per
 * pair of leftsubnets/rightsubnets, or one per CPU (clones=, RFC 9611),
 * the latter negotiated by the core.
 */
#include <errno.h>
#include <stdlib.h>

#include "ms.h"

static int ms_init(const struct ikb_host *host, void **state)
{
	struct ms_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->host = host;
	*state = st;
	return 0;
}

static void ms_fini(void *state)
{
	free(state);
}

static const struct ikb_key ms_keys[] = {
	{ "clones", IKB_KEY_CONN,
	  "an integer 1..256, or yes for one per online CPU" },
	{ "leftprotoports", IKB_KEY_CONN,
	  "PROTO/PORT entries separated by commas or spaces" },
	{ "rightprotoports", IKB_KEY_CONN,
	  "PROTO/PORT entries separated by commas or spaces" },
	{ "leftsubnets", IKB_KEY_CONN,
	  "subnets separated by commas or spaces, optionally in braces" },
	{ "rightsubnets", IKB_KEY_CONN,
	  "subnets separated by commas or spaces, optionally in braces" },
	{ NULL, 0, NULL },
};

/* Every extra Child SA is negotiated with the conn's esp= proposals. */
static const char *const ms_requires[] = { "esp-proposals", NULL };

static const struct ikb_child_ops ms_child = {
	IKB_OPS_SIZE(struct ikb_child_ops),
	.plan = ms_plan,
};

IKB_PLUGIN_EXPORT const struct ikb_plugin ikb_plugin = {
	IKB_PLUGIN_INIT,
	.name = "multi-sa",
	.summary =
		"several Child SAs per conn: one per leftprotoports/rightprotoports entry, one per pair of leftsubnets/rightsubnets, or a fallback plus one per CPU (clones=, RFC 9611)",
	.requires = ms_requires,
	.keys = ms_keys,
	.init = ms_init,
	.fini = ms_fini,
	.check_conn = ms_check_conn,
	.child = &ms_child,
};
