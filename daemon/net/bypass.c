// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-socket IPsec bypass. A host policy such as "encrypt all UDP to the
 * peer" would otherwise catch the IKE packets that are meant to set up that
 * very SA. A socket policy is looked up before the SPD, so an ALLOW policy
 * on the IKE sockets exempts them in both directions. Needs CAP_NET_ADMIN.
 */
#include <errno.h>
#include <linux/xfrm.h>
#include <netinet/in.h>
#include <string.h>

#include "net/net_int.h"

static int bypass_dir(int fd, sa_family_t family, uint8_t dir)
{
	struct xfrm_userpolicy_info pol;
	int level = family == AF_INET ? IPPROTO_IP : IPPROTO_IPV6;
	int opt = family == AF_INET ? IP_XFRM_POLICY : IPV6_XFRM_POLICY;

	memset(&pol, 0, sizeof(pol));
	pol.action = XFRM_POLICY_ALLOW;
	pol.sel.family = family;
	pol.dir = dir;
	/* Zero limits would not expire it either, but say "never" plainly. */
	pol.lft.soft_byte_limit = XFRM_INF;
	pol.lft.hard_byte_limit = XFRM_INF;
	pol.lft.soft_packet_limit = XFRM_INF;
	pol.lft.hard_packet_limit = XFRM_INF;
	if (setsockopt(fd, level, opt, &pol, sizeof(pol)) < 0)
		return -errno;
	return 0;
}

int bypass_socket(int fd, sa_family_t family)
{
	int rc = bypass_dir(fd, family, XFRM_POLICY_IN);

	if (rc == 0)
		rc = bypass_dir(fd, family, XFRM_POLICY_OUT);
	return rc;
}
