// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay-window: the anti-replay window and ESN. A wider window lets
 * parallel crypto (pcrypt, several SAs, NIC queues) deliver out of order
 * without drops; 0 disables anti-replay. esn= shapes the ESN transforms
 * the daemon offers and accepts (child.offer, offer.c); the SA's ESN flag
 * is what was negotiated.
 */
#include <errno.h>
#include <stdlib.h>

#include "rw.h"

static int rw_init(const struct ikb_host *host, void **state)
{
	struct rw_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->host = host;
	*state = st;
	return 0;
}

static void rw_fini(void *state)
{
	free(state);
}

static const struct ikb_key rw_keys[] = {
	{ "replay-window", IKB_KEY_CONN, "an integer 0..2048 (default 128)" },
	{ "esn", IKB_KEY_CONN, "yes, no or either" },
	{ NULL, 0, NULL },
};

static const struct ikb_child_ops rw_child = {
	IKB_OPS_SIZE(struct ikb_child_ops),
	.tune = rw_tune,
	.offer = rw_offer,
};

IKB_PLUGIN_EXPORT const struct ikb_plugin ikb_plugin = {
	IKB_PLUGIN_INIT,
	.name = "replay-window",
	.summary =
		"replay-window= (0..2048, default 128) and esn=: sets each SA's anti-replay window; ESN is negotiated (ESN transform) and never offered with window 0",
	.keys = rw_keys,
	.init = rw_init,
	.fini = rw_fini,
	.check_conn = rw_check_conn,
	.child = &rw_child,
};
