// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Events from the real kernel (in a private netns): traffic that hits our
 * policy with no SA comes back as ACQUIRE with our reqid; a foreign
 * policy's ACQUIRE does not reach us.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "netns.h"
#include "test_host.h"
#include "xfrm.h"

static struct ikb_kernel_event got[8];
static unsigned ngot;

static void on_event(void *ctx, const struct ikb_kernel_event *ev)
{
	if (ngot < 8)
		got[ngot++] = *ev;
}

static void udp_to(const char *dst, unsigned port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	inet_pton(AF_INET, dst, &sin.sin_addr);
	/* Dropped by the kernel while it asks for an SA: errors expected. */
	sendto(fd, "x", 1, MSG_DONTWAIT, (struct sockaddr *)&sin, sizeof(sin));
	close(fd);
}

static void test_acquire(void **state)
{
	struct xfrm_state st = { .host = test_host() };
	struct ikb_policy pol = { .dir = IKB_DIR_OUT,
				  .proto = IPPROTO_ESP,
				  .reqid = 42 };
	struct ikb_error err = { "" };
	unsigned nsa, npol;

	NEED_NETNS();
	/* Not lo: the kernel does not apply XFRM to local destinations. */
	assert_int_equal(
		system("ip link add v0 type veth peer name v1 &&"
		       " ip link set v0 up && ip link set v1 up &&"
		       " ip addr add 10.55.0.1/24 dev v0 &&"
		       " ip xfrm policy add src 10.55.0.1/32 dst 10.55.0.3/32"
		       " dir out tmpl proto esp reqid 1 mode transport"),
		0);
	pol.sel.src.family = pol.sel.dst.family = AF_INET;
	inet_pton(AF_INET, "10.55.0.1", pol.sel.src.bytes);
	inet_pton(AF_INET, "10.55.0.2", pol.sel.dst.bytes);
	pol.sel.src_plen = pol.sel.dst_plen = 32;
	assert_int_equal(xfrm_events_subscribe(&st, on_event, NULL, &err), 0);
	if (xfrm_policy_add(&st, &pol, &err))
		fail_msg("policy_add: %s", err.msg);

	udp_to("10.55.0.3", 9); /* foreign policy */
	udp_to("10.55.0.2", 9); /* ours */
	for (int i = 0; i < 10 && ngot == 0; i++)
		test_host_poll(100);
	test_host_poll(100);
	assert_int_equal(ngot, 1);
	assert_int_equal(got[0].type, IKB_KEV_ACQUIRE);
	assert_int_equal(got[0].reqid, 42);
	assert_int_equal(got[0].proto, IPPROTO_ESP);
	assert_int_equal(got[0].sel.dst.bytes[3], 2);

	/* fini's part: flush ours, the foreign policy stays. */
	assert_int_equal(xfrm_flush_own(&st, &nsa, &npol, &err), 0);
	assert_int_equal(npol, 1);
	assert_non_null(strstr(sh("ip xfrm policy"), "10.55.0.3"));
	assert_null(strstr(sh("ip xfrm policy"), "10.55.0.2"));
	xfrm_events_close(&st);
	xfrm_nl_close(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acquire),
	};

	return cmocka_run_group_tests_name("kernel-xfrm events", tests,
					   netns_setup, NULL);
}
