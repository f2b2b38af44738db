// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel-xfrm: the Linux XFRM netlink backend. Today it owns and checks
 * nic-offload= and pcrypt= and marks each SA with them; the netlink kernel
 * table (SPI, SA, policy, events, counters through libmnl) is not written
 * yet, so .kernel stays NULL and the daemon reports that no kernel backend
 * is loaded rather than pretending to install SAs.
 */
#include <errno.h>
#include <stdlib.h>

#include "xfrm.h"

static int xfrm_init(const struct ikb_host *host, void **state)
{
	struct xfrm_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->host = host;
	*state = st;
	return 0;
}

static void xfrm_fini(void *state)
{
	free(state);
}

static const struct ikb_key xfrm_keys[] = {
	{ "nic-offload", IKB_KEY_CONN, "no, yes, crypto or packet" },
	{ "pcrypt", IKB_KEY_CONN, "yes or no" },
	{ NULL, 0, NULL },
};

static const struct ikb_child_ops xfrm_child = {
	.tune = xfrm_tune,
};

IKB_PLUGIN_EXPORT const struct ikb_plugin ikb_plugin = {
	IKB_PLUGIN_INIT,
	.name = "kernel-xfrm",
	.summary =
		"XFRM netlink backend: checks nic-offload= and pcrypt= and sets them on each SA; the netlink kernel table is not written yet (no SAs are installed)",
	.keys = xfrm_keys,
	.init = xfrm_init,
	.fini = xfrm_fini,
	.check_conn = xfrm_check_conn,
	.child = &xfrm_child,
};
