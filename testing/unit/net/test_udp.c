// SPDX-License-Identifier: GPL-2.0-or-later
/* Loopback round trips through two net instances, bind errors, limits. */
#include <errno.h>
#include <event2/event.h>
#include <net/if.h>
#include <netinet/in.h>
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

struct pair {
	struct event_base *base;
	struct net *a, *b;
	struct net_opts oa, ob;
	struct rx *ra, *rb;
};

static int pair_setup(void **state)
{
	struct pair *p = calloc(1, sizeof(*p));

	p->base = event_base_new();
	p->ra = calloc(1, sizeof(*p->ra));
	p->rb = calloc(1, sizeof(*p->rb));
	p->oa.natt_port = 1;
	p->ob.natt_port = 1;
	p->a = open_free(p->base, &p->oa, p->ra);
	p->b = open_free(p->base, &p->ob, p->rb);
	if (!p->a || !p->b)
		return -1;
	*state = p;
	return 0;
}

static int pair_teardown(void **state)
{
	struct pair *p = *state;

	net_close(p->a);
	net_close(p->b);
	event_base_free(p->base);
	free(p->ra);
	free(p->rb);
	free(p);
	return 0;
}

static void round_trip(struct pair *p, const char *ip, bool natt)
{
	struct ikb_addr lo = A(ip);
	uint16_t pa = natt ? p->oa.natt_port : p->oa.ike_port;
	uint16_t pb = natt ? p->ob.natt_port : p->ob.ike_port;
	static const uint8_t req[] = "IKE_SA_INIT request";
	static const uint8_t resp[] = "IKE_SA_INIT response";
	struct net_dgram d;

	assert_int_equal(net_send(p->a, &lo, pa, &lo, pb, req, sizeof(req)), 0);
	assert_true(run_until(p->base, &p->rb->count, 1, 2000));
	d = p->rb->last;
	assert_int_equal(d.len, sizeof(req));
	assert_memory_equal(d.buf, req, sizeof(req));
	assert_int_equal(d.local.family, lo.family);
	assert_memory_equal(d.local.bytes, lo.bytes, 16);
	assert_memory_equal(d.remote.bytes, lo.bytes, 16);
	assert_int_equal(d.lport, pb);
	assert_int_equal(d.rport, pa);
	assert_int_equal(d.natt, natt);
	assert_int_equal(d.ifindex, (int)if_nametoindex("lo"));

	/* The reply goes back where the request came from, from d.local. */
	assert_int_equal(net_send(p->b, &d.local, d.lport, &d.remote, d.rport,
				  resp, sizeof(resp)),
			 0);
	assert_true(run_until(p->base, &p->ra->count, 1, 2000));
	assert_int_equal(p->ra->last.len, sizeof(resp));
	assert_memory_equal(p->ra->last.buf, resp, sizeof(resp));
	assert_int_equal(p->ra->last.lport, pa);
	assert_int_equal(p->ra->last.rport, pb);
	assert_int_equal(p->ra->count, 1);
	assert_int_equal(p->rb->count, 1);
}

static void test_round_trip_v4(void **state)
{
	round_trip(*state, "127.0.0.1", false);
}

static void test_round_trip_v4_natt(void **state)
{
	round_trip(*state, "127.0.0.1", true);
}

static void test_round_trip_v6(void **state)
{
	struct pair *p = *state;

	if (!have_ipv6()) {
		print_message("skipped: no IPv6 (::1) on this host\n");
		skip();
	}
	round_trip(p, "::1", false);
}

static void test_round_trip_v6_natt(void **state)
{
	struct pair *p = *state;

	if (!have_ipv6()) {
		print_message("skipped: no IPv6 (::1) on this host\n");
		skip();
	}
	round_trip(p, "::1", true);
}

/* Without a local address the kernel picks one; pktinfo still reports it. */
static void test_send_without_local(void **state)
{
	struct pair *p = *state;
	struct ikb_addr lo = A("127.0.0.1");

	assert_int_equal(net_send(p->a, NULL, p->oa.ike_port, &lo,
				  p->ob.ike_port, (const uint8_t *)"x", 1),
			 0);
	assert_true(run_until(p->base, &p->rb->count, 1, 2000));
	assert_memory_equal(p->rb->last.remote.bytes, lo.bytes, 4);
	assert_memory_equal(p->rb->last.local.bytes, lo.bytes, 4);
}

