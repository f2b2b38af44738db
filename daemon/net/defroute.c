// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * %defaultroute from the kernel: one rtnetlink dump of the routes and
 * one of the addresses, through libmnl, then defroute_pick(). A dump is
 * a few kilobytes and the kernel answers at once; it still runs on a
 * helper thread with the DNS lookups, as every lookup of a host does.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include "net/defroute.h"

#define DUMP_MAX 256

struct dump {
	struct defroute_route r[DUMP_MAX];
	size_t nr;
	struct defroute_addr a[DUMP_MAX];
	size_t na;
};

static void set_addr(struct ikb_addr *a, int family, const struct nlattr *at)
{
	size_t len = family == AF_INET ? 4 : 16;

	if (mnl_attr_get_payload_len(at) < len)
		return;
	memset(a, 0, sizeof(*a));
	a->family = (sa_family_t)family;
	memcpy(a->bytes, mnl_attr_get_payload(at), len);
}

static int route_attr(const struct nlattr *at, void *arg)
{
	struct defroute_route *r = arg;

	switch (mnl_attr_get_type(at)) {
	case RTA_OIF:
		r->oif = (int)mnl_attr_get_u32(at);
		break;
	case RTA_PRIORITY:
		r->metric = mnl_attr_get_u32(at);
		break;
	case RTA_PREFSRC:
		set_addr(&r->prefsrc, r->family, at);
		break;
	}
	return MNL_CB_OK;
}

static int on_route(const struct nlmsghdr *nlh, void *arg)
{
	struct dump *d = arg;
	const struct rtmsg *rt = mnl_nlmsg_get_payload(nlh);
	struct defroute_route r = { .family = rt->rtm_family };

	if (rt->rtm_dst_len || rt->rtm_table != RT_TABLE_MAIN ||
	    rt->rtm_type != RTN_UNICAST || d->nr == DUMP_MAX)
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(*rt), route_attr, &r);
	if (r.oif)
		d->r[d->nr++] = r;
	return MNL_CB_OK;
}

struct addr_ctx {
	struct defroute_addr a;
	int family;
	bool local; /* IFA_LOCAL seen */
};

static int addr_attr(const struct nlattr *at, void *arg)
{
	struct addr_ctx *c = arg;
	int type = mnl_attr_get_type(at);

	/* IFA_LOCAL is ours on a point-to-point link, IFA_ADDRESS the peer */
	if (type == IFA_LOCAL || (type == IFA_ADDRESS && !c->local))
		set_addr(&c->a.addr, c->family, at);
	if (type == IFA_LOCAL)
		c->local = true;
	if (type == IFA_FLAGS)
		c->a.flags = mnl_attr_get_u32(at);
	return MNL_CB_OK;
}

static int on_addr(const struct nlmsghdr *nlh, void *arg)
{
	struct dump *d = arg;
	const struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);
	struct addr_ctx c = {
		.a = { .ifindex = (int)ifa->ifa_index,
		       .scope = ifa->ifa_scope,
		       .flags = ifa->ifa_flags },
		.family = ifa->ifa_family,
	};

	if (d->na == DUMP_MAX || (c.family != AF_INET && c.family != AF_INET6))
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(*ifa), addr_attr, &c);
	if (c.a.addr.family)
		d->a[d->na++] = c.a;
	return MNL_CB_OK;
}

static int dump(struct mnl_socket *nl, uint16_t type, size_t hdrlen,
		mnl_cb_t cb, struct dump *d)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	unsigned seq = (unsigned)time(NULL) + type;
	unsigned portid = mnl_socket_get_portid(nl);
	ssize_t n;
	int rc = MNL_CB_OK;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	/* AF_UNSPEC in the family byte of either header: every family */
	memset(mnl_nlmsg_put_extra_header(nlh, hdrlen), 0, hdrlen);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	while (rc > MNL_CB_STOP) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		rc = mnl_cb_run(buf, (size_t)n, seq, portid, cb, d);
	}
	return rc < 0 ? -errno : 0;
}

int defroute_addr(int family, struct ikb_addr *out)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_ROUTE);
	struct dump *d = calloc(1, sizeof(*d));
	int rc = !nl || !d ? -errno : 0;

	if (!rc && mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		rc = -errno;
	if (!rc)
		rc = dump(nl, RTM_GETROUTE, sizeof(struct rtmsg), on_route, d);
	if (!rc)
		rc = dump(nl, RTM_GETADDR, sizeof(struct ifaddrmsg), on_addr,
			  d);
	if (!rc)
		rc = defroute_pick(family, d->r, d->nr, d->a, d->na, out);
	if (nl)
		mnl_socket_close(nl);
	free(d);
	return rc;
}
