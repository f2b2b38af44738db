// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * XFRM_MSG_NEWSA and XFRM_MSG_UPDSA (which fills a larval SA left by
 * ALLOCSPI). Building is apart from sending so that tests can read every
 * attribute back without a kernel.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
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

static int put_offload(struct nlmsghdr *nlh, const struct ikb_sa *sa,
		       const struct xfrm_sa_opts *o, struct ikb_error *err)
{
	struct xfrm_user_offload off = { 0 };

	if (sa->offload == IKB_OFFLOAD_NO || (o && o->no_offload))
		return 0;
	if (!sa->offload_dev[0]) {
		/* yes means "where possible": no device, no offload. */
		if (sa->offload == IKB_OFFLOAD_YES)
			return 0;
		return ikb_error_set(
			err, EINVAL,
			"nic-offload=%s needs a device to offload to",
			sa->offload == IKB_OFFLOAD_PACKET ? "packet" :
							    "crypto");
	}
	off.ifindex = (int)if_nametoindex(sa->offload_dev);
	if (!off.ifindex)
		return ikb_error_set(err, ENODEV, "offload device %.16s: %s",
				     sa->offload_dev, strerror(errno));
	if (sa->dir == IKB_DIR_IN)
		off.flags |= XFRM_OFFLOAD_INBOUND;
	if (sa->offload == IKB_OFFLOAD_PACKET)
		off.flags |= XFRM_OFFLOAD_PACKET;
	mnl_attr_put(nlh, XFRMA_OFFLOAD_DEV, sizeof(off), &off);
	return 0;
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
	if (sa->cpu >= 0)
		return ikb_error_set(
			err, EOPNOTSUPP,
			"per-CPU SAs (RFC 9611) need XFRMA_SA_PCPU, which this build's kernel headers lack");
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
	if (xfrm_algs_put(nlh, sa, err) || xfrm_replay_put(nlh, p, sa, err) ||
	    put_offload(nlh, sa, o, err))
		return NULL;
	put_encap(nlh, sa);
	xfrm_mark_put(nlh, sa->mark, sa->mark_mask);
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

static void soft_notice(struct xfrm_state *st, const struct ikb_sa *sa,
			const char *why)
{
	if (st->offload_noticed)
		return;
	st->offload_noticed = true;
	st->host->log(
		"kernel-xfrm", IKB_LOG_NOTICE,
		"nic-offload=yes: SA 0x%08x runs in software (%s); further SAs fall back silently",
		sa->spi, why);
}

/* Does the kernel's copy of the SA carry a device? */
static int offload_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;
	bool *on = data;

	mnl_attr_for_each(
		a, nlh,
		sizeof(struct xfrm_usersa_info)) if (mnl_attr_get_type(a) ==
						     XFRMA_OFFLOAD_DEV) *on =
		true;
	return MNL_CB_OK;
}

/*
 * Linux takes a crypto-offload request for a device that cannot offload
 * and quietly runs the SA in software. Ask which it did.
 */
static int offload_check(struct xfrm_state *st, const struct ikb_sa *sa,
			 struct ikb_error *err)
{
	char buf[XFRM_BUF];
	struct nlmsghdr *nlh;
	struct ikb_error e2;
	bool on = false;
	int rc;

	nlh = xfrm_build_said(buf, XFRM_MSG_GETSA, &sa->dst, sa->spi, sa->proto,
			      sa->mark, sa->mark_mask);
	rc = xfrm_nl_talk(st, nlh, offload_cb, &on, err);
	if (rc || on)
		return rc;
	if (sa->offload == IKB_OFFLOAD_YES) {
		soft_notice(st, sa, "the kernel did not offload it");
		return 0;
	}
	xfrm_sa_del(st, &sa->dst, sa->spi, sa->proto, &e2);
	return ikb_error_set(
		err, EOPNOTSUPP,
		"kernel: device %.16s does not offload ESP; SA 0x%08x removed",
		sa->offload_dev, sa->spi);
}

static void pcrypt_prepare(struct xfrm_state *st, const struct ikb_sa *sa)
{
	/* After one miss, the template will not appear: stop asking. */
	if (!sa->pcrypt || !sa->aead.name[0] || st->pcrypt_warned)
		return;
	if (!xfrm_pcrypt_ready(st, sa->aead.name)) {
		st->pcrypt_warned = true;
		st->host->log(
			"kernel-xfrm", IKB_LOG_WARNING,
			"pcrypt=yes: the kernel has no pcrypt template for %s; SAs use it without pcrypt",
			sa->aead.name);
	}
}

static int install(struct xfrm_state *st, uint16_t type,
		   const struct ikb_sa *sa, struct ikb_error *err)
{
	struct xfrm_sa_opts o = { .no_offload = false };
	bool wants = sa->offload != IKB_OFFLOAD_NO && sa->offload_dev[0];
	struct ikb_error first;
	int rc;

	pcrypt_prepare(st, sa);
	rc = send_sa(st, type, sa, &o, err);
	/* nic-offload=yes: a refusal is worth one software attempt. */
	if (rc && wants && sa->offload == IKB_OFFLOAD_YES && rc != -EEXIST) {
		first = *err;
		o.no_offload = true;
		rc = send_sa(st, type, sa, &o, err);
		if (rc)
			return rc;
		soft_notice(st, sa, first.msg);
		return 0;
	}
	if (!rc && wants)
		rc = offload_check(st, sa, err);
	return rc;
}

int xfrm_sa_add(void *state, const struct ikb_sa *sa, struct ikb_error *err)
{
	return install(state, XFRM_MSG_NEWSA, sa, err);
}

int xfrm_sa_update(void *state, const struct ikb_sa *sa, struct ikb_error *err)
{
	return install(state, XFRM_MSG_UPDSA, sa, err);
}
