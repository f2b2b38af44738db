/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the files of daemon/net/ only. */
#ifndef IKB_NET_INT_H
#define IKB_NET_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "log/log.h"
#include "net/net.h"

struct event;
struct ifaddr;

/* ike and natt, each for IPv4 and IPv6. */
#define NET_MAX_SOCKS 4
/* RFC 3948: the four zero bytes in front of IKE on the NAT-T port. */
#define NATT_MARKER_LEN 4

struct net_sock {
	struct net *net;
	int fd;
	sa_family_t family;
	uint16_t port;
	bool natt;
	struct event *ev;
};

struct net {
	struct event_base *base;
	net_recv_fn cb;
	void *ctx;
	struct net_sock socks[NET_MAX_SOCKS];
	size_t nsocks;
	struct ikb_addr listen; /* AF_UNSPEC: all addresses */
	uint8_t *buf;
	size_t bufsize;
	struct net_stats st;
	struct ifaddr *ifa;
	int depth; /* inside the receive callback */
	bool closing; /* net_close() called from the callback */
	struct log_ratelimit drop_rl; /* per-datagram drop log lines */
};

/* addr.c */
socklen_t addr_to_sockaddr(const struct ikb_addr *a, uint16_t port,
			   struct sockaddr_storage *ss);
bool addr_from_sockaddr(const struct sockaddr_storage *ss, struct ikb_addr *a,
			uint16_t *port);
bool addr_is_any(const struct ikb_addr *a);

/* natt.c */
enum natt_kind {
	NATT_IKE, /* zero marker: IKE follows */
	NATT_KEEPALIVE, /* a single 0xFF */
	NATT_ESP, /* non-zero first four bytes: an ESP SPI */
	NATT_SHORT, /* too short for a marker */
};
enum natt_kind natt_classify(const uint8_t *buf, size_t len);
int natt_enable_encap(int fd);

/* bypass.c */
int bypass_socket(int fd, sa_family_t family);

/* ifaddr.c */
struct ifaddr *ifaddr_new(struct event_base *base);
bool ifaddr_is_local(struct ifaddr *ifa, const struct ikb_addr *a);
void ifaddr_free(struct ifaddr *ifa);
void ifaddr_on_change(struct ifaddr *ifa, void (*fn)(void *ctx), void *ctx);

/* udp.c */
struct net_sock *udp_find_sock(struct net *n, sa_family_t family,
			       uint16_t port);
int udp_sendv(struct net_sock *s, const struct ikb_addr *local,
	      const struct ikb_addr *remote, uint16_t rport,
	      const struct iovec *iov, int iovcnt);

#endif
