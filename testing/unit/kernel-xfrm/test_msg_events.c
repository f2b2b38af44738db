// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel-xfrm, what comes back from the kernel (no kernel): an SA's
 * counters, the events it sends (EXPIRE, ACQUIRE, POLEXPIRE) and the
 * reqid range the plugin owns. Split from test_msg.c, which builds what
 * goes to the kernel.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include "test_host.h"
#include "xfrm.h"

static char buf[XFRM_BUF];

static void test_counters_parse(void **state)
{
	struct nlmsghdr *nlh = xfrm_nl_start(buf, XFRM_MSG_NEWSA, 0);
	struct xfrm_usersa_info *p =
		mnl_nlmsg_put_extra_header(nlh, sizeof(*p));
	struct ikb_sa_counters c;

	p->curlft.bytes = 1500;
	p->curlft.packets = 3;
	p->curlft.add_time = 1700000000;
	p->curlft.use_time = 1700000005;
	p->stats.replay = 4;
	p->stats.integrity_failed = 2;
	assert_int_equal(xfrm_counters_parse(nlh, &c), 0);
	assert_true(c.bytes == 1500 && c.packets == 3);
	assert_true(c.add_time == 1700000000 && c.use_time == 1700000005);
	assert_int_equal(c.replay_fail, 4);
	assert_int_equal(c.integrity_fail, 2);
	nlh->nlmsg_type = XFRM_MSG_NEWPOLICY;
	assert_int_equal(xfrm_counters_parse(nlh, &c), -EBADMSG);
}

/*
 * The kernel stamps curlft.use_time at the first packet only and sends
 * x->lastused, stamped per packet, as XFRMA_LASTUSED once it is set
 * (copy_to_user_state_extra): use_time must be the latter when present.
 */
static void test_counters_lastused(void **state)
{
	struct nlmsghdr *nlh = xfrm_nl_start(buf, XFRM_MSG_NEWSA, 0);
	struct xfrm_usersa_info *p =
		mnl_nlmsg_put_extra_header(nlh, sizeof(*p));
	struct ikb_sa_counters c;
	uint32_t small = 1700000100;

	p->curlft.add_time = 1700000000;
	p->curlft.use_time = 1700000005;
	p->curlft.packets = 7;
	/* as nla_put_u64_64bit lays it out: other attributes, a pad */
	mnl_attr_put_u32(nlh, XFRMA_SA_EXTRA_FLAGS, 0);
	mnl_attr_put(nlh, XFRMA_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, XFRMA_LASTUSED, 1700000099);
	mnl_attr_put_u32(nlh, XFRMA_REPLAY_THRESH, 0);
	assert_int_equal(xfrm_counters_parse(nlh, &c), 0);
	assert_true(c.use_time == 1700000099);
	assert_true(c.add_time == 1700000000 && c.packets == 7);

	/* a short attribute is not a time: the first use stands */
	nlh = xfrm_nl_start(buf, XFRM_MSG_NEWSA, 0);
	p = mnl_nlmsg_put_extra_header(nlh, sizeof(*p));
	p->curlft.use_time = 1700000005;
	mnl_attr_put(nlh, XFRMA_LASTUSED, sizeof(small), &small);
	assert_int_equal(xfrm_counters_parse(nlh, &c), 0);
	assert_true(c.use_time == 1700000005);

	/* never used: no attribute, and curlft.use_time 0 */
	nlh = xfrm_nl_start(buf, XFRM_MSG_NEWSA, 0);
	mnl_nlmsg_put_extra_header(nlh, sizeof(*p));
	assert_int_equal(xfrm_counters_parse(nlh, &c), 0);
	assert_true(c.use_time == 0);
}

