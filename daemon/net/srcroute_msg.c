// SPDX-License-Identifier: GPL-2.0-or-later
/* The rtnetlink messages of leftsourceip= (net/srcroute.h). */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include "net/srcroute.h"

static size_t addr_len(const struct ikb_addr *a)
{
	return a->family == AF_INET6 ? 16 : 4;
}

static uint8_t host_plen(const struct ikb_addr *a)
{
	return a->family == AF_INET6 ? 128 : 32;
}

static struct nlmsghdr *start(void *buf, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh;

	memset(buf, 0, SRCROUTE_MSG_MAX);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	return nlh;
}

struct nlmsghdr *srcroute_msg_get(void *buf, const struct ikb_addr *dst)
{
	struct nlmsghdr *nlh = start(buf, RTM_GETROUTE, 0);
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));

	rtm->rtm_family = (uint8_t)dst->family;
	rtm->rtm_dst_len = host_plen(dst);
	mnl_attr_put(nlh, RTA_DST, addr_len(dst), dst->bytes);
	return nlh;
}

struct parsed {
	uint32_t oif;
	struct ikb_addr via;
};

static int on_attr(const struct nlattr *at, void *arg)
{
	struct parsed *p = arg;
	uint16_t type = mnl_attr_get_type(at), len;

	if (type == RTA_OIF && !mnl_attr_validate(at, MNL_TYPE_U32))
		p->oif = mnl_attr_get_u32(at);
	len = mnl_attr_get_payload_len(at);
	if (type == RTA_GATEWAY && len <= sizeof(p->via.bytes) &&
	    len == addr_len(&p->via))
		memcpy(p->via.bytes, mnl_attr_get_payload(at), len);
	return MNL_CB_OK;
}

int srcroute_parse_route(const struct nlmsghdr *nlh, uint32_t *oif,
			 struct ikb_addr *via)
{
	const struct rtmsg *rtm;
	struct parsed p = { 0 };

	if (nlh->nlmsg_type != RTM_NEWROUTE ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*rtm))
		return -EINVAL;
	rtm = mnl_nlmsg_get_payload(nlh);
	if (rtm->rtm_family != AF_INET && rtm->rtm_family != AF_INET6)
		return -EINVAL;
	p.via.family = rtm->rtm_family;
	mnl_attr_parse(nlh, sizeof(*rtm), on_attr, &p);
	if (!p.oif)
		return -EINVAL;
	*oif = p.oif;
	/* no gateway: the destination is on the link */
	static const uint8_t zero[16];

	if (!memcmp(p.via.bytes, zero, sizeof(zero)))
		p.via.family = AF_UNSPEC;
	*via = p.via;
	return 0;
}

struct nlmsghdr *srcroute_msg_addr(void *buf, bool add,
				   const struct ikb_addr *a, uint32_t ifindex)
{
	return srcroute_msg_ifaddr(buf, add, a, host_plen(a), ifindex);
}

struct nlmsghdr *srcroute_msg_ifaddr(void *buf, bool add,
				     const struct ikb_addr *a, uint8_t plen,
				     uint32_t ifindex)
{
	struct nlmsghdr *nlh = start(buf, add ? RTM_NEWADDR : RTM_DELADDR,
				     add ? NLM_F_CREATE | NLM_F_EXCL : 0);
	struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));

	ifa->ifa_family = (uint8_t)a->family;
	ifa->ifa_prefixlen = plen;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = ifindex;
	/* usable at once: no duplicate address detection (as ip's nodad) */
	if (a->family == AF_INET6)
		mnl_attr_put_u32(nlh, IFA_FLAGS, IFA_F_NODAD);
	mnl_attr_put(nlh, IFA_LOCAL, addr_len(a), a->bytes);
	mnl_attr_put(nlh, IFA_ADDRESS, addr_len(a), a->bytes);
	return nlh;
}

struct nlmsghdr *srcroute_msg_route(void *buf, bool add,
				    const struct srcroute *r)
{
	struct nlmsghdr *nlh = start(buf, add ? RTM_NEWROUTE : RTM_DELROUTE,
				     add ? NLM_F_CREATE | NLM_F_REPLACE : 0);
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	/* the peer on the link: traffic to its subnet goes through it */
	const struct ikb_addr *via = r->via.family ? &r->via : &r->peer;

	rtm->rtm_family = (uint8_t)r->net.family;
	rtm->rtm_dst_len = r->plen;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_STATIC;
	rtm->rtm_scope = RT_SCOPE_UNIVERSE;
	rtm->rtm_type = RTN_UNICAST;
	mnl_attr_put(nlh, RTA_DST, addr_len(&r->net), r->net.bytes);
	mnl_attr_put_u32(nlh, RTA_OIF, r->ifindex);
	if (add) {
		mnl_attr_put(nlh, RTA_GATEWAY, addr_len(via), via->bytes);
		mnl_attr_put(nlh, RTA_PREFSRC, addr_len(&r->src), r->src.bytes);
	}
	return nlh;
}
