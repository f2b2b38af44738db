/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Peer host names (left=, right=) resolved with ldns's stub resolver,
 * from /etc/resolv.conf, as names taken to be fully qualified: no search
 * list is applied. A lookup blocks for as long as the servers take, up to
 * the resolver's timeout, so it runs on the helper pool's slow lane.
 */
#ifndef IKB_DNS_DNS_H
#define IKB_DNS_DNS_H

#include <ikebana/types.h>

/* The longest one lookup takes when no server answers: tries × wait. */
#define DNS_TRY_S 2
#define DNS_TRIES 2

struct dns_answer {
	int rc; /* 0, or -errno: -ENOENT, -EAGAIN, -ETIMEDOUT, -ENODATA */
	struct ikb_addr addr; /* rc 0: the first address of the answer */
	/* rc != 0: "NXDOMAIN", "SERVFAIL", "timeout after 4 s", ... */
	char why[128];
};

/*
 * name's A record (family AF_INET), AAAA (AF_INET6), or either (AF_UNSPEC:
 * A first, then AAAA). resolv_conf NULL: /etc/resolv.conf. Blocks.
 */
void dns_lookup(const char *name, int family, const char *resolv_conf,
		struct dns_answer *out);

#endif
