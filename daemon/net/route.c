// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the routing table says of a peer: the source address it picks
 * (MOBIKE), and the path MTU as the kernel knows it, the route's MTU or
 * less once ICMP "fragmentation needed" taught it so (IKE fragments). A
 * connected UDP socket asks (getsockname, IP_MTU, IPV6_MTU) without
 * sending anything.
 */
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/net.h"
#include "net/net_int.h"

int net_path_mtu(const struct ikb_addr *local, const struct ikb_addr *remote,
		 uint16_t rport)
{
	struct sockaddr_storage ss;
	int fd, mtu = 0, rc = 0;
	socklen_t len = sizeof(mtu);
	bool v6 = remote->family == AF_INET6;

	fd = socket(remote->family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (local && local->family == remote->family &&
	    bind(fd, (struct sockaddr *)&ss, addr_to_sockaddr(local, 0, &ss)))
		rc = -errno;
	if (!rc && connect(fd, (struct sockaddr *)&ss,
			   addr_to_sockaddr(remote, rport, &ss)))
		rc = -errno;
	if (!rc && getsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP,
			      v6 ? IPV6_MTU : IP_MTU, &mtu, &len))
		rc = -errno;
	close(fd);
	return rc ? rc : mtu;
}

int net_source_for(const struct ikb_addr *remote, struct ikb_addr *local)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	uint16_t port;
	int fd, rc = 0;

	fd = socket(remote->family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&ss,
		    addr_to_sockaddr(remote, 4500, &ss)) ||
	    getsockname(fd, (struct sockaddr *)&ss, &len))
		rc = -errno;
	close(fd);
	if (!rc && !addr_from_sockaddr(&ss, local, &port))
		rc = -EAFNOSUPPORT;
	return rc;
}
