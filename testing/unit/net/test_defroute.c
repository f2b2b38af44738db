// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * %defaultroute's choice (daemon/net/defroute_pick.c) on made-up dumps:
 * the lowest metric wins, its preferred source first, else the first
 * global address of its interface that is usable; per family. And once
 * on this host's own routes, which must at least not fail oddly.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include "net/defroute.h"

static struct ikb_addr ip(const char *s)
{
	struct ikb_addr a = { 0 };

	a.family = strchr(s, ':') ? AF_INET6 : AF_INET;
	assert_int_equal(inet_pton(a.family, s, a.bytes), 1);
	return a;
}

static const char *pick(int family, const struct defroute_route *r, size_t nr,
			const struct defroute_addr *a, size_t na, char *buf)
{
	struct ikb_addr out;
	int rc = defroute_pick(family, r, nr, a, na, &out);

	if (rc)
		return rc == -ENETUNREACH ? "no route" : "no address";
	return inet_ntop(out.family, out.bytes, buf, INET6_ADDRSTRLEN);
}

static const struct defroute_addr addrs[] = {
	{ 1, RT_SCOPE_HOST, 0, { AF_INET, { 127, 0, 0, 1 } } },
	{ 2, RT_SCOPE_LINK, 0, { AF_INET, { 169, 254, 1, 1 } } },
	{ 2, RT_SCOPE_UNIVERSE, 0, { AF_INET, { 192, 0, 2, 1 } } },
	{ 2, RT_SCOPE_UNIVERSE, 0, { AF_INET, { 192, 0, 2, 7 } } },
	{ 3, RT_SCOPE_UNIVERSE, 0, { AF_INET, { 198, 51, 100, 1 } } },
};

static void test_metric_and_interface(void **state)
{
	struct defroute_route r[] = {
		{ AF_INET, 3, 200, { 0 } },
		{ AF_INET, 2, 100, { 0 } },
	};
	char buf[INET6_ADDRSTRLEN];

	/* eth2 has the lower metric: its first global address */
	assert_string_equal(pick(AF_INET, r, 2, addrs, 5, buf), "192.0.2.1");
	r[0].metric = 50;
	assert_string_equal(pick(AF_INET, r, 2, addrs, 5, buf), "198.51.100.1");
	/* AF_UNSPEC: IPv4 first */
	assert_string_equal(pick(AF_UNSPEC, r, 2, addrs, 5, buf),
			    "198.51.100.1");
}

static void test_prefsrc(void **state)
{
	struct defroute_route r[] = { { AF_INET, 2, 0, { 0 } } };
	char buf[INET6_ADDRSTRLEN];

	r[0].prefsrc = ip("192.0.2.7");
	assert_string_equal(pick(AF_INET, r, 1, addrs, 5, buf), "192.0.2.7");
}

static void test_none(void **state)
{
	struct defroute_route r[] = { { AF_INET, 1, 0, { 0 } } };
	char buf[INET6_ADDRSTRLEN];

	assert_string_equal(pick(AF_INET, NULL, 0, addrs, 5, buf), "no route");
	/* only a host-scope address on lo */
	assert_string_equal(pick(AF_INET, r, 1, addrs, 5, buf), "no address");
	assert_string_equal(pick(AF_INET6, r, 1, addrs, 5, buf), "no route");
}

static void test_ipv6(void **state)
{
	struct defroute_route r[] = {
		{ AF_INET, 2, 0, { 0 } },
		{ AF_INET6, 4, 1024, { 0 } },
	};
	struct defroute_addr a[] = {
		{ 4, RT_SCOPE_LINK, 0, ip("fe80::1") },
		{ 4, RT_SCOPE_UNIVERSE, IFA_F_TENTATIVE, ip("2001:db8::5") },
		{ 4, RT_SCOPE_UNIVERSE, IFA_F_DEPRECATED, ip("2001:db8::6") },
		{ 4, RT_SCOPE_UNIVERSE, 0, ip("2001:db8::7") },
	};
	char buf[INET6_ADDRSTRLEN];

	assert_string_equal(pick(AF_INET6, r, 2, a, 4, buf), "2001:db8::7");
	/* no IPv4 address on eth2 here: AF_UNSPEC falls back to IPv6 */
	assert_string_equal(pick(AF_UNSPEC, r, 2, a, 4, buf), "2001:db8::7");
}

/* This host's own dump: an address, or no route; never another error. */
static void test_live(void **state)
{
	struct ikb_addr a;
	int rc = defroute_addr(AF_UNSPEC, &a);

	assert_true(rc == 0 || rc == -ENETUNREACH || rc == -EADDRNOTAVAIL);
	if (!rc)
		assert_true(a.family == AF_INET || a.family == AF_INET6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_and_interface),
		cmocka_unit_test(test_prefsrc),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests_name("net-defroute", tests, NULL, NULL);
}
