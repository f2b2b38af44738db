// SPDX-License-Identifier: GPL-2.0-or-later
/* interface-ip= through rtnetlink (net/ifip.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>

#include "net/ifip.h"
#include "net/rtnl.h"
#include "net/srcroute.h"

static const char *astr(const struct ikb_addr *a, char *buf, size_t len)
{
	if (!inet_ntop(a->family, a->bytes, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

/* One request about a/plen on name: 0 or -errno. */
static int ask(const char *name, bool add, const struct ikb_addr *a,
	       uint8_t plen)
{
	char buf[SRCROUTE_MSG_MAX];
	unsigned idx = if_nametoindex(name);
	struct rtnl t;
	int rc;

	if (!idx)
		return -ENODEV;
	rc = rtnl_open(&t);
	if (rc)
		return rc;
	rc = rtnl_ask(&t, srcroute_msg_ifaddr(buf, add, a, plen, idx), NULL,
		      NULL);
	rtnl_close(&t);
	return rc;
}

int ifip_add(const char *name, const struct ikb_addr *a, uint8_t plen,
	     bool *added, char *err, size_t len)
{
	char s[INET6_ADDRSTRLEN];
	int rc = ask(name, true, a, plen);

	*added = !rc;
	if (rc == -EEXIST)
		return 0;
	if (rc)
		snprintf(err, len, "cannot add %s/%u to %s: %s",
			 astr(a, s, sizeof(s)), plen, name, strerror(-rc));
	return rc;
}

int ifip_del(const char *name, const struct ikb_addr *a, uint8_t plen,
	     char *err, size_t len)
{
	char s[INET6_ADDRSTRLEN];
	int rc = ask(name, false, a, plen);

	/* gone already: the device went with it, or an admin removed it */
	if (rc == -ENODEV || rc == -EADDRNOTAVAIL)
		return 0;
	if (rc)
		snprintf(err, len, "cannot remove %s/%u from %s: %s",
			 astr(a, s, sizeof(s)), plen, name, strerror(-rc));
	return rc;
}
