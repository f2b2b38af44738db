/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * leftsourceip=: this host's own traffic to the peer's subnet leaves
 * with that source address, so that it matches the conn's policy (whose
 * local selector is leftsubnet=, which the host's other addresses may
 * not be in) rather than going out in clear. As libreswan's updown does:
 * the address goes on the device towards the peer when the host lacks
 * it, and `ip route replace NET via NEXTHOP dev DEV src SOURCEIP` in the
 * main table, with the next hop and device of the route to the peer (the
 * peer itself when it is on the link).
 */
#ifndef IKB_NET_SRCROUTE_H
#define IKB_NET_SRCROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ikebana/types.h>

struct nlmsghdr;

struct srcroute {
	struct ikb_addr src; /* leftsourceip= */
	struct ikb_addr net; /* the peer's subnet */
	uint8_t plen;
	struct ikb_addr peer; /* the peer's IKE address */
	/* filled by srcroute_add(): the route to the peer */
	uint32_t ifindex;
	struct ikb_addr via;
};

/*
 * Add src to the device towards the peer when add_addr (the host lacks
 * it), then the route; fills r's ifindex and via. 0, or -errno with err
 * (what was added is removed again).
 */
int srcroute_add(struct srcroute *r, bool add_addr, char *err, size_t len);
/* The route, and src from the device when del_addr: 0 or -errno. */
int srcroute_del(const struct srcroute *r, bool del_addr, char *err,
		 size_t len);

/* srcroute_msg.c: the messages, without a socket (for unit tests). */
#define SRCROUTE_MSG_MAX 512
struct nlmsghdr *srcroute_msg_get(void *buf, const struct ikb_addr *dst);
/* The oif and gateway of a RTM_NEWROUTE answer: 0 or -EINVAL. */
int srcroute_parse_route(const struct nlmsghdr *nlh, uint32_t *oif,
			 struct ikb_addr *via);
/* RTM_NEWADDR (NLM_F_EXCL) or RTM_DELADDR of a as a host address */
struct nlmsghdr *srcroute_msg_addr(void *buf, bool add,
				   const struct ikb_addr *a, uint32_t ifindex);
/* The same with the prefix length plen (interface-ip=, net/ifip.c) */
struct nlmsghdr *srcroute_msg_ifaddr(void *buf, bool add,
				     const struct ikb_addr *a, uint8_t plen,
				     uint32_t ifindex);
struct nlmsghdr *srcroute_msg_route(void *buf, bool add,
				    const struct srcroute *r);

#endif
