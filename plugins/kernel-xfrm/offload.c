// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nic-offload= at install: XFRMA_OFFLOAD_DEV on the device of the route to
 * the peer. crypto and packet are honoured or the SA is refused; yes takes
 * the device when it can and otherwise runs in software, with one notice
 * per run. Linux takes a crypto-offload request for a device that cannot
 * offload (veth) and quietly runs the SA in software, so the SA is read
 * back after the install to see which the kernel did.
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "xfrm.h"

static const char *mode_name(enum ikb_offload m)
{
	return m == IKB_OFFLOAD_PACKET ? "packet" :
	       m == IKB_OFFLOAD_CRYPTO ? "crypto" :
	       m == IKB_OFFLOAD_YES    ? "yes" :
					 "no";
}

bool xfrm_offload_wanted(const struct ikb_sa *sa, const struct xfrm_sa_opts *o)
{
	return sa->offload != IKB_OFFLOAD_NO && !(o && o->no_offload);
}

int xfrm_offload_put(struct nlmsghdr *nlh, const struct ikb_sa *sa,
		     const struct xfrm_sa_opts *o, struct ikb_error *err)
{
	struct xfrm_user_offload off = { 0 };

	if (!xfrm_offload_wanted(sa, o))
		return 0;
	if (!sa->offload_dev[0]) {
		/* yes means "where possible": no device, no offload. */
		if (sa->offload == IKB_OFFLOAD_YES)
			return 0;
		return ikb_error_set(
			err, EINVAL,
			"nic-offload=%s needs a device to offload to",
			mode_name(sa->offload));
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

void xfrm_offload_soft(struct xfrm_state *st, struct ikb_sa *sa,
		       const char *why)
{
	sa->offload_fallback = true;
	if (st->offload_noticed)
		return;
	st->offload_noticed = true;
	st->host->log(
		"kernel-xfrm", IKB_LOG_NOTICE,
		"nic-offload=yes: SA 0x%08x runs in software (%s); later SAs that cannot be offloaded fall back without a notice",
		sa->spi, why);
}

int xfrm_offload_prepare(struct xfrm_state *st, struct ikb_sa *sa,
			 struct xfrm_sa_opts *o, struct ikb_error *err)
{
	struct ikb_error e = { "" };
	int rc;

	if (sa->offload == IKB_OFFLOAD_NO || sa->offload_dev[0])
		return 0;
	rc = (st->route_dev ? st->route_dev : xfrm_route_dev)(
		sa, sa->offload_dev, sizeof(sa->offload_dev), &e);
	if (!rc)
		return 0;
	if (sa->offload != IKB_OFFLOAD_YES)
		return ikb_error_set(
			err, -rc, "nic-offload=%s: no device to offload to: %s",
			mode_name(sa->offload), e.msg);
	o->no_offload = true;
	xfrm_offload_soft(st, sa, e.msg);
	return 0;
}

/* Does the kernel's copy of the SA carry a device? */
static int offload_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;
	bool *on = data;

	mnl_attr_for_each(a, nlh, sizeof(struct xfrm_usersa_info))
	{
		if (mnl_attr_get_type(a) == XFRMA_OFFLOAD_DEV)
			*on = true;
	}
	return MNL_CB_OK;
}

int xfrm_offload_check(struct xfrm_state *st, struct ikb_sa *sa,
		       struct ikb_error *err)
{
	char buf[XFRM_BUF], why[64];
	struct nlmsghdr *nlh;
	struct ikb_error e2;
	bool on = false;
	int rc;

	nlh = xfrm_build_said(buf, XFRM_MSG_GETSA, &sa->dst, sa->spi, sa->proto,
			      sa->mark, sa->mark_mask);
	rc = xfrm_nl_talk(st, nlh, offload_cb, &on, err);
	if (rc)
		return rc;
	if (on) {
		if (sa->offload == IKB_OFFLOAD_YES)
			sa->offload = IKB_OFFLOAD_CRYPTO;
		return 0;
	}
	if (sa->offload == IKB_OFFLOAD_YES) {
		snprintf(why, sizeof(why), "%.16s cannot offload ESP",
			 sa->offload_dev);
		xfrm_offload_soft(st, sa, why);
		return 0;
	}
	xfrm_sa_del(st, &sa->dst, sa->spi, sa->proto, &e2);
	return ikb_error_set(
		err, EOPNOTSUPP,
		"device %.16s cannot offload ESP: the kernel put SA 0x%08x in software, which nic-offload=%s refuses (yes allows it); the SA is removed",
		sa->offload_dev, sa->spi, mode_name(sa->offload));
}
