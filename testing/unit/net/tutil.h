/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers for the net tests: free ports, loop until, captured log. */
#ifndef IKB_TEST_NET_TUTIL_H
#define IKB_TEST_NET_TUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/net.h"

struct event_base;

/* What a test's receive callback saw. */
struct rx {
	int count;
	struct net_dgram last; /* last.buf points into data */
	uint8_t data[NET_MAX_DGRAM];
	bool close_in_cb; /* net_close() from the callback */
	struct net *self;
};

void rx_cb(void *ctx, const struct net_dgram *d);

/*
 * net_open() on a free pair of ports (ike, ike + 1; NAT-T only when
 * o->natt_port is non-zero on entry): another test, or the
 * ASan build run in parallel, may hold some. o->ike_port and natt_port are
 * filled in; o->natt_port is left 0 when it was 0.
 */
struct net *open_free(struct event_base *base, struct net_opts *o,
		      struct rx *rx);

/* Runs the loop until *count >= want or ms pass; returns *count >= want. */
bool run_until(struct event_base *base, const int *count, int want, int ms);

/* A plain UDP socket bound to addr (port 0: any); returns fd, port. */
int plain_socket(const char *addr, uint16_t *port);
int plain_sendto(int fd, const char *addr, uint16_t port, const void *buf,
		 size_t len);

struct ikb_addr A(const char *s);
bool have_ipv6(void);

/* Log capture: stderr goes to a file until cap_end() returns its text. */
void cap_begin(void);
char *cap_end(void);

#endif
