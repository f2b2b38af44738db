// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test plugins built from one source: MOD_NAME names it, and one MOD_*
 * flag gives it the defect or the feature a loader test needs. init and
 * fini log through the host so that tests see their order.
 */
#include <errno.h>
#include <stddef.h>
#include <ikebana/plugin.h>

static const struct ikb_host *host;

static int mod_init(const struct ikb_host *h, void **state)
{
	host = h;
	h->log(MOD_NAME, IKB_LOG_INFO, "init host %u bytes", h->size);
#ifdef MOD_INIT_FAILS
	return -EPERM;
#else
	*state = (void *)host;
	return 0;
#endif
}

static void mod_fini(void *state)
{
	host->log(MOD_NAME, IKB_LOG_INFO, "fini %s",
		  state == host ? "own state" : "wrong state");
}

#ifdef MOD_KEY
static const struct ikb_key keys[] = {
	{ MOD_KEY, IKB_KEY_CONN, "anything" },
	{ NULL, 0, NULL },
};
#endif

#ifdef MOD_KERNEL
static int fake_spi(void *state, const struct ikb_addr *src,
		    const struct ikb_addr *dst, uint8_t proto, uint32_t reqid,
		    uint32_t *spi, struct ikb_error *err)
{
	*spi = 0x1234;
	return 0;
}

#if defined(MOD_KERNEL_NEWER)
/* Built against "newer headers": two ops appended that ikebanad lacks. */
static int later_op(void *state)
{
	return -1;
}

static const struct {
	struct ikb_kernel_ops k;
	int (*later[2])(void *state);
} newer = {
	.k = { .size = sizeof(newer), .spi_alloc = fake_spi },
	.later = { later_op, later_op },
};
#define KERNEL_TABLE (&newer.k)
#elif defined(MOD_KERNEL_NOSIZE)
/* A table from before ABI 5, or one that forgot IKB_OPS_SIZE. */
static const struct ikb_kernel_ops kernel = { .spi_alloc = fake_spi };
#define KERNEL_TABLE (&kernel)
#else
static const struct ikb_kernel_ops kernel = {
	IKB_OPS_SIZE(struct ikb_kernel_ops),
	.spi_alloc = fake_spi,
};
#define KERNEL_TABLE (&kernel)
#endif
#endif
#ifdef MOD_OFFER
/* child.offer: appends ESN id MOD_OFFER to the first proposal, logged. */
static int mod_offer(void *state, const struct ikb_section *conn,
		     struct ikb_proposal_list *l, struct ikb_error *err)
{
	struct ikb_proposal *p = &l->p[0];

	host->log(MOD_NAME, IKB_LOG_INFO, "offer after %u", (unsigned)p->n);
#ifdef MOD_OFFER_FAILS
	return -E2BIG;
#else
	p->xf[p->n++] = (struct ikb_transform){ IKB_XF_ESN, MOD_OFFER, 0 };
	return 0;
#endif
}

static const struct ikb_child_ops child = {
	IKB_OPS_SIZE(struct ikb_child_ops),
	.offer = mod_offer,
};
#endif
#ifdef MOD_PROPOSALS
static const struct ikb_proposals_ops proposals = {
	IKB_OPS_SIZE(struct ikb_proposals_ops),
};
#endif

IKB_PLUGIN_EXPORT const struct ikb_plugin ikb_plugin = {
	IKB_PLUGIN_INIT,
#ifdef MOD_DESC_NAME
	.name = MOD_DESC_NAME,
#else
	.name = MOD_NAME,
#endif
	.summary = "test module",
	.init = mod_init,
	.fini = mod_fini,
#ifdef MOD_KEY
	.keys = keys,
#endif
#ifdef MOD_KERNEL
	.kernel = KERNEL_TABLE,
#endif
#ifdef MOD_PROPOSALS
	.proposals = &proposals,
#endif
#ifdef MOD_OFFER
	.child = &child,
#endif
};
