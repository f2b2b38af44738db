// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NAT traversal on port 4500 (RFC 3948). IKE and ESP share the port: IKE
 * carries four zero bytes where ESP has its SPI. With UDP_ENCAP_ESPINUDP the
 * kernel takes ESP (and keepalives) itself and passes only IKE up, marker
 * still on; whatever else reaches us is classified here and dropped.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <string.h>

#include "net/net_int.h"

enum natt_kind natt_classify(const uint8_t *buf, size_t len)
{
	static const uint8_t zero[NATT_MARKER_LEN];

	if (len == 1 && buf[0] == 0xff)
		return NATT_KEEPALIVE;
	if (len < NATT_MARKER_LEN)
		return NATT_SHORT;
	if (memcmp(buf, zero, NATT_MARKER_LEN) != 0)
		return NATT_ESP;
	return NATT_IKE;
}

int natt_enable_encap(int fd)
{
	int type = UDP_ENCAP_ESPINUDP;

	if (setsockopt(fd, IPPROTO_UDP, UDP_ENCAP, &type, sizeof(type)) < 0)
		return -errno;
	return 0;
}

int net_send_keepalive(struct net *n, const struct ikb_addr *local,
		       const struct ikb_addr *remote, uint16_t rport)
{
	static const uint8_t ka = 0xff;
	struct iovec iov = { .iov_base = (void *)&ka, .iov_len = 1 };
	struct net_sock *s = NULL;

	for (size_t i = 0; i < n->nsocks; i++)
		if (n->socks[i].natt && n->socks[i].family == remote->family)
			s = &n->socks[i];
	if (!s)
		return -EAFNOSUPPORT;
	return udp_sendv(s, local, remote, rport, &iov, 1);
}
