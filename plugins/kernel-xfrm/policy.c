// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NEWPOLICY and DELPOLICY: one selector, one direction, one ESP template.
 *
 * Priorities, when the engine leaves them 0: the kernel tries the lowest
 * number first, so the more specific a selector, the lower its number, as
 * libreswan does. Prefix length weighs most (a /32 pair beats a /24 pair
 * whatever the ports), then a protocol, then each port. The base leaves
 * room below for administrators who want to override us.
 */
#include <errno.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "xfrm.h"

uint32_t xfrm_priority(const struct ikb_policy *pol)
{
	const struct ikb_selector *s = &pol->sel;
	uint32_t plen = s->src_plen + s->dst_plen; /* 0..256 */

	if (pol->priority)
		return pol->priority;
	return XFRM_PRIO_BASE + ((256 - plen) << 3) + (s->proto ? 0 : 4) +
	       (s->sport ? 0 : 1) + (s->dport ? 0 : 1);
}

bool xfrm_shunt_index_ours(uint32_t index)
{
	return (index & XFRM_SHUNT_INDEX_MASK) == XFRM_SHUNT_INDEX_BASE;
}

/* The next index of our band for a shunt in kernel direction dir. */
static uint32_t shunt_index(uint8_t dir)
{
	static uint32_t seq;

	seq = (seq + 1) & (~XFRM_SHUNT_INDEX_MASK >> 3);
	if (!seq)
		seq = 1;
	return XFRM_SHUNT_INDEX_BASE | seq << 3 | dir;
}

static const uint8_t dirs[] = {
	[IKB_DIR_IN] = XFRM_POLICY_IN,
	[IKB_DIR_OUT] = XFRM_POLICY_OUT,
	[IKB_DIR_FWD] = XFRM_POLICY_FWD,
};

static int sel_put(struct xfrm_selector *out, const struct ikb_policy *pol,
		   struct ikb_error *err)
{
	if ((unsigned)pol->dir > IKB_DIR_FWD)
		return ikb_error_set(err, EINVAL,
				     "policy direction %d is unknown",
				     (int)pol->dir);
	xfrm_sel_put(out, &pol->sel);
	if (out->family == AF_UNSPEC)
		out->family = pol->tmpl_dst.family;
	if (out->family != AF_INET && out->family != AF_INET6)
		return ikb_error_set(
			err, EAFNOSUPPORT,
			"policy selector is neither IPv4 nor IPv6");
	if (out->prefixlen_s > (out->family == AF_INET ? 32 : 128) ||
	    out->prefixlen_d > (out->family == AF_INET ? 32 : 128))
		return ikb_error_set(err, EINVAL, "policy prefix too long");
	return 0;
}

static int tmpl_put(struct nlmsghdr *nlh, const struct ikb_policy *pol,
		    uint16_t sel_family, struct ikb_error *err)
{
	struct xfrm_user_tmpl t = {
		.id.proto = pol->proto,
		.family = sel_family,
		.mode = XFRM_MODE_TRANSPORT,
		.aalgos = ~0u,
		.ealgos = ~0u,
		.calgos = ~0u,
	};
	int rc = xfrm_reqid_to_kernel(pol->reqid, &t.reqid, err);

	if (rc)
		return rc;
	if (pol->mode == IKB_MODE_TUNNEL) {
		if (pol->tmpl_dst.family != AF_INET &&
		    pol->tmpl_dst.family != AF_INET6)
			return ikb_error_set(
				err, EINVAL,
				"tunnel mode policy needs its SA endpoints");
		t.mode = XFRM_MODE_TUNNEL;
		t.family = pol->tmpl_dst.family;
		xfrm_addr_put(&t.id.daddr, &pol->tmpl_dst);
		xfrm_addr_put(&t.saddr, &pol->tmpl_src);
	}
	mnl_attr_put(nlh, XFRMA_TMPL, sizeof(t), &t);
	return 0;
}

struct nlmsghdr *xfrm_build_policy(void *buf, uint16_t type,
				   const struct ikb_policy *pol,
				   struct ikb_error *err)
{
	struct nlmsghdr *nlh = xfrm_nl_start(buf, type, 0);
	struct xfrm_userpolicy_info *p;
	struct xfrm_userpolicy_id *id;

	if (type == XFRM_MSG_DELPOLICY) {
		id = mnl_nlmsg_put_extra_header(nlh, sizeof(*id));
		if (sel_put(&id->sel, pol, err))
			return NULL;
		id->dir = dirs[pol->dir];
		xfrm_mark_put(nlh, pol->mark, pol->mark_mask);
		xfrm_if_id_put(nlh, pol->if_id);
		return nlh;
	}
	p = mnl_nlmsg_put_extra_header(nlh, sizeof(*p));
	if (sel_put(&p->sel, pol, err))
		return NULL;
	p->lft.soft_byte_limit = p->lft.hard_byte_limit = XFRM_INF;
	p->lft.soft_packet_limit = p->lft.hard_packet_limit = XFRM_INF;
	p->priority = xfrm_priority(pol);
	p->dir = dirs[pol->dir];
	p->action = pol->action == IKB_POLICY_BLOCK ? XFRM_POLICY_BLOCK :
						      XFRM_POLICY_ALLOW;
	p->share = XFRM_SHARE_ANY;
	/* the kernel acquires per CPU where a CPU has no SA of its own */
	if (pol->cpu_acquire)
		p->flags |= XFRM_POLICY_CPU_ACQUIRE;
	/* a shunt has no template: allowed in clear, or blocked; its
	 * index says it is ours (an update keeps the index it had) */
	if (pol->action != IKB_POLICY_IPSEC && type == XFRM_MSG_NEWPOLICY)
		p->index = shunt_index(p->dir);
	if (pol->action == IKB_POLICY_IPSEC &&
	    tmpl_put(nlh, pol, p->sel.family, err))
		return NULL;
	xfrm_mark_put(nlh, pol->mark, pol->mark_mask);
	xfrm_if_id_put(nlh, pol->if_id);
	return nlh;
}

static int send_policy(void *state, uint16_t type, const struct ikb_policy *pol,
		       struct ikb_error *err)
{
	char buf[XFRM_BUF];
	struct nlmsghdr *nlh = xfrm_build_policy(buf, type, pol, err);

	if (!nlh)
		return -EINVAL;
	return xfrm_nl_talk(state, nlh, NULL, NULL, err);
}

int xfrm_policy_add(void *state, const struct ikb_policy *pol,
		    struct ikb_error *err)
{
	return send_policy(state, XFRM_MSG_NEWPOLICY, pol, err);
}

int xfrm_policy_del(void *state, const struct ikb_policy *pol,
		    struct ikb_error *err)
{
	return send_policy(state, XFRM_MSG_DELPOLICY, pol, err);
}

int xfrm_policy_update(void *state, const struct ikb_policy *pol,
		       struct ikb_error *err)
{
	return send_policy(state, XFRM_MSG_UPDPOLICY, pol, err);
}
