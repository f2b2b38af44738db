// SPDX-License-Identifier: GPL-2.0-or-later
/* net_is_local() and the address helpers. */
#include <event2/event.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tutil.h"

static void test_is_local(void **state)
{
	struct event_base *base = event_base_new();
	struct net_opts o = { 0 };
	struct net *n = open_free(base, &o, NULL);
	struct ikb_addr a = A("127.0.0.1"), none = { .family = AF_UNSPEC };

	assert_non_null(n);
	assert_true(net_is_local(n, &a));
	a = A("192.0.2.77");
	assert_false(net_is_local(n, &a));
	a = A("0.0.0.0");
	assert_false(net_is_local(n, &a));
	assert_false(net_is_local(n, &none));
	/* 127.0.0.1 as IPv6 bytes is not ::1's neighbour nor a v4 match */
	a = A("127.0.0.1");
	a.family = AF_INET6;
	assert_false(net_is_local(n, &a));
	if (have_ipv6()) {
		a = A("::1");
		assert_true(net_is_local(n, &a));
	} else {
		print_message("no ::1 here: IPv6 check skipped\n");
	}
	a = A("2001:db8::77");
	assert_false(net_is_local(n, &a));
	net_close(n);
	event_base_free(base);
}

static void test_addr_fmt_parse(void **state)
{
	struct ikb_addr a;
	char buf[NET_ADDRSTRLEN];

	assert_int_equal(net_addr_parse("192.0.2.1", &a), 0);
	assert_int_equal(a.family, AF_INET);
	assert_string_equal(net_addr_fmt(&a, 500, buf, sizeof(buf)),
			    "192.0.2.1:500");
	assert_string_equal(net_addr_fmt(&a, 0, buf, sizeof(buf)), "192.0.2.1");
	assert_int_equal(net_addr_parse("2001:db8::1", &a), 0);
	assert_int_equal(a.family, AF_INET6);
	assert_string_equal(net_addr_fmt(&a, 4500, buf, sizeof(buf)),
			    "[2001:db8::1]:4500");
	assert_string_equal(net_addr_fmt(NULL, 1, buf, sizeof(buf)), "*");
	assert_int_not_equal(net_addr_parse("192.0.2.256", &a), 0);
	assert_int_equal(a.family, AF_UNSPEC);
	assert_int_not_equal(net_addr_parse("west", &a), 0);
	assert_int_not_equal(net_addr_parse("", &a), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_is_local),
		cmocka_unit_test(test_addr_fmt_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
