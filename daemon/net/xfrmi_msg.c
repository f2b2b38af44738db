// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rtnetlink messages of XFRM interfaces, built and parsed without a
 * socket (net/xfrmi.c sends them), so that a unit test checks each
 * attribute.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "net/xfrmi.h"

static struct nlmsghdr *start(void *buf, uint32_t seq, uint16_t type,
			      uint16_t flags, int ifindex)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;

	memset(buf, 0, XFRMI_MSG_MAX);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return nlh;
}

struct nlmsghdr *xfrmi_msg_new(void *buf, uint32_t seq, const char *name,
			       uint32_t if_id, uint32_t link)
{
	struct nlmsghdr *nlh = start(buf, seq, RTM_NEWLINK,
				     NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL, 0);
	struct nlattr *info, *data;

	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "xfrm");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u32(nlh, IFLA_XFRM_IF_ID, if_id);
	if (link)
		mnl_attr_put_u32(nlh, IFLA_XFRM_LINK, link);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	return nlh;
}

struct nlmsghdr *xfrmi_msg_up(void *buf, uint32_t seq, int ifindex)
{
	struct nlmsghdr *nlh = start(buf, seq, RTM_NEWLINK, NLM_F_ACK, ifindex);
	struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

	ifi->ifi_flags = IFF_UP;
	ifi->ifi_change = IFF_UP;
	return nlh;
}

struct nlmsghdr *xfrmi_msg_del(void *buf, uint32_t seq, int ifindex)
{
	return start(buf, seq, RTM_DELLINK, NLM_F_ACK, ifindex);
}

struct nlmsghdr *xfrmi_msg_get(void *buf, uint32_t seq, const char *name)
{
	struct nlmsghdr *nlh = start(buf, seq, RTM_GETLINK, 0, 0);

	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nlh;
}

static int data_attr(const struct nlattr *at, void *arg)
{
	struct xfrmi_link *l = arg;
	uint16_t type = mnl_attr_get_type(at);

	if ((type == IFLA_XFRM_IF_ID || type == IFLA_XFRM_LINK) &&
	    mnl_attr_validate(at, MNL_TYPE_U32) == 0) {
		if (type == IFLA_XFRM_IF_ID)
			l->if_id = mnl_attr_get_u32(at);
		else
			l->link = mnl_attr_get_u32(at);
	}
	return MNL_CB_OK;
}

static int info_attr(const struct nlattr *at, void *arg)
{
	struct xfrmi_link *l = arg;

	switch (mnl_attr_get_type(at)) {
	case IFLA_INFO_KIND:
		l->xfrm = mnl_attr_validate(at, MNL_TYPE_NUL_STRING) == 0 &&
			  !strcmp(mnl_attr_get_str(at), "xfrm");
		break;
	case IFLA_INFO_DATA:
		mnl_attr_parse_nested(at, data_attr, l);
		break;
	}
	return MNL_CB_OK;
}

static int link_attr(const struct nlattr *at, void *arg)
{
	if (mnl_attr_get_type(at) == IFLA_LINKINFO)
		mnl_attr_parse_nested(at, info_attr, arg);
	return MNL_CB_OK;
}

int xfrmi_parse_link(const struct nlmsghdr *nlh, struct xfrmi_link *out)
{
	const struct ifinfomsg *ifi;

	memset(out, 0, sizeof(*out));
	if (nlh->nlmsg_type != RTM_NEWLINK ||
	    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*ifi)))
		return -EINVAL;
	ifi = mnl_nlmsg_get_payload(nlh);
	out->ifindex = ifi->ifi_index;
	out->up = ifi->ifi_flags & IFF_UP;
	if (mnl_attr_parse(nlh, sizeof(*ifi), link_attr, out) < 0)
		return -EINVAL;
	return 0;
}