/* A NAT-T socket puts four zero bytes on the wire in front of IKE. */
static void test_natt_marker_on_wire(void **state)
{
	struct pair *p = *state;
	struct ikb_addr lo = A("127.0.0.1");
	uint8_t buf[64];
	uint16_t port;
	int fd = plain_socket("127.0.0.1", &port);

	assert_true(fd >= 0);
	assert_int_equal(net_send(p->a, &lo, p->oa.natt_port, &lo, port,
				  (const uint8_t *)"hdr", 3),
			 0);
	/* loopback delivers within sendmsg(); no waiting needed */
	assert_int_equal(recv(fd, buf, sizeof(buf), MSG_DONTWAIT), 7);
	assert_memory_equal(buf, "\0\0\0\0hdr", 7);
	assert_int_equal(net_send(p->a, &lo, p->oa.ike_port, &lo, port,
				  (const uint8_t *)"hdr", 3),
			 0);
	assert_int_equal(recv(fd, buf, sizeof(buf), MSG_DONTWAIT), 3);
	close(fd);
}

static void test_send_errors(void **state)
{
	struct pair *p = *state;
	struct ikb_addr lo = A("127.0.0.1"), lo6 = A("::1");
	struct ikb_addr none = { .family = AF_UNSPEC };
	const uint8_t x = 1;

	assert_int_equal(net_send(p->a, &lo, 1, &lo, p->ob.ike_port, &x, 1),
			 -EADDRNOTAVAIL);
	assert_int_equal(net_send(p->a, &lo, p->oa.ike_port, &none, 500, &x, 1),
			 -EAFNOSUPPORT);
	if (net_has_family(p->a, AF_INET6))
		assert_int_equal(net_send(p->a, &lo6, p->oa.ike_port, &lo,
					  p->ob.ike_port, &x, 1),
				 -EINVAL);
	assert_int_equal(
		net_send(p->a, &lo, p->oa.ike_port, &lo, p->ob.ike_port, &x, 0),
		-EMSGSIZE);
	/* not an address of this host: the kernel refuses the source */
	lo = A("192.0.2.77");
	assert_true(net_send(p->a, &lo, p->oa.ike_port, &lo, p->ob.ike_port, &x,
			     1) < 0);
}

/* The biggest IPv4 UDP payload fits the 64 KiB cap whole. */
static void test_max_datagram(void **state)
{
	struct pair *p = *state;
	struct ikb_addr lo = A("127.0.0.1");
	size_t len = 65507;
	uint8_t *big = malloc(len);

	for (size_t i = 0; i < len; i++)
		big[i] = (uint8_t)(i * 31);
	assert_int_equal(net_send(p->a, &lo, p->oa.ike_port, &lo,
				  p->ob.ike_port, big, len),
			 0);
	assert_true(run_until(p->base, &p->rb->count, 1, 2000));
	assert_int_equal(p->rb->last.len, len);
	assert_memory_equal(p->rb->last.buf, big, len);
	free(big);
}

/* A datagram larger than the cap is dropped and logged, not cut short. */
static void test_truncated_dropped(void **state)
{
	struct event_base *base = event_base_new();
	struct net_opts o = { .max_dgram = 1024 };
	struct rx *rx = calloc(1, sizeof(*rx));
	struct net *n = open_free(base, &o, rx);
	static uint8_t big[2000];
	struct net_stats st;
	uint16_t port;
	int fd = plain_socket("127.0.0.1", &port);
	char *log;

	assert_non_null(n);
	cap_begin();
	assert_int_equal(
		plain_sendto(fd, "127.0.0.1", o.ike_port, big, sizeof(big)),
		(int)sizeof(big));
	assert_int_equal(plain_sendto(fd, "127.0.0.1", o.ike_port, "ok", 2), 2);
	run_until(base, &rx->count, 1, 2000);
	log = cap_end();
	assert_int_equal(rx->count, 1);
	assert_int_equal(rx->last.len, 2);
	net_get_stats(n, &st);
	assert_int_equal(st.rx_truncated, 1);
	assert_non_null(
		strstr(log, "dropped a 2000-byte datagram from 127.0.0.1:"));
	assert_non_null(strstr(log, "larger than 1024 bytes"));
	close(fd);
	net_close(n);
	event_base_free(base);
	free(rx);
}

