// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rtnetlink messages of XFRM interfaces (net/xfrmi_msg.c), read back
 * attribute by attribute, and the parser of the kernel's RTM_NEWLINK.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "net/xfrmi.h"

struct seen {
	const char *name, *kind;
	int nkind;
	uint32_t if_id, link;
	bool has_if_id, has_link;
};

static int data_cb(const struct nlattr *at, void *arg)
{
	struct seen *s = arg;

	if (mnl_attr_get_type(at) == IFLA_XFRM_IF_ID) {
		s->if_id = mnl_attr_get_u32(at);
		s->has_if_id = true;
	} else if (mnl_attr_get_type(at) == IFLA_XFRM_LINK) {
		s->link = mnl_attr_get_u32(at);
		s->has_link = true;
	}
	return MNL_CB_OK;
}

static int info_cb(const struct nlattr *at, void *arg)
{
	struct seen *s = arg;

	if (mnl_attr_get_type(at) == IFLA_INFO_KIND) {
		s->kind = mnl_attr_get_str(at);
		s->nkind++;
	} else if (mnl_attr_get_type(at) == IFLA_INFO_DATA) {
		assert_int_equal(mnl_attr_parse_nested(at, data_cb, s),
				 MNL_CB_OK);
	}
	return MNL_CB_OK;
}

static int top_cb(const struct nlattr *at, void *arg)
{
	struct seen *s = arg;

	if (mnl_attr_get_type(at) == IFLA_IFNAME)
		s->name = mnl_attr_get_str(at);
	else if (mnl_attr_get_type(at) == IFLA_LINKINFO)
		assert_int_equal(mnl_attr_parse_nested(at, info_cb, s),
				 MNL_CB_OK);
	return MNL_CB_OK;
}

static void read_back(const struct nlmsghdr *nlh, struct seen *s)
{
	memset(s, 0, sizeof(*s));
	assert_true(nlh->nlmsg_len <= XFRMI_MSG_MAX);
	assert_true(mnl_nlmsg_ok(nlh, (int)nlh->nlmsg_len));
	assert_int_equal(
		mnl_attr_parse(nlh, sizeof(struct ifinfomsg), top_cb, s),
		MNL_CB_OK);
}

static void test_new(void **state)
{
	char buf[XFRMI_MSG_MAX];
	struct nlmsghdr *nlh = xfrmi_msg_new(buf, 42, "ipsec1", 1, 3);
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	struct seen s;

	assert_int_equal(nlh->nlmsg_type, RTM_NEWLINK);
	assert_int_equal(nlh->nlmsg_seq, 42);
	/* never takes over a device that exists */
	assert_int_equal(nlh->nlmsg_flags,
			 NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL);
	assert_int_equal(ifi->ifi_index, 0);
	read_back(nlh, &s);
	assert_string_equal(s.name, "ipsec1");
	assert_int_equal(s.nkind, 1);
	assert_string_equal(s.kind, "xfrm");
	assert_true(s.has_if_id);
	assert_int_equal(s.if_id, 1);
	assert_true(s.has_link);
	assert_int_equal(s.link, 3);

	/* no device for the local address: no link at all */
	nlh = xfrmi_msg_new(buf, 43, "ipsec0", 16384, 0);
	read_back(nlh, &s);
	assert_string_equal(s.name, "ipsec0");
	assert_int_equal(s.if_id, 16384);
	assert_false(s.has_link);
}

static void test_up_del_get(void **state)
{
	char buf[XFRMI_MSG_MAX];
	struct nlmsghdr *nlh = xfrmi_msg_up(buf, 7, 9);
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	struct seen s;

	assert_int_equal(nlh->nlmsg_type, RTM_NEWLINK);
	assert_int_equal(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	assert_int_equal(ifi->ifi_index, 9);
	assert_int_equal(ifi->ifi_flags, IFF_UP);
	assert_int_equal(ifi->ifi_change, IFF_UP);

	nlh = xfrmi_msg_del(buf, 8, 9);
	ifi = mnl_nlmsg_get_payload(nlh);
	assert_int_equal(nlh->nlmsg_type, RTM_DELLINK);
	assert_int_equal(ifi->ifi_index, 9);
	assert_int_equal(nlh->nlmsg_len,
			 mnl_nlmsg_size(sizeof(struct ifinfomsg)));

	nlh = xfrmi_msg_get(buf, 9, "ipsec7");
	assert_int_equal(nlh->nlmsg_type, RTM_GETLINK);
	assert_int_equal(nlh->nlmsg_flags, NLM_F_REQUEST);
	read_back(nlh, &s);
	assert_string_equal(s.name, "ipsec7");
	assert_null(s.kind);
}

/* An RTM_NEWLINK as the kernel answers a GETLINK. */
static struct nlmsghdr *reply(char *buf, const char *kind, uint32_t if_id,
			      unsigned flags)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;
	struct nlattr *info, *data;

	memset(buf, 0, MNL_SOCKET_BUFFER_SIZE);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWLINK;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = 12;
	ifi->ifi_flags = flags;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, "ipsec1");
	mnl_attr_put_u32(nlh, IFLA_MTU, 1500);
	info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, kind);
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u32(nlh, IFLA_XFRM_LINK, 2);
	mnl_attr_put_u32(nlh, IFLA_XFRM_IF_ID, if_id);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	return nlh;
}

static void test_parse(void **state)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct xfrmi_link l;

	assert_int_equal(xfrmi_parse_link(reply(buf, "xfrm", 7, IFF_UP), &l),
			 0);
	assert_int_equal(l.ifindex, 12);
	assert_true(l.up);
	assert_true(l.xfrm);
	assert_int_equal(l.if_id, 7);
	assert_int_equal(l.link, 2);

	/* another kind with the same numbers is no XFRM interface */
	assert_int_equal(xfrmi_parse_link(reply(buf, "vti", 7, 0), &l), 0);
	assert_false(l.xfrm);
	assert_false(l.up);

	/* not a link message */
	reply(buf, "xfrm", 7, 0)->nlmsg_type = RTM_NEWADDR;
	assert_int_equal(xfrmi_parse_link((struct nlmsghdr *)buf, &l), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new),
		cmocka_unit_test(test_up_del_get),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
