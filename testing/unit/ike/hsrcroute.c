// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fake source routes of both peers (ike_io's srcroute_add and
 * srcroute_del, leftsourceip=): the routes and added addresses that
 * exist, and every call counted, so that a test sees that a rekey never
 * took the route away.
 */
#include <errno.h>
#include <string.h>

#include "harness.h"

static struct hsrc_route routes[HSRC_MAX];
unsigned hsrc_adds, hsrc_dels, hsrc_addr_adds, hsrc_addr_dels;

void hsrc_reset(void)
{
	memset(routes, 0, sizeof(routes));
	hsrc_adds = hsrc_dels = hsrc_addr_adds = hsrc_addr_dels = 0;
}

const struct hsrc_route *hsrc_routes(void)
{
	return routes;
}

unsigned hsrc_count(int who)
{
	unsigned n = 0;

	for (int i = 0; i < HSRC_MAX; i++)
		n += routes[i].used && routes[i].who == who;
	return n;
}

int hsrc_add(void *ctx, struct ike_srcroute *r, bool add_addr,
	     struct ikb_error *err)
{
	const struct hpeer *p = ctx;

	hsrc_adds++;
	for (int i = 0; i < HSRC_MAX; i++) {
		if (routes[i].used)
			continue;
		routes[i] = (struct hsrc_route){ .used = true,
						 .who = p->idx,
						 .r = *r,
						 .addr_added = add_addr };
		r->ifindex = routes[i].r.ifindex = 7;
		hsrc_addr_adds += add_addr;
		return 0;
	}
	snprintf(err->msg, sizeof(err->msg), "the fake table is full");
	return -ENOSPC;
}

int hsrc_del(void *ctx, const struct ike_srcroute *r, bool del_addr,
	     struct ikb_error *err)
{
	const struct hpeer *p = ctx;

	hsrc_dels++;
	hsrc_addr_dels += del_addr;
	for (int i = 0; i < HSRC_MAX; i++)
		if (routes[i].used && routes[i].who == p->idx &&
		    routes[i].r.plen == r->plen &&
		    !memcmp(&routes[i].r.net, &r->net, sizeof(r->net))) {
			routes[i].used = false;
			return 0;
		}
	snprintf(err->msg, sizeof(err->msg), "no such route");
	return -ESRCH;
}