static void test_events_decode(void **state)
{
	struct nlmsghdr *nlh = xfrm_nl_start(buf, XFRM_MSG_EXPIRE, 0);
	struct xfrm_user_expire *e =
		mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	struct xfrm_user_acquire *a;
	struct xfrm_user_polexpire *pe;
	struct xfrm_user_tmpl t = { .family = AF_INET,
				    .reqid = XFRM_REQID_BASE | 5,
				    .id.proto = IPPROTO_ESP };
	struct ikb_kernel_event ev;

	e->state.reqid = XFRM_REQID_BASE | 5;
	e->state.id.spi = htonl(0xabcd);
	e->state.id.proto = IPPROTO_ESP;
	e->state.family = AF_INET;
	e->hard = 0;
	assert_int_equal(xfrm_event_decode(nlh, &ev), 1);
	assert_int_equal(ev.type, IKB_KEV_EXPIRE);
	assert_false(ev.hard);
	assert_int_equal(ev.spi, 0xabcd);
	assert_int_equal(ev.reqid, 5);
	assert_int_equal(ev.dst.family, AF_INET);
	assert_int_equal(ev.cpu, -1);
	/* Someone else's SA: not for us. */
	e->state.reqid = 5;
	assert_int_equal(xfrm_event_decode(nlh, &ev), 0);

	nlh = xfrm_nl_start(buf, XFRM_MSG_ACQUIRE, 0);
	a = mnl_nlmsg_put_extra_header(nlh, sizeof(*a));
	a->sel.family = AF_INET;
	a->sel.prefixlen_d = 32;
	a->id.proto = IPPROTO_ESP;
	mnl_attr_put(nlh, XFRMA_TMPL, sizeof(t), &t);
	assert_int_equal(xfrm_event_decode(nlh, &ev), 1);
	assert_int_equal(ev.type, IKB_KEV_ACQUIRE);
	assert_int_equal(ev.reqid, 5);
	assert_int_equal(ev.sel.dst_plen, 32);
	assert_int_equal(ev.cpu, -1);
	/* RFC 9611: a policy with XFRM_POLICY_CPU_ACQUIRE names the CPU */
	mnl_attr_put_u32(nlh, XFRMA_SA_PCPU, 3);
	assert_int_equal(xfrm_event_decode(nlh, &ev), 1);
	assert_int_equal(ev.cpu, 3);

	nlh = xfrm_nl_start(buf, XFRM_MSG_POLEXPIRE, 0);
	pe = mnl_nlmsg_put_extra_header(nlh, sizeof(*pe));
	pe->hard = 1;
	assert_int_equal(xfrm_event_decode(nlh, &ev), 0); /* no template */
	mnl_attr_put(nlh, XFRMA_TMPL, sizeof(t), &t);
	assert_int_equal(xfrm_event_decode(nlh, &ev), 1);
	assert_int_equal(ev.type, IKB_KEV_POLEXPIRE);
	assert_true(ev.hard);

	nlh = xfrm_nl_start(buf, XFRM_MSG_NEWSA, 0);
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct xfrm_usersa_info));
	assert_int_equal(xfrm_event_decode(nlh, &ev), 0);
}

static void test_reqid_range(void **state)
{
	uint32_t k;
	struct ikb_error err;

	assert_int_equal(xfrm_reqid_to_kernel(0, &k, &err), 0);
	assert_int_equal(k, XFRM_REQID_BASE);
	assert_int_equal(xfrm_reqid_to_kernel(0xffff, &k, &err), 0);
	assert_true(xfrm_reqid_ours(k));
	assert_int_equal(xfrm_reqid_from_kernel(k), 0xffff);
	assert_int_equal(xfrm_reqid_to_kernel(0x10000, &k, &err), -ERANGE);
	assert_false(xfrm_reqid_ours(1));
	assert_false(xfrm_reqid_ours(16384));
	assert_false(xfrm_reqid_ours(XFRM_REQID_BASE + 0x10000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters_parse),
		cmocka_unit_test(test_counters_lastused),
		cmocka_unit_test(test_events_decode),
		cmocka_unit_test(test_reqid_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
