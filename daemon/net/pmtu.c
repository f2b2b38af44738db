// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The path MTU towards a peer, as the kernel knows it: the route's MTU,
 * or less once ICMP "fragmentation needed" taught it so. A connected UDP
 * socket asks (IP_MTU, IPV6_MTU) without sending anything.
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
