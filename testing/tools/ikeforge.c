// SPDX-License-Identifier: GPL-2.0-or-later
#include <linux/xfrm.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "ikeforge.h"

void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

unsigned get16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

int hex8(const char *s, uint8_t out[8])
{
	if (strlen(s) != 16)
		return -1;
	for (int i = 0; i < 8; i++) {
		unsigned b;

		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (uint8_t)b;
	}
	return 0;
}

int bypass(int fd, int family)
{
	struct xfrm_userpolicy_info pol = {
		.action = XFRM_POLICY_ALLOW,
		.sel.family = (uint16_t)family,
		.lft = { .soft_byte_limit = XFRM_INF,
			 .hard_byte_limit = XFRM_INF,
			 .soft_packet_limit = XFRM_INF,
			 .hard_packet_limit = XFRM_INF },
	};
	int level = family == AF_INET ? IPPROTO_IP : IPPROTO_IPV6;
	int opt = family == AF_INET ? IP_XFRM_POLICY : IPV6_XFRM_POLICY;

	for (uint8_t dir = XFRM_POLICY_IN; dir <= XFRM_POLICY_OUT; dir++) {
		pol.dir = dir;
		if (setsockopt(fd, level, opt, &pol, sizeof(pol)))
			return -1;
	}
	return 0;
}
