/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * left=%defaultroute: the address of the interface the default route goes
 * out of, from an rtnetlink dump of the routes and addresses. The choice
 * is a function of the dump alone (defroute_pick), so that it is tested
 * without a kernel.
 */
#ifndef IKB_NET_DEFROUTE_H
#define IKB_NET_DEFROUTE_H

#include <stddef.h>
#include <stdint.h>
#include <ikebana/types.h>

/* A default route of the main table (dst_len 0). */
struct defroute_route {
	int family;
	int oif;
	uint32_t metric; /* RTA_PRIORITY */
	struct ikb_addr prefsrc; /* RTA_PREFSRC; family 0: none */
};

/* An address of an interface, as RTM_NEWADDR gives it. */
struct defroute_addr {
	int ifindex;
	uint8_t scope; /* RT_SCOPE_UNIVERSE: global */
	uint32_t flags; /* IFA_F_* */
	struct ikb_addr addr;
};

/*
 * The default route of family (AF_UNSPEC: IPv4, else IPv6) with the
 * lowest metric; its preferred source, else the first global address of
 * its interface that is neither tentative nor deprecated. 0, -ENETUNREACH
 * (no default route) or -EADDRNOTAVAIL (no such address).
 */
int defroute_pick(int family, const struct defroute_route *r, size_t nr,
		  const struct defroute_addr *a, size_t na,
		  struct ikb_addr *out);

/* defroute_pick() on this host's routes and addresses, now. */
int defroute_addr(int family, struct ikb_addr *out);

#endif
