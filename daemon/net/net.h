/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The IKE UDP sockets: ports 500 and 4500 (NAT-T), IPv4 and IPv6, on the
 * daemon's event loop. Each datagram is handed up with the local address it
 * arrived on, so that a reply leaves from the same address. The sockets
 * bypass the host's own IPsec policies, so IKE is never caught by them.
 */
#ifndef IKB_NET_H
#define IKB_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ikebana/types.h>

struct event_base;
struct net;

/* UDP payload cap, NAT-T marker included. Larger datagrams are dropped. */
#define NET_MAX_DGRAM 65536
/* "[ffff:...:ffff]:65535" with room to spare. */
#define NET_ADDRSTRLEN 56

struct net_opts {
	const char *listen; /* config setup listen=: an address, NULL = all */
	uint16_t ike_port; /* 500 */
	uint16_t natt_port; /* 4500; 0 = no NAT-T sockets */
	size_t max_dgram; /* 0 = NET_MAX_DGRAM; tests set less */
};

/*
 * One received IKE message. buf is the daemon's receive buffer (NAT-T
 * marker already stripped): valid only during the callback.
 */
struct net_dgram {
	const uint8_t *buf;
	size_t len;
	struct ikb_addr local, remote;
	uint16_t lport, rport; /* host byte order */
	int ifindex;
	bool natt; /* arrived on the NAT-T port */
};

typedef void (*net_recv_fn)(void *ctx, const struct net_dgram *d);

struct net_stats {
	uint64_t rx_ike; /* handed to the callback */
	uint64_t rx_truncated; /* larger than max_dgram */
	uint64_t rx_esp; /* ESP on the NAT-T port (kernel should take it) */
	uint64_t rx_keepalive; /* NAT-T keepalives (0xFF) */
	uint64_t rx_short; /* empty, or too short for the NAT-T marker */
	uint64_t rx_errors; /* recvmsg() failures, missing pktinfo */
	uint64_t tx_ok, tx_errors;
};

/*
 * Opens and binds every socket and registers read events on base. On
 * failure returns NULL, sets errno and writes a message naming the address
 * and port to err ("cannot bind UDP [::]:500: Address already in use").
 * Without IPv6 in the kernel it continues with IPv4 and logs that once.
 */
struct net *net_open(struct event_base *base, const struct net_opts *o,
		     net_recv_fn cb, void *ctx, char *err, size_t errlen);

/*
 * Sends buf from the socket bound to lport (NAT-T sockets prepend the
 * non-ESP marker). local chooses the source address; NULL or AF_UNSPEC
 * leaves it to the routing table. Returns 0 or a negative errno; -EAGAIN
 * when the socket buffer is full (the retransmit timer covers it).
 */
int net_send(struct net *n, const struct ikb_addr *local, uint16_t lport,
	     const struct ikb_addr *remote, uint16_t rport, const uint8_t *buf,
	     size_t len);

/* RFC 3948 NAT-keepalive: one 0xFF byte from the NAT-T socket. */
int net_send_keepalive(struct net *n, const struct ikb_addr *local,
		       const struct ikb_addr *remote, uint16_t rport);

/*
 * Whether a is an address of this host. The list is re-read when the
 * kernel announces an address change (RTM_NEWADDR/RTM_DELADDR), or on
 * every miss when that notification socket is unavailable.
 */
bool net_is_local(struct net *n, const struct ikb_addr *a);

/*
 * fn(ctx) once the host's addresses or routes changed (a burst of netlink
 * events is over); nothing without the notification socket.
 */
void net_on_change(struct net *n, void (*fn)(void *ctx), void *ctx);

/*
 * The source address the routing table picks towards remote (a connected
 * UDP socket's), into local: 0, or -errno (no route: -ENETUNREACH).
 */
int net_source_for(const struct ikb_addr *remote, struct ikb_addr *local);

/*
 * The path MTU from local (NULL: the routing table's choice) to remote, as
 * the kernel knows it (IP_MTU on a connected socket); -errno without one.
 */
int net_path_mtu(const struct ikb_addr *local, const struct ikb_addr *remote,
		 uint16_t rport);

/* Whether there are sockets of this family (IPv6 may be unavailable). */
bool net_has_family(const struct net *n, sa_family_t family);

void net_get_stats(const struct net *n, struct net_stats *st);

/* Safe to call from inside the receive callback: freeing is deferred. */
void net_close(struct net *n);

/* "192.0.2.1:500", "[2001:db8::1]:4500"; port 0 leaves the port out. */
const char *net_addr_fmt(const struct ikb_addr *a, uint16_t port, char *buf,
			 size_t len);
/* A literal IPv4 or IPv6 address; -EINVAL otherwise. */
int net_addr_parse(const char *s, struct ikb_addr *a);

#endif
