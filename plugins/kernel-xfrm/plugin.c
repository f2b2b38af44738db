// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel-xfrm: the Linux XFRM netlink backend (libmnl). It owns and checks
 * nic-offload= and pcrypt= and marks each SA with them, and installs SPIs,
 * SAs and policies, reads counters and delivers ACQUIRE/EXPIRE events.
 * Nothing touches the kernel until an operation is called, so checkconfig
 * and the unit tests load it without privileges.
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
	struct xfrm_state *st = state;
	struct ikb_error err;
	unsigned nsa, npol;

	xfrm_events_close(st);
	/* Only the instance that took charge (subscribed) cleans up. */
	if (st->owner) {
		if (xfrm_flush_own(st, &nsa, &npol, &err))
			st->host->log("kernel-xfrm", IKB_LOG_WARNING,
				      "removing our SAs and policies: %s",
				      err.msg);
		else if (nsa || npol)
			st->host->log("kernel-xfrm", IKB_LOG_INFO,
				      "removed %u SAs and %u policies", nsa,
				      npol);
	}
	xfrm_nl_close(st);
	free(st);
}

static const struct ikb_key xfrm_keys[] = {
	{ "nic-offload", IKB_KEY_CONN, "no, yes, crypto or packet" },
	{ "pcrypt", IKB_KEY_CONN, "yes or no" },
	{ NULL, 0, NULL },
};

static const struct ikb_child_ops xfrm_child = {
	IKB_OPS_SIZE(struct ikb_child_ops),
	.tune = xfrm_tune,
	.check_sa = xfrm_check_sa,
};

const struct ikb_kernel_ops xfrm_kernel_ops = {
	IKB_OPS_SIZE(struct ikb_kernel_ops),
	.spi_alloc = xfrm_spi_alloc,
	.sa_add = xfrm_sa_add,
	.sa_update = xfrm_sa_update,
	.sa_del = xfrm_sa_del,
	.policy_add = xfrm_policy_add,
	.policy_del = xfrm_policy_del,
	.sa_query = xfrm_sa_query,
	.events_subscribe = xfrm_events_subscribe,
	.pcpu_max = xfrm_pcpu_max,
	.dump = xfrm_dump,
	.child_add = xfrm_child_add,
	.events_unsubscribe = xfrm_events_unsubscribe,
	.sa_move = xfrm_sa_move,
	.policy_update = xfrm_policy_update,
};

IKB_PLUGIN_EXPORT const struct ikb_plugin ikb_plugin = {
	IKB_PLUGIN_INIT,
	.name = "kernel-xfrm",
	.summary =
		"XFRM netlink backend: SPIs, SAs (AEAD or cipher+integrity, ESN and replay windows to 4096, UDP encapsulation, marks, NIC offload, pcrypt, per-CPU SAs), policies, counters, SA moves and ACQUIRE/EXPIRE/MAPPING events",
	.keys = xfrm_keys,
	.init = xfrm_init,
	.fini = xfrm_fini,
	.check_conn = xfrm_check_conn,
	.child = &xfrm_child,
	.kernel = &xfrm_kernel_ops,
};
