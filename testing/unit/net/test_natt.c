// SPDX-License-Identifier: GPL-2.0-or-later
/* Port 4500: non-ESP marker, ESP and keepalives that must not reach IKE. */
#include <event2/event.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "net/net_int.h"
#include "tutil.h"

struct fx {
	struct event_base *base;
	struct net *n;
	struct net_opts o;
	struct rx *rx;
	int fd; /* a plain socket: the "peer" */
	uint16_t port;
	const char *ip;
};

static int fx_setup_ip(void **state, const char *ip)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->ip = ip;
	f->base = event_base_new();
	f->rx = calloc(1, sizeof(*f->rx));
	f->o.natt_port = 1;
	f->n = open_free(f->base, &f->o, f->rx);
	f->fd = plain_socket(ip, &f->port);
	*state = f;
	return f->n && f->fd >= 0 ? 0 : -1;
}

static int fx_setup(void **state)
{
	return fx_setup_ip(state, "127.0.0.1");
}

static int fx_setup6(void **state)
{
	if (!have_ipv6()) {
		*state = NULL;
		return 0;
	}
	return fx_setup_ip(state, "::1");
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;

	if (!f)
		return 0;
	close(f->fd);
	net_close(f->n);
	event_base_free(f->base);
	free(f->rx);
	free(f);
	return 0;
}

static void test_classify(void **state)
{
	static const uint8_t ike[] = { 0, 0, 0, 0, 1, 2 };
	static const uint8_t esp[] = { 0, 0, 0, 1, 1, 2, 3, 4, 5 };
	static const uint8_t ka[] = { 0xff };

	assert_int_equal(natt_classify(ike, sizeof(ike)), NATT_IKE);
	assert_int_equal(natt_classify(ike, 4), NATT_IKE);
	assert_int_equal(natt_classify(esp, sizeof(esp)), NATT_ESP);
	assert_int_equal(natt_classify(ka, 1), NATT_KEEPALIVE);
	assert_int_equal(natt_classify(ike, 1), NATT_SHORT);
	assert_int_equal(natt_classify(ike, 3), NATT_SHORT);
	assert_int_equal(natt_classify(ka, 0), NATT_SHORT);
}

static void send_raw(struct fx *f, const void *buf, size_t len)
{
	assert_int_equal(plain_sendto(f->fd, f->ip, f->o.natt_port, buf, len),
			 (int)len);
}

/* A marker-framed message arrives stripped, with natt set. */
static void marker_stripped(struct fx *f)
{
	send_raw(f, "\0\0\0\0IKE", 7);
	assert_true(run_until(f->base, &f->rx->count, 1, 2000));
	assert_int_equal(f->rx->last.len, 3);
	assert_memory_equal(f->rx->last.buf, "IKE", 3);
	assert_true(f->rx->last.natt);
	assert_int_equal(f->rx->last.lport, f->o.natt_port);
	assert_int_equal(f->rx->last.rport, f->port);
}

static void test_marker_stripped(void **state)
{
	marker_stripped(*state);
}

static void test_marker_stripped_v6(void **state)
{
	if (!*state) {
		print_message("skipped: no IPv6 (::1) on this host\n");
		skip();
	}
	marker_stripped(*state);
}

/*
 * ESP on 4500 never reaches the callback: a full-size one is taken by the
 * kernel (UDP_ENCAP; no SA, so it is dropped there), a short one comes up
 * and is dropped with a log line. The IKE message sent after them shows
 * they were processed.
 */
static void test_esp_dropped(void **state)
{
	struct fx *f = *state;
	static const uint8_t esp[64] = { 0xc0, 0xff, 0xee, 0x01, 0, 0, 0, 1 };
	struct net_stats st;
	char *log;

	cap_begin();
	send_raw(f, esp, sizeof(esp));
	send_raw(f, esp, 8); /* too short for the kernel to call it ESP */
	send_raw(f, "\0\0\0\0IKE", 7);
	run_until(f->base, &f->rx->count, 1, 2000);
	log = cap_end();
	assert_int_equal(f->rx->count, 1);
	assert_memory_equal(f->rx->last.buf, "IKE", 3);
	net_get_stats(f->n, &st);
	assert_true(st.rx_esp >= 1);
	assert_int_equal(st.rx_ike, 1);
	assert_non_null(strstr(log, "dropped ESP from 127.0.0.1:"));
}

static void test_short_dropped(void **state)
{
	struct fx *f = *state;
	struct net_stats st;
	char *log;

	cap_begin();
	send_raw(f, "\0\0", 2);
	send_raw(f, "\0\0\0\0", 4); /* a marker and nothing */
	send_raw(f, "\0\0\0\0IKE", 7);
	run_until(f->base, &f->rx->count, 1, 2000);
	log = cap_end();
	assert_int_equal(f->rx->count, 1);
	net_get_stats(f->n, &st);
	assert_int_equal(st.rx_short, 2);
	assert_non_null(strstr(log, "dropped a 2-byte datagram"));
	assert_non_null(strstr(log, "dropped an empty datagram"));
}

/* A keepalive is eaten by the kernel or ignored by us: never IKE. */
static void test_keepalive_ignored(void **state)
{
	struct fx *f = *state;

	send_raw(f, "\xff", 1);
	send_raw(f, "\0\0\0\0IKE", 7);
	run_until(f->base, &f->rx->count, 1, 2000);
	assert_int_equal(f->rx->count, 1);
	assert_int_equal(f->rx->last.len, 3);
}

/* On port 500 the same bytes are IKE as they are: no marker there. */
static void test_no_marker_on_500(void **state)
{
	struct fx *f = *state;

	assert_int_equal(
		plain_sendto(f->fd, f->ip, f->o.ike_port, "\0\0\0\0IKE", 7), 7);
	assert_true(run_until(f->base, &f->rx->count, 1, 2000));
	assert_int_equal(f->rx->last.len, 7);
	assert_false(f->rx->last.natt);
}

static void test_keepalive_send(void **state)
{
	struct fx *f = *state;
	struct ikb_addr lo = A(f->ip);
	uint8_t buf[16];
	struct sockaddr_in from;
	socklen_t fl = sizeof(from);

	assert_int_equal(net_send_keepalive(f->n, &lo, &lo, f->port), 0);
	assert_int_equal(recvfrom(f->fd, buf, sizeof(buf), MSG_DONTWAIT,
				  (struct sockaddr *)&from, &fl),
			 1);
	assert_int_equal(buf[0], 0xff);
	assert_int_equal(ntohs(from.sin_port), f->o.natt_port);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
#define T(f) cmocka_unit_test_setup_teardown(f, fx_setup, fx_teardown)
		T(test_marker_stripped),
		cmocka_unit_test_setup_teardown(test_marker_stripped_v6,
						fx_setup6, fx_teardown),
		T(test_esp_dropped),
		T(test_short_dropped),
		T(test_keepalive_ignored),
		T(test_no_marker_on_500),
		T(test_keepalive_send),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
