// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rtnetlink messages of leftsourceip= (net/srcroute_msg.c), read
 * back attribute by attribute, and the parser of the kernel's answer to
 * RTM_GETROUTE.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include "net/srcroute.h"

struct attrs {
	char dst[64], gw[64], prefsrc[64], local[64];
	uint32_t oif, flags;
};

static void ntop(const struct nlattr *at, int family, char *out)
{
	inet_ntop(family, mnl_attr_get_payload(at), out, 64);
}

static int family_of;

static int route_cb(const struct nlattr *at, void *arg)
{
	struct attrs *a = arg;

	switch (mnl_attr_get_type(at)) {
	case RTA_DST:
		ntop(at, family_of, a->dst);
		break;
	case RTA_GATEWAY:
		ntop(at, family_of, a->gw);
		break;
	case RTA_PREFSRC:
		ntop(at, family_of, a->prefsrc);
		break;
	case RTA_OIF:
		a->oif = mnl_attr_get_u32(at);
		break;
	}
	return MNL_CB_OK;
}

static int addr_cb(const struct nlattr *at, void *arg)
{
	struct attrs *a = arg;

	if (mnl_attr_get_type(at) == IFA_LOCAL)
		ntop(at, family_of, a->local);
	if (mnl_attr_get_type(at) == IFA_FLAGS)
		a->flags = mnl_attr_get_u32(at);
	return MNL_CB_OK;
}

static struct ikb_addr ip(const char *s)
{
	struct ikb_addr a = { .family = strchr(s, ':') ? AF_INET6 : AF_INET };

	assert_int_equal(inet_pton(a.family, s, a.bytes), 1);
	return a;
}

static void test_route(void **state)
{
	char buf[SRCROUTE_MSG_MAX];
	struct srcroute r = { .src = ip("10.1.0.1"),
			      .net = ip("10.2.0.0"),
			      .plen = 24,
			      .peer = ip("192.0.2.2"),
			      .ifindex = 3 };
	struct attrs a = { 0 };
	struct nlmsghdr *nlh = srcroute_msg_route(buf, true, &r);
	const struct rtmsg *rtm = mnl_nlmsg_get_payload(nlh);

	family_of = AF_INET;
	assert_int_equal(nlh->nlmsg_type, RTM_NEWROUTE);
	assert_true(nlh->nlmsg_flags & NLM_F_REPLACE);
	assert_int_equal(rtm->rtm_dst_len, 24);
	assert_int_equal(rtm->rtm_table, RT_TABLE_MAIN);
	mnl_attr_parse(nlh, sizeof(*rtm), route_cb, &a);
	assert_string_equal(a.dst, "10.2.0.0");
	/* on the link (no gateway to the peer): via the peer */
	assert_string_equal(a.gw, "192.0.2.2");
	assert_string_equal(a.prefsrc, "10.1.0.1");
	assert_int_equal(a.oif, 3);

	/* through a router: via it */
	r.via = ip("192.0.2.254");
	memset(&a, 0, sizeof(a));
	nlh = srcroute_msg_route(buf, true, &r);
	mnl_attr_parse(nlh, sizeof(*rtm), route_cb, &a);
	assert_string_equal(a.gw, "192.0.2.254");

	/* removal: the destination, no gateway or source to match */
	memset(&a, 0, sizeof(a));
	nlh = srcroute_msg_route(buf, false, &r);
	assert_int_equal(nlh->nlmsg_type, RTM_DELROUTE);
	mnl_attr_parse(nlh, sizeof(*rtm), route_cb, &a);
	assert_string_equal(a.dst, "10.2.0.0");
	assert_string_equal(a.gw, "");
}

static void test_addr(void **state)
{
	char buf[SRCROUTE_MSG_MAX];
	struct ikb_addr a6 = ip("2001:db8:1::1");
	struct attrs a = { 0 };
	struct nlmsghdr *nlh = srcroute_msg_addr(buf, true, &a6, 4);
	const struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);

	family_of = AF_INET6;
	assert_int_equal(nlh->nlmsg_type, RTM_NEWADDR);
	assert_int_equal(ifa->ifa_prefixlen, 128);
	assert_int_equal(ifa->ifa_index, 4);
	mnl_attr_parse(nlh, sizeof(*ifa), addr_cb, &a);
	assert_string_equal(a.local, "2001:db8:1::1");
	assert_true(a.flags & IFA_F_NODAD);
}

/* The kernel's answer to RTM_GETROUTE: oif and gateway, or none. */
static void test_parse(void **state)
{
	char buf[SRCROUTE_MSG_MAX] = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	struct ikb_addr gw = ip("192.0.2.254"), via;
	uint32_t oif = 0;

	nlh->nlmsg_type = RTM_NEWROUTE;
	rtm->rtm_family = AF_INET;
	/* no RTA_OIF: refused */
	assert_int_equal(srcroute_parse_route(nlh, &oif, &via), -EINVAL);
	mnl_attr_put_u32(nlh, RTA_OIF, 2);
	assert_int_equal(srcroute_parse_route(nlh, &oif, &via), 0);
	assert_int_equal(oif, 2);
	assert_int_equal(via.family, AF_UNSPEC);
	mnl_attr_put(nlh, RTA_GATEWAY, 4, gw.bytes);
	assert_int_equal(srcroute_parse_route(nlh, &oif, &via), 0);
	assert_int_equal(via.family, AF_INET);
	assert_memory_equal(via.bytes, gw.bytes, 4);
	/* a gateway of the wrong length is no gateway */
	rtm->rtm_family = AF_INET6;
	assert_int_equal(srcroute_parse_route(nlh, &oif, &via), 0);
	assert_int_equal(via.family, AF_UNSPEC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_route),
		cmocka_unit_test(test_addr),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
