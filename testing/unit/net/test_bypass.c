// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The IPsec bypass of the IKE sockets, in a network namespace of our own:
 * a transport policy demands ESP for all UDP on loopback (there is no SA,
 * and this kernel has no ESP anyway), so a plain socket's datagrams are
 * dropped by XFRM in both directions while the net sockets' go through.
 * Also the address-change notification behind net_is_local().
 *
 * Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN for unshare) and ip(8);
 * exits 77 (skipped) without them.
 */
#include <errno.h>
#include <event2/event.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tutil.h"

static bool ns_v6;

static int sh(const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		fprintf(stderr, "failed (%d): %s\n", rc, cmd);
	return rc;
}

static int write_file(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(val, f);
	return fclose(f);
}

/* One counter of /proc/net/xfrm_stat (this namespace's). */
static long xfrm_stat(const char *name)
{
	FILE *f = fopen("/proc/net/xfrm_stat", "r");
	char key[64];
	long v, found = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &v) == 2)
		if (strcmp(key, name) == 0)
			found = v;
	fclose(f);
	return found;
}

static bool wait_stat(const char *name, long above, int ms)
{
	struct timespec t0, now;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (xfrm_stat(name) > above)
			return true;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - t0.tv_sec) * 1000 +
			 (now.tv_nsec - t0.tv_nsec) / 1000000 <
		 ms);
	return false;
}

static int ns_setup(void)
{
	if (unshare(CLONE_NEWNET) < 0) {
		printf("skipped: unshare(CLONE_NEWNET): %s\n", strerror(errno));
		return 77;
	}
	if (system("ip -V >/dev/null 2>&1") != 0) {
		printf("skipped: no ip(8)\n");
		return 77;
	}
	/* IPv4 loopback skips XFRM by default: turn that off here. */
	if (sh("ip link set lo up") ||
	    write_file("/proc/sys/net/ipv4/conf/lo/disable_xfrm", "0") ||
	    write_file("/proc/sys/net/ipv4/conf/lo/disable_policy", "0"))
		return 1;
	for (const char *const *d = (const char *const[]){ "in", "out", NULL };
	     *d; d++) {
		char cmd[256];

		snprintf(
			cmd, sizeof(cmd),
			"ip xfrm policy add src 127.0.0.1 dst 127.0.0.1 proto udp dir %s tmpl proto esp mode transport level required",
			*d);
		if (sh(cmd))
			return 1;
		ns_v6 = have_ipv6();
		if (!ns_v6)
			continue;
		snprintf(
			cmd, sizeof(cmd),
			"ip xfrm policy add src ::1 dst ::1 proto udp dir %s tmpl proto esp mode transport level required",
			*d);
		if (sh(cmd))
			return 1;
	}
	return 0;
}

static void bypass(const char *ip)
{
	struct event_base *base = event_base_new();
	struct net_opts oa = { .natt_port = 1 }, ob = { .natt_port = 1 };
	struct rx *ra = calloc(1, sizeof(*ra)), *rb = calloc(1, sizeof(*rb));
	struct net *a = open_free(base, &oa, ra);
	struct net *b = open_free(base, &ob, rb);
	struct ikb_addr lo = A(ip);
	uint16_t pport;
	int plain = plain_socket(ip, &pport);
	long out0 = xfrm_stat("XfrmOutNoStates");
	long in0 = xfrm_stat("XfrmInTmplMismatch");
	uint8_t buf[16];

	assert_non_null(a);
	assert_non_null(b);
	assert_true(plain >= 0);
	assert_true(out0 >= 0 && in0 >= 0);

	/* plain -> b: the out policy wants ESP, and there is no SA */
	plain_sendto(plain, ip, ob.ike_port, "plain", 5);
	assert_true(wait_stat("XfrmOutNoStates", out0, 2000));

	/* a -> b on both ports: bypassed out at a and in at b */
	assert_int_equal(net_send(a, &lo, oa.ike_port, &lo, ob.ike_port,
				  (const uint8_t *)"ike", 3),
			 0);
	assert_int_equal(net_send(a, &lo, oa.natt_port, &lo, ob.natt_port,
				  (const uint8_t *)"natt", 4),
			 0);
	assert_true(run_until(base, &rb->count, 2, 2000));
	assert_int_equal(rb->count, 2);
	assert_int_equal(rb->last.len, 4);
	assert_memory_equal(rb->last.buf, "natt", 4);

	/* a -> plain: leaves a, but plain's in policy rejects it */
	assert_int_equal(net_send(a, &lo, oa.ike_port, &lo, pport,
				  (const uint8_t *)"x", 1),
			 0);
	assert_true(wait_stat("XfrmInTmplMismatch", in0, 2000));
	assert_int_equal(recv(plain, buf, sizeof(buf), MSG_DONTWAIT), -1);

	close(plain);
	net_close(a);
	net_close(b);
	event_base_free(base);
	free(ra);
	free(rb);
}

static void test_bypass_v4(void **state)
{
	bypass("127.0.0.1");
}

static void test_bypass_v6(void **state)
{
	if (!ns_v6) {
		print_message("skipped: no ::1 in the namespace\n");
		skip();
	}
	bypass("::1");
}

/* The cache follows address changes without a miss-driven re-read. */
static bool wait_local(struct event_base *base, struct net *n,
		       const struct ikb_addr *a, bool want)
{
	int never = 0;

	for (int i = 0; i < 400 && net_is_local(n, a) != want; i++)
		run_until(base, &never, 1, 5);
	return net_is_local(n, a) == want;
}

static void test_address_change(void **state)
{
	struct event_base *base = event_base_new();
	struct net_opts o = { 0 };
	struct net *n = open_free(base, &o, NULL);
	struct ikb_addr doc = A("192.0.2.77");

	assert_non_null(n);
	assert_false(net_is_local(n, &doc));
	assert_int_equal(sh("ip addr add 192.0.2.77/32 dev lo"), 0);
	assert_true(wait_local(base, n, &doc, true));
	assert_int_equal(sh("ip addr del 192.0.2.77/32 dev lo"), 0);
	assert_true(wait_local(base, n, &doc, false));
	net_close(n);
	event_base_free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bypass_v4),
		cmocka_unit_test(test_bypass_v6),
		cmocka_unit_test(test_address_change),
	};
	int rc = ns_setup();

	if (rc)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
