// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * XFRM interfaces through rtnetlink: one short-lived socket per call.
 * They are made when a configuration is loaded, a few per load, so a
 * socket kept open would buy nothing.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "net/rtnl.h"
#include "net/xfrmi.h"

struct talk {
	struct rtnl r;
	struct xfrmi_link got; /* a GETLINK's answer */
	bool have;
};

static int on_link(const struct nlmsghdr *nlh, void *arg)
{
	struct talk *t = arg;

	if (!xfrmi_parse_link(nlh, &t->got))
		t->have = true;
	return MNL_CB_OK;
}

/* Sends nlh and reads until its ACK or error: 0 or -errno. */
static int ask(struct talk *t, struct nlmsghdr *nlh)
{
	return rtnl_ask(&t->r, nlh, on_link, t);
}

static int talk_open(struct talk *t)
{
	memset(t, 0, sizeof(*t));
	return rtnl_open(&t->r);
}

static bool same_addr(const struct sockaddr *sa, const struct ikb_addr *a)
{
	if (!sa || sa->sa_family != a->family)
		return false;
	if (a->family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)sa)->sin_addr,
			       a->bytes, 4);
	return a->family == AF_INET6 &&
	       !memcmp(&((const struct sockaddr_in6 *)sa)->sin6_addr, a->bytes,
		       16);
}

/* The ifindex of the device holding local, as libreswan links to; 0. */
static uint32_t link_of(const struct ikb_addr *local)
{
	struct ifaddrs *all, *i;
	uint32_t idx = 0;

	if (!local || local->family == AF_UNSPEC || getifaddrs(&all))
		return 0;
	for (i = all; i && !idx; i = i->ifa_next) {
		char name[IF_NAMESIZE];

		if (!same_addr(i->ifa_addr, local))
			continue;
		/* an IPv4 label (eth0:1) names its device before the colon */
		snprintf(name, sizeof(name), "%s", i->ifa_name);
		name[strcspn(name, ":")] = '\0';
		idx = if_nametoindex(name);
	}
	freeifaddrs(all);
	return idx;
}

static int lookup(struct talk *t, const char *name)
{
	char buf[XFRMI_MSG_MAX];
	int rc;

	t->have = false;
	rc = ask(t, xfrmi_msg_get(buf, 0, name));
	return !rc && !t->have ? -ENODEV : rc;
}

/* name exists: ours to use when it is XFRM with our if_id. */
static int adopt(struct talk *t, const char *name, uint32_t if_id, char *err,
		 size_t errlen)
{
	int rc = lookup(t, name);

	if (rc) {
		snprintf(err, errlen, "%s exists but cannot be read: %s", name,
			 strerror(-rc));
		return rc;
	}
	if (!t->got.xfrm) {
		snprintf(
			err, errlen,
			"%s exists and is no XFRM interface: it is not ours, and is left as it is (see ip -d link show %s)",
			name, name);
		return -EEXIST;
	}
	if (t->got.if_id != if_id) {
		snprintf(
			err, errlen,
			"%s exists with if_id %" PRIu32 ", not %" PRIu32
			": it is not ours, and is left as it is (see ip -d link show %s)",
			name, t->got.if_id, if_id, name);
		return -EEXIST;
	}
	return 0;
}

/* name by its ifindex now: 0 or -errno. */
static int del(struct talk *t, const char *name)
{
	char buf[XFRMI_MSG_MAX];
	int rc = lookup(t, name);

	return rc ? rc : ask(t, xfrmi_msg_del(buf, 0, t->got.ifindex));
}

static int set_up(struct talk *t, const char *name, char *err, size_t errlen)
{
	char buf[XFRMI_MSG_MAX];
	int rc = lookup(t, name);

	if (!rc && !t->got.up)
		rc = ask(t, xfrmi_msg_up(buf, 0, t->got.ifindex));
	if (rc)
		snprintf(err, errlen, "cannot bring %s up: %s", name,
			 strerror(-rc));
	return rc;
}

/* ipsec-interface-managed=no: one made beforehand, used as it is. */
static int use_only(struct talk *t, const char *name, uint32_t if_id,
		    char *err, size_t errlen)
{
	int rc = lookup(t, name);

	if (rc == -ENODEV)
		snprintf(
			err, errlen,
			"%s does not exist, and with ipsec-interface-managed=no ikebana makes none: create it (ip link add %s type xfrm if_id %" PRIu32
			") and reload",
			name, name, if_id);
	return rc == -ENODEV ? rc : adopt(t, name, if_id, err, errlen);
}

int xfrmi_create(const char *name, uint32_t if_id, const struct ikb_addr *local,
		 bool create, bool *created, char *err, size_t errlen)
{
	char buf[XFRMI_MSG_MAX];
	struct talk t;
	int rc = talk_open(&t);

	*created = false;
	if (rc) {
		snprintf(err, errlen, "rtnetlink: %s", strerror(-rc));
		return rc;
	}
	if (!create) {
		rc = use_only(&t, name, if_id, err, errlen);
		rtnl_close(&t.r);
		return rc;
	}
	rc = ask(&t, xfrmi_msg_new(buf, 0, name, if_id, link_of(local)));
	if (!rc)
		*created = true;
	else if (rc == -EEXIST)
		rc = adopt(&t, name, if_id, err, errlen);
	else if (rc == -EOPNOTSUPP)
		snprintf(
			err, errlen,
			"cannot create %s: the kernel has no XFRM interfaces (CONFIG_XFRM_INTERFACE, module xfrm_interface)",
			name);
	else
		snprintf(err, errlen, "cannot create %s: %s", name,
			 strerror(-rc));
	if (!rc)
		rc = set_up(&t, name, err, errlen);
	/* made but not up: not left behind */
	if (rc && *created) {
		del(&t, name);
		*created = false;
	}
	rtnl_close(&t.r);
	return rc;
}

int xfrmi_delete(const char *name, char *err, size_t errlen)
{
	struct talk t;
	int rc = talk_open(&t);

	if (!rc)
		rc = del(&t, name);
	if (rc)
		snprintf(err, errlen, "cannot delete %s: %s", name,
			 strerror(-rc));
	rtnl_close(&t.r);
	return rc;
}