static unsigned count_in(const char *text, const char *needle)
{
	unsigned n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* The second of CLOCK_MONOTONIC, which the log's budget counts in. */
static long mono_sec(long *ms_into)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (ms_into)
		*ms_into = ts.tv_nsec / 1000000;
	return (long)ts.tv_sec;
}

/* Wait (at most a second) for a second of the clock to begin. */
static long next_second(void)
{
	long ms, s = mono_sec(&ms);
	struct timespec nap = { 0, 1000000 };

	for (int i = 0; i < 1200 && mono_sec(&ms) == s; i++)
		nanosleep(&nap, NULL);
	return mono_sec(NULL);
}

/* empties then "ok", which is delivered once they were read */
static void burst(struct event_base *base, struct rx *rx, int fd, uint16_t port,
		  int n)
{
	int want = rx->count + 1;

	for (int i = 0; i < n; i++)
		assert_int_equal(plain_sendto(fd, "127.0.0.1", port, "", 0), 0);
	assert_int_equal(plain_sendto(fd, "127.0.0.1", port, "ok", 2), 2);
	assert_true(run_until(base, &rx->count, want, 2000));
}

/*
 * The drop lines' budget (NET_DROP_LOG_RATE): 10 a second, then one line
 * with how many were held back. The burst starts as a second does and
 * is tried again should it not end within that second.
 */
static void test_drop_log_rate(void **state)
{
	struct event_base *base = event_base_new();
	struct net_opts o = { 0 };
	struct rx *rx = calloc(1, sizeof(*rx));
	struct net *n = open_free(base, &o, rx);
	uint16_t port;
	int fd = plain_socket("127.0.0.1", &port);
	const char *log = NULL; /* cap_end()'s, not to be freed */
	bool one_second = false;

	assert_non_null(n);
	for (int tries = 0; tries < 3 && !one_second; tries++) {
		long s;

		/* a new second also ends the last try's window */
		next_second();
		burst(base, rx, fd, o.ike_port, 1);
		s = next_second();
		cap_begin();
		burst(base, rx, fd, o.ike_port, 30);
		one_second = mono_sec(NULL) == s;
		log = cap_end();
	}
	assert_true(one_second);
	assert_int_equal(count_in(log, "dropped an empty datagram"), 10);
	assert_int_equal(count_in(log, "not logged"), 0);
	next_second();
	cap_begin();
	burst(base, rx, fd, o.ike_port, 1);
	log = cap_end();
	assert_int_equal(count_in(log, "20 more dropped datagrams not logged"),
			 1);
	assert_int_equal(count_in(log, "dropped an empty datagram"), 1);
	close(fd);
	net_close(n);
	event_base_free(base);
	free(rx);
}

/*
 * At most NET_RX_BATCH (64) datagrams are read per wake-up, so that a
 * flooded socket gives the loop back to the control socket and the
 * timers between batches: one pass of the loop over 100 queued ones
 * delivers 64, the next the other 36.
 */
static void test_rx_batch(void **state)
{
	struct event_base *base = event_base_new();
	struct net_opts o = { 0 };
	struct rx *rx = calloc(1, sizeof(*rx));
	struct net *n = open_free(base, &o, rx);
	uint16_t port;
	int fd = plain_socket("127.0.0.1", &port);

	assert_non_null(n);
	/* loopback queues each at the receiver before sendto returns */
	for (int i = 0; i < 100; i++)
		assert_int_equal(
			plain_sendto(fd, "127.0.0.1", o.ike_port, "x", 1), 1);
	event_base_loop(base, EVLOOP_ONCE);
	assert_int_equal(rx->count, 64);
	event_base_loop(base, EVLOOP_ONCE);
	assert_int_equal(rx->count, 100);
	close(fd);
	net_close(n);
	event_base_free(base);
	free(rx);
}

