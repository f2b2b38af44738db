// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * XFRM_MSG_NEWSA and XFRM_MSG_UPDSA (which fills a larval SA left by
 * ALLOCSPI). Building is apart from sending so that tests can read every
 * attribute back without a kernel.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/udp.h>

#include "xfrm.h"

#ifndef UDP_ENCAP_ESPINUDP
#define UDP_ENCAP_ESPINUDP 2
#endif

static uint64_t lim(uint64_t v)
{
	return v ? v : XFRM_INF;
}

static void put_lifetime(struct xfrm_lifetime_cfg *l,
			 const struct ikb_lifetime *life)
{
	l->soft_byte_limit = lim(life->soft_bytes);
	l->hard_byte_limit = lim(life->hard_bytes);
	l->soft_packet_limit = lim(life->soft_packets);
	l->hard_packet_limit = lim(life->hard_packets);
	l->soft_add_expires_seconds = life->soft_add_secs;
	l->hard_add_expires_seconds = life->hard_add_secs;
}

static void put_encap(struct nlmsghdr *nlh, const struct ikb_sa *sa)
{
	struct xfrm_encap_tmpl e = {
		.encap_type = UDP_ENCAP_ESPINUDP,
		.encap_sport = htons(sa->encap_sport),
		.encap_dport = htons(sa->encap_dport),
	};

	if (sa->encap_sport || sa->encap_dport)
		mnl_attr_put(nlh, XFRMA_ENCAP, sizeof(e), &e);
}

static int check_sa(const struct ikb_sa *sa, struct ikb_error *err)
{
	if (sa->dst.family != AF_INET && sa->dst.family != AF_INET6)
		return ikb_error_set(err, EAFNOSUPPORT,
				     "SA destination is neither IPv4 nor IPv6");
	if (sa->src.family != sa->dst.family)
		return ikb_error_set(
			err, EAFNOSUPPORT,
			"SA addresses must be both IPv4 or both IPv6");
	if (sa->dir != IKB_DIR_IN && sa->dir != IKB_DIR_OUT)
		return ikb_error_set(err, EINVAL,
				     "SA direction %d is neither in nor out",
				     (int)sa->dir);
	return 0;
}

struct nlmsghdr *xfrm_build_sa(void *buf, uint16_t type,
			       const struct ikb_sa *sa,
			       const struct xfrm_sa_opts *o,
			       struct ikb_error *err)
{
	struct nlmsghdr *nlh = xfrm_nl_start(buf, type, 0);
	struct xfrm_usersa_info *p;
	int rc = check_sa(sa, err);

	p = mnl_nlmsg_put_extra_header(nlh, sizeof(*p));
	if (!rc)
		rc = xfrm_reqid_to_kernel(sa->reqid, &p->reqid, err);
	if (rc)
		return NULL;
	if (sa->sel.src.family != AF_UNSPEC || sa->sel.dst.family != AF_UNSPEC)
		xfrm_sel_put(&p->sel, &sa->sel);
	xfrm_addr_put(&p->id.daddr, &sa->dst);
	xfrm_addr_put(&p->saddr, &sa->src);
	p->id.spi = htonl(sa->spi);
	p->id.proto = sa->proto;
	p->family = sa->dst.family;
	p->mode = sa->mode == IKB_MODE_TUNNEL ? XFRM_MODE_TUNNEL :
						XFRM_MODE_TRANSPORT;
	put_lifetime(&p->lft, &sa->life);
	if (xfrm_pcpu_out(sa))
		rc = xfrm_pcpu_put(nlh, p, sa, err);
	else
		rc = xfrm_replay_put(nlh, p, sa, err);
	if (rc || xfrm_algs_put(nlh, sa, err) ||
	    xfrm_offload_put(nlh, sa, o, err))
		return NULL;
	put_encap(nlh, sa);
	xfrm_mark_put(nlh, sa->mark, sa->mark_mask);
	xfrm_if_id_put(nlh, sa->if_id);
	return nlh;
}

static int send_sa(struct xfrm_state *st, uint16_t type,
		   const struct ikb_sa *sa, const struct xfrm_sa_opts *o,
		   struct ikb_error *err)
{
	char buf[XFRM_BUF];
	struct nlmsghdr *nlh = xfrm_build_sa(buf, type, sa, o, err);
	int rc;

	if (!nlh)
		rc = -EINVAL;
	else
		rc = xfrm_nl_talk(st, nlh, NULL, NULL, err);
	explicit_bzero(buf, sizeof(buf));
	return rc;
}

/*
 * pcrypt and nic-offload ask for what the kernel may not do; the SA then
 * records what it got. A refused nic-offload=yes is worth one attempt in
 * software.
 */
static int install(struct xfrm_state *st, uint16_t type, struct ikb_sa *sa,
		   struct ikb_error *err)
{
	struct xfrm_sa_opts o = { .no_offload = false };
	struct ikb_error first;
	int rc;

	sa->offload_fallback = false;
	xfrm_pcrypt_apply(st, sa);
	rc = xfrm_offload_prepare(st, sa, &o, err);
	if (rc)
		return rc;
	rc = send_sa(st, type, sa, &o, err);
	if (rc && rc != -EEXIST && xfrm_offload_wanted(sa, &o) &&
	    sa->offload == IKB_OFFLOAD_YES) {
		first = *err;
		o.no_offload = true;
		rc = send_sa(st, type, sa, &o, err);
		if (!rc)
			xfrm_offload_soft(st, sa, first.msg);
		return rc;
	}
	if (!rc && xfrm_offload_wanted(sa, &o))
		rc = xfrm_offload_check(st, sa, err);
	return rc;
}

int xfrm_sa_add(void *state, struct ikb_sa *sa, struct ikb_error *err)
{
	return install(state, XFRM_MSG_NEWSA, sa, err);
}

int xfrm_sa_update(void *state, struct ikb_sa *sa, struct ikb_error *err)
{
	return install(state, XFRM_MSG_UPDSA, sa, err);
}
