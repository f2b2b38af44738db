// SPDX-License-Identifier: GPL-2.0-or-later
/* leftsourceip= through rtnetlink (net/srcroute.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>

#include "net/rtnl.h"
#include "net/srcroute.h"

struct route_ans {
	uint32_t oif;
	struct ikb_addr via;
	bool have;
};

static int on_route(const struct nlmsghdr *nlh, void *arg)
{
	struct route_ans *a = arg;

	if (!srcroute_parse_route(nlh, &a->oif, &a->via))
		a->have = true;
	return MNL_CB_OK;
}

static const char *astr(const struct ikb_addr *a, char *buf, size_t len)
{
	if (!a->family || !inet_ntop(a->family, a->bytes, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

static int peer_route(struct rtnl *t, struct srcroute *r, char *err, size_t len)
{
	char buf[SRCROUTE_MSG_MAX], p[INET6_ADDRSTRLEN];
	struct route_ans a = { 0 };
	int rc = rtnl_ask(t, srcroute_msg_get(buf, &r->peer), on_route, &a);

	if (!rc && !a.have)
		rc = -ENETUNREACH;
	if (rc) {
		snprintf(err, len, "no route to the peer %s: %s",
			 astr(&r->peer, p, sizeof(p)), strerror(-rc));
		return rc;
	}
	r->ifindex = a.oif;
	r->via = a.via;
	return 0;
}

int srcroute_add(struct srcroute *r, bool add_addr, char *err, size_t len)
{
	char buf[SRCROUTE_MSG_MAX], s[INET6_ADDRSTRLEN], n[INET6_ADDRSTRLEN];
	char dev[IF_NAMESIZE] = "?";
	struct rtnl t;
	int rc = rtnl_open(&t);

	if (rc) {
		snprintf(err, len, "rtnetlink: %s", strerror(-rc));
		return rc;
	}
	rc = peer_route(&t, r, err, len);
	if (!rc)
		if_indextoname(r->ifindex, dev);
	if (!rc && add_addr) {
		rc = rtnl_ask(&t,
			      srcroute_msg_addr(buf, true, &r->src, r->ifindex),
			      NULL, NULL);
		if (rc == -EEXIST)
			rc = 0;
		if (rc)
			snprintf(err, len, "cannot add %s to %s: %s",
				 astr(&r->src, s, sizeof(s)), dev,
				 strerror(-rc));
	}
	if (!rc) {
		rc = rtnl_ask(&t, srcroute_msg_route(buf, true, r), NULL, NULL);
		if (rc)
			snprintf(err, len,
				 "cannot route %s/%u dev %s src %s: %s",
				 astr(&r->net, n, sizeof(n)), r->plen, dev,
				 astr(&r->src, s, sizeof(s)), strerror(-rc));
		/* not left half done */
		if (rc && add_addr)
			rtnl_ask(&t,
				 srcroute_msg_addr(buf, false, &r->src,
						   r->ifindex),
				 NULL, NULL);
	}
	rtnl_close(&t);
	return rc;
}

int srcroute_del(const struct srcroute *r, bool del_addr, char *err, size_t len)
{
	char buf[SRCROUTE_MSG_MAX], s[INET6_ADDRSTRLEN], n[INET6_ADDRSTRLEN];
	struct rtnl t;
	int rc = rtnl_open(&t), rc2 = 0;

	if (rc) {
		snprintf(err, len, "rtnetlink: %s", strerror(-rc));
		return rc;
	}
	rc = rtnl_ask(&t, srcroute_msg_route(buf, false, r), NULL, NULL);
	/* gone already (the device went, an admin removed it): fine */
	if (rc == -ESRCH || rc == -ENODEV)
		rc = 0;
	if (rc)
		snprintf(err, len, "cannot remove the route to %s/%u: %s",
			 astr(&r->net, n, sizeof(n)), r->plen, strerror(-rc));
	if (del_addr) {
		rc2 = rtnl_ask(
			&t, srcroute_msg_addr(buf, false, &r->src, r->ifindex),
			NULL, NULL);
		if (rc2 == -EADDRNOTAVAIL || rc2 == -ENODEV)
			rc2 = 0;
		if (rc2 && !rc)
			snprintf(err, len, "cannot remove %s: %s",
				 astr(&r->src, s, sizeof(s)), strerror(-rc2));
	}
	rtnl_close(&t);
	return rc ? rc : rc2;
}
