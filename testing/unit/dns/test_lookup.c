// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dns_lookup() (daemon/dns/lookup.c) with the real ldns against a tiny
 * DNS server on 127.0.0.1:53 in a network namespace of its own: an A
 * record, an AAAA record, NXDOMAIN, SERVFAIL, a name without the record
 * asked for, and a server that never answers (a timeout, within the
 * resolver's bound). Needs root for unshare(CLONE_NEWNET): exits 77
 * (skipped) without it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "dns/dns.h"

static char resolv[64];
static int srv = -1;

/* The query's name as text ("east.test"), from offset 12. */
static void qname(const uint8_t *q, size_t len, char *out, size_t *end)
{
	size_t at = 12, o = 0;

	while (at < len && q[at] && o < 250) {
		memcpy(out + o, q + at + 1, q[at]);
		o += q[at];
		at += q[at] + 1u;
		out[o++] = '.';
	}
	out[o ? o - 1 : 0] = '\0';
	*end = at + 1;
}

/* The answer the test zone has for name and type, appended to r. */
static size_t answer(uint8_t *r, size_t n, const char *name, uint16_t type)
{
	static const uint8_t a[] = { 192, 0, 2, 2 };
	static const uint8_t aaaa[] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
					0,    0,    0,	  0,	0, 0, 0, 6 };
	bool v4 = !strcmp(name, "east.test") && type == 1;
	bool v6 = !strcmp(name, "v6.test") && type == 28;
	const uint8_t *data = v4 ? a : aaaa;
	uint16_t dlen = v4 ? 4 : 16;

	if (!v4 && !v6)
		return n;
	r[7] = 1; /* ANCOUNT */
	/* name: a pointer to the question's; type, class IN, TTL 0 */
	uint8_t rr[] = { 0xc0, 12, 0, (uint8_t)type, 0, 1, 0, 0,
			 0,    0,  0, (uint8_t)dlen };

	memcpy(r + n, rr, sizeof(rr));
	memcpy(r + n + sizeof(rr), data, dlen);
	return n + sizeof(rr) + dlen;
}

static void *server(void *unused)
{
	uint8_t q[512], r[600];
	struct sockaddr_in from;
	socklen_t fl = sizeof(from);
	ssize_t len;

	while ((len = recvfrom(srv, q, sizeof(q), 0, (struct sockaddr *)&from,
			       &fl)) > 12) {
		char name[256];
		size_t end, n;
		uint16_t type;

		qname(q, (size_t)len, name, &end);
		if (!strcmp(name, "hang.test") || end + 4 > (size_t)len)
			continue;
		type = (uint16_t)(q[end] << 8 | q[end + 1]);
		n = end + 4;
		memcpy(r, q, n);
		r[2] = 0x81; /* QR, RD */
		r[3] = 0x80; /* RA, NOERROR */
		if (!strcmp(name, "fail.test"))
			r[3] |= 2; /* SERVFAIL */
		else if (strcmp(name, "east.test") && strcmp(name, "v6.test"))
			r[3] |= 3; /* NXDOMAIN */
		memset(r + 6, 0, 6);
		n = answer(r, n, name, type);
		sendto(srv, r, n, 0, (struct sockaddr *)&from, fl);
	}
	return NULL;
}

static int lo_up(void)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	int rc;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	rc = fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr) < 0 ? -1 : 0;
	ifr.ifr_flags |= IFF_UP;
	if (!rc)
		rc = ioctl(fd, SIOCSIFFLAGS, &ifr);
	if (fd >= 0)
		close(fd);
	return rc;
}

static int setup(void **state)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(53) };
	pthread_t t;
	FILE *f;

	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	srv = socket(AF_INET, SOCK_DGRAM, 0);
	assert_true(srv >= 0);
	assert_int_equal(bind(srv, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(pthread_create(&t, NULL, server, NULL), 0);
	pthread_detach(t);
	strcpy(resolv, "/tmp/ikb-resolv-XXXXXX");
	assert_true(mkstemp(resolv) >= 0);
	f = fopen(resolv, "w");
	assert_non_null(f);
	fprintf(f, "nameserver 127.0.0.1\nsearch example.com\n");
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	unlink(resolv);
	return 0;
}

static void test_a(void **state)
{
	struct dns_answer a;
	char buf[64];

	dns_lookup("east.test", AF_INET, resolv, &a);
	assert_int_equal(a.rc, 0);
	assert_int_equal(a.addr.family, AF_INET);
	assert_string_equal(inet_ntop(AF_INET, a.addr.bytes, buf, sizeof(buf)),
			    "192.0.2.2");
	/* either family: A first */
	dns_lookup("east.test", AF_UNSPEC, resolv, &a);
	assert_int_equal(a.rc, 0);
	assert_int_equal(a.addr.family, AF_INET);
}

static void test_aaaa(void **state)
{
	struct dns_answer a;
	char buf[64];

	dns_lookup("v6.test", AF_INET6, resolv, &a);
	assert_int_equal(a.rc, 0);
	assert_string_equal(inet_ntop(AF_INET6, a.addr.bytes, buf, sizeof(buf)),
			    "2001:db8::6");
	/* no A record: AAAA then */
	dns_lookup("v6.test", AF_UNSPEC, resolv, &a);
	assert_int_equal(a.rc, 0);
	assert_int_equal(a.addr.family, AF_INET6);
	dns_lookup("v6.test", AF_INET, resolv, &a);
	assert_int_equal(a.rc, -ENODATA);
	assert_string_equal(a.why, "no A record");
	dns_lookup("east.test", AF_INET6, resolv, &a);
	assert_string_equal(a.why, "no AAAA record");
}

static void test_errors(void **state)
{
	struct dns_answer a;

	/* fully qualified: the search list is not tried */
	dns_lookup("nowhere.test", AF_INET, resolv, &a);
	assert_int_equal(a.rc, -ENOENT);
	assert_string_equal(a.why, "NXDOMAIN");
	dns_lookup("fail.test", AF_UNSPEC, resolv, &a);
	assert_int_equal(a.rc, -EAGAIN);
	assert_string_equal(a.why, "SERVFAIL");
	dns_lookup("east.test", AF_INET, "/nonexistent/resolv.conf", &a);
	assert_int_equal(a.rc, -EIO);
	assert_non_null(strstr(a.why, "/nonexistent/resolv.conf"));
}

static void test_timeout(void **state)
{
	struct dns_answer a;
	time_t t0 = time(NULL);

	dns_lookup("hang.test", AF_INET, resolv, &a);
	assert_int_equal(a.rc, -ETIMEDOUT);
	assert_non_null(strstr(a.why, "timeout"));
	/* bounded by the resolver's tries, with a second of slack */
	assert_true(time(NULL) - t0 <= DNS_TRIES * DNS_TRY_S + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a),
		cmocka_unit_test(test_aaaa),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_timeout),
	};

	if (unshare(CLONE_NEWNET) < 0 || lo_up() < 0) {
		printf("skipped: a network namespace of its own: %s\n",
		       strerror(errno));
		return 77;
	}
	return cmocka_run_group_tests_name("dns-lookup", tests, setup,
					   teardown);
}
