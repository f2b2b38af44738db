// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The device an SA's packets leave by: RTM_GETROUTE to the peer, from our
 * address, as `ip route get PEER from LOCAL` asks. nic-offload= puts the
 * SA on that device, in both directions: the inbound SA's packets arrive
 * on the device that leads back to the peer.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "xfrm.h"

static void put_addr(struct nlmsghdr *nlh, uint16_t type,
		     const struct ikb_addr *a)
{
	mnl_attr_put(nlh, type, a->family == AF_INET6 ? 16 : 4, a->bytes);
}

struct nlmsghdr *xfrm_build_getroute(void *buf, const struct ikb_addr *to,
				     const struct ikb_addr *from)
{
	struct nlmsghdr *nlh = xfrm_nl_start(buf, RTM_GETROUTE, 0);
	struct rtmsg *r = mnl_nlmsg_put_extra_header(nlh, sizeof(*r));

	r->rtm_family = to->family;
	r->rtm_dst_len = to->family == AF_INET6 ? 128 : 32;
	put_addr(nlh, RTA_DST, to);
	if (from && from->family == to->family) {
		r->rtm_src_len = r->rtm_dst_len;
		put_addr(nlh, RTA_SRC, from);
	}
	return nlh;
}

static int oif_attr(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == RTA_OIF &&
	    mnl_attr_validate(a, MNL_TYPE_U32) == 0)
		*(uint32_t *)data = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

int xfrm_route_oif(const struct nlmsghdr *nlh, uint32_t *oif)
{
	if (nlh->nlmsg_type != RTM_NEWROUTE ||
	    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(struct rtmsg)))
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(struct rtmsg), oif_attr, oif);
	return MNL_CB_OK;
}

static int oif_cb(const struct nlmsghdr *nlh, void *data)
{
	return xfrm_route_oif(nlh, data);
}

int xfrm_route_dev(const struct ikb_sa *sa, char *dev, size_t len,
		   struct ikb_error *err)
{
	const struct ikb_addr *peer =
		sa->dir == IKB_DIR_IN ? &sa->src : &sa->dst;
	const struct ikb_addr *local =
		sa->dir == IKB_DIR_IN ? &sa->dst : &sa->src;
	char buf[XFRM_BUF], name[IF_NAMESIZE], a[64];
	struct ikb_error why = { "" };
	uint32_t oif = 0;
	int rc;

	if (peer->family != AF_INET && peer->family != AF_INET6)
		return ikb_error_set(err, EAFNOSUPPORT,
				     "the peer's address is not IPv4 or IPv6");
	rc = xfrm_nl_once(NETLINK_ROUTE, "route",
			  xfrm_build_getroute(buf, peer, local), oif_cb, &oif,
			  &why);
	xfrm_addr_str(peer, a, sizeof(a));
	if (rc)
		return ikb_error_set(err, -rc, "route to %s: %s", a, why.msg);
	if (!oif || !if_indextoname(oif, name))
		return ikb_error_set(err, ENODEV,
				     "route to %s: no output device", a);
	if (strlen(name) >= len)
		return ikb_error_set(err, ENAMETOOLONG,
				     "route to %s: device name %s too long", a,
				     name);
	snprintf(dev, len, "%s", name);
	return 0;
}
