// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Is an address one of ours? A cached getifaddrs() list. A netlink socket
 * subscribed to the address and route groups only marks the cache stale:
 * parsing the messages would duplicate what getifaddrs() already does,
 * and changes are rare. Without that socket, every miss re-reads the
 * list. Whoever asked (MOBIKE) hears of a change once a burst is over.
 */
#include <errno.h>
#include <event2/event.h>
#include <ifaddrs.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log/log.h"
#include "net/net_int.h"

struct ifaddr {
	struct ikb_addr *addrs;
	size_t n;
	bool stale;
	int nlfd;
	struct event *ev;
	/* who wants to hear of changes, once a burst of them is over */
	void (*changed)(void *ctx);
	void *ctx;
	struct event *settle;
};

/* An address goes with its routes: one call per burst, 200 ms later. */
#define IFADDR_SETTLE_MS 200

static void on_settled(evutil_socket_t fd, short what, void *arg)
{
	struct ifaddr *ifa = arg;

	if (ifa->changed)
		ifa->changed(ifa->ctx);
}

void ifaddr_on_change(struct ifaddr *ifa, void (*fn)(void *ctx), void *ctx)
{
	ifa->changed = fn;
	ifa->ctx = ctx;
}

static void ifaddr_refresh(struct ifaddr *ifa)
{
	struct ifaddrs *list, *i;
	size_t n = 0, cap = 0;
	struct ikb_addr *addrs = NULL;

	if (getifaddrs(&list) < 0) {
		log_warn("cannot list local addresses: %s", strerror(errno));
		return; /* keep the old list, still stale */
	}
	for (i = list; i; i = i->ifa_next) {
		struct sockaddr_storage ss;
		uint16_t port;

		if (!i->ifa_addr || (i->ifa_addr->sa_family != AF_INET &&
				     i->ifa_addr->sa_family != AF_INET6))
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct ikb_addr *t = realloc(addrs, ncap * sizeof(*t));

			if (!t)
				break;
			addrs = t;
			cap = ncap;
		}
		memset(&ss, 0, sizeof(ss));
		memcpy(&ss, i->ifa_addr,
		       i->ifa_addr->sa_family == AF_INET ?
			       sizeof(struct sockaddr_in) :
			       sizeof(struct sockaddr_in6));
		if (addr_from_sockaddr(&ss, &addrs[n], &port))
			n++;
	}
	freeifaddrs(list);
	free(ifa->addrs);
	ifa->addrs = addrs;
	ifa->n = n;
	ifa->stale = false;
}

static void ifaddr_nl_read(evutil_socket_t fd, short what, void *arg)
{
	struct ifaddr *ifa = arg;
	char buf[8192];

	/* The content does not matter; ENOBUFS (lost messages) neither. */
	for (;;) {
		ssize_t r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (r > 0 || (r < 0 && errno == ENOBUFS))
			continue;
		break;
	}
	ifa->stale = true;
	if (ifa->settle && ifa->changed) {
		struct timeval tv = { 0, IFADDR_SETTLE_MS * 1000 };

		evtimer_add(ifa->settle, &tv);
	}
}

static int ifaddr_nl_open(void)
{
	struct sockaddr_nl snl = {
		.nl_family = AF_NETLINK,
		/* routes too: they decide the source address to a peer */
		.nl_groups = RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR |
			     RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE,
	};
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
			NETLINK_ROUTE);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&snl, sizeof(snl)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

struct ifaddr *ifaddr_new(struct event_base *base)
{
	struct ifaddr *ifa = calloc(1, sizeof(*ifa));

	if (!ifa)
		return NULL;
	ifa->stale = true;
	ifa->settle = evtimer_new(base, on_settled, ifa);
	ifa->nlfd = ifaddr_nl_open();
	if (ifa->nlfd >= 0) {
		ifa->ev = event_new(base, ifa->nlfd, EV_READ | EV_PERSIST,
				    ifaddr_nl_read, ifa);
		if (!ifa->ev || event_add(ifa->ev, NULL) < 0) {
			if (ifa->ev)
				event_free(ifa->ev);
			ifa->ev = NULL;
			close(ifa->nlfd);
			ifa->nlfd = -1;
		}
	}
	if (ifa->nlfd < 0)
		log_info(
			"no address change notifications: local addresses are re-read on demand");
	return ifa;
}

static bool ifaddr_find(const struct ifaddr *ifa, const struct ikb_addr *a)
{
	size_t len = a->family == AF_INET ? 4 : 16;

	for (size_t i = 0; i < ifa->n; i++)
		if (ifa->addrs[i].family == a->family &&
		    memcmp(ifa->addrs[i].bytes, a->bytes, len) == 0)
			return true;
	return false;
}

bool ifaddr_is_local(struct ifaddr *ifa, const struct ikb_addr *a)
{
	if (a->family != AF_INET && a->family != AF_INET6)
		return false;
	if (ifa->stale)
		ifaddr_refresh(ifa);
	if (ifaddr_find(ifa, a))
		return true;
	if (ifa->nlfd >= 0)
		return false;
	ifaddr_refresh(ifa);
	return ifaddr_find(ifa, a);
}

void ifaddr_free(struct ifaddr *ifa)
{
	if (!ifa)
		return;
	if (ifa->ev)
		event_free(ifa->ev);
	if (ifa->settle)
		event_free(ifa->settle);
	if (ifa->nlfd >= 0)
		close(ifa->nlfd);
	free(ifa->addrs);
	free(ifa);
}
