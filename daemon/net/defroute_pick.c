// SPDX-License-Identifier: GPL-2.0-or-later
/* The choice of %defaultroute's address; see defroute.h. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include "net/defroute.h"

static const struct defroute_route *
best_route(int family, const struct defroute_route *r, size_t nr)
{
	const struct defroute_route *best = NULL;

	for (size_t i = 0; i < nr; i++)
		if (r[i].family == family &&
		    (!best || r[i].metric < best->metric))
			best = &r[i];
	return best;
}

static bool usable(const struct defroute_addr *a, int family, int ifindex)
{
	return a->ifindex == ifindex && a->addr.family == family &&
	       a->scope == RT_SCOPE_UNIVERSE &&
	       !(a->flags &
		 (IFA_F_TENTATIVE | IFA_F_DEPRECATED | IFA_F_DADFAILED));
}

static int pick_family(int family, const struct defroute_route *r, size_t nr,
		       const struct defroute_addr *a, size_t na,
		       struct ikb_addr *out)
{
	const struct defroute_route *dr = best_route(family, r, nr);

	if (!dr)
		return -ENETUNREACH;
	if (dr->prefsrc.family == family) {
		*out = dr->prefsrc;
		return 0;
	}
	for (size_t i = 0; i < na; i++)
		if (usable(&a[i], family, dr->oif)) {
			*out = a[i].addr;
			return 0;
		}
	return -EADDRNOTAVAIL;
}

int defroute_pick(int family, const struct defroute_route *r, size_t nr,
		  const struct defroute_addr *a, size_t na,
		  struct ikb_addr *out)
{
	int rc;

	if (family != AF_UNSPEC)
		return pick_family(family, r, nr, a, na, out);
	rc = pick_family(AF_INET, r, nr, a, na, out);
	if (rc)
		rc = pick_family(AF_INET6, r, nr, a, na, out) ? rc : 0;
	return rc;
}