static void test_bind_error_names_address(void **state)
{
	struct pair *p = *state;
	struct net_opts o = { .ike_port = p->oa.ike_port, .natt_port = 0 };
	char err[256], want[128];
	struct net *n;

	n = net_open(p->base, &o, rx_cb, NULL, err, sizeof(err));
	assert_null(n);
	assert_int_equal(errno, EADDRINUSE);
	snprintf(want, sizeof(want),
		 "cannot bind UDP 0.0.0.0:%u: Address already in use",
		 o.ike_port);
	assert_string_equal(err, want);

	o.listen = "::1";
	if (!have_ipv6())
		return;
	n = net_open(p->base, &o, rx_cb, NULL, err, sizeof(err));
	assert_null(n);
	snprintf(want, sizeof(want),
		 "cannot bind UDP [::1]:%u: Address already in use",
		 o.ike_port);
	assert_string_equal(err, want);
}

static void test_listen(void **state)
{
	struct event_base *base = event_base_new();
	struct net_opts o = { .listen = "127.0.0.1" };
	struct rx *rx = calloc(1, sizeof(*rx));
	struct net *n = open_free(base, &o, rx);
	char err[256];
	uint16_t port;
	int fd = plain_socket("127.0.0.1", &port);

	assert_non_null(n);
	assert_true(net_has_family(n, AF_INET));
	assert_false(net_has_family(n, AF_INET6));
	assert_int_equal(plain_sendto(fd, "127.0.0.1", o.ike_port, "hi", 2), 2);
	assert_true(run_until(base, &rx->count, 1, 2000));
	assert_memory_equal(rx->last.local.bytes, "\x7f\0\0\1", 4);
	net_close(n);

	o.listen = "eth0";
	assert_null(net_open(base, &o, rx_cb, rx, err, sizeof(err)));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(err, "listen=eth0 is not an IP address");
	/* a foreign address cannot be bound, and the error says which */
	o.listen = "192.0.2.77";
	assert_null(net_open(base, &o, rx_cb, rx, err, sizeof(err)));
	assert_non_null(strstr(err, "cannot bind UDP 192.0.2.77:"));
	close(fd);
	event_base_free(base);
	free(rx);
}

/* Several queued datagrams are all read; closing from the callback is safe. */
static void test_burst_and_close_in_callback(void **state)
{
	struct pair *p = *state;
	struct ikb_addr lo = A("127.0.0.1");
	uint8_t msg = 0;

	for (int i = 0; i < 100; i++, msg++)
		assert_int_equal(net_send(p->a, &lo, p->oa.ike_port, &lo,
					  p->ob.ike_port, &msg, 1),
				 0);
	assert_true(run_until(p->base, &p->rb->count, 100, 2000));
	assert_int_equal(p->rb->last.buf[0], 99);

	p->rb->close_in_cb = true;
	assert_int_equal(net_send(p->a, &lo, p->oa.ike_port, &lo,
				  p->ob.ike_port, &msg, 1),
			 0);
	assert_int_equal(net_send(p->a, &lo, p->oa.ike_port, &lo,
				  p->ob.ike_port, &msg, 1),
			 0);
	assert_true(run_until(p->base, &p->rb->count, 101, 2000));
	/* the second one was not delivered to a closed net */
	assert_false(run_until(p->base, &p->rb->count, 102, 50));
	p->b = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, pair_setup, pair_teardown)
		T(test_round_trip_v4),
		T(test_round_trip_v4_natt),
		T(test_round_trip_v6),
		T(test_round_trip_v6_natt),
		T(test_send_without_local),
		T(test_natt_marker_on_wire),
		T(test_send_errors),
		T(test_max_datagram),
		cmocka_unit_test(test_truncated_dropped),
		cmocka_unit_test(test_drop_log_rate),
		cmocka_unit_test(test_rx_batch),
		T(test_bind_error_names_address),
		cmocka_unit_test(test_listen),
		T(test_burst_and_close_in_callback),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
