// SPDX-License-Identifier: GPL-2.0-or-later
/* struct ikb_addr to and from sockaddr and text. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "net/net_int.h"

socklen_t addr_to_sockaddr(const struct ikb_addr *a, uint16_t port,
			   struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (a->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		memcpy(&sin->sin_addr, a->bytes, 4);
		return sizeof(*sin);
	}
	if (a->family == AF_INET6) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		memcpy(&sin6->sin6_addr, a->bytes, 16);
		return sizeof(*sin6);
	}
	return 0;
}

bool addr_from_sockaddr(const struct sockaddr_storage *ss, struct ikb_addr *a,
			uint16_t *port)
{
	memset(a, 0, sizeof(*a));
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;

		a->family = AF_INET;
		memcpy(a->bytes, &sin->sin_addr, 4);
		*port = ntohs(sin->sin_port);
		return true;
	}
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 =
			(const struct sockaddr_in6 *)ss;

		a->family = AF_INET6;
		memcpy(a->bytes, &sin6->sin6_addr, 16);
		*port = ntohs(sin6->sin6_port);
		return true;
	}
	return false;
}

bool addr_is_any(const struct ikb_addr *a)
{
	static const uint8_t zero[16];

	if (a->family == AF_INET)
		return memcmp(a->bytes, zero, 4) == 0;
	if (a->family == AF_INET6)
		return memcmp(a->bytes, zero, 16) == 0;
	return true;
}

const char *net_addr_fmt(const struct ikb_addr *a, uint16_t port, char *buf,
			 size_t len)
{
	char ip[INET6_ADDRSTRLEN];

	if (!a || (a->family != AF_INET && a->family != AF_INET6)) {
		snprintf(buf, len, "*");
		return buf;
	}
	inet_ntop(a->family, a->bytes, ip, sizeof(ip));
	if (port == 0)
		snprintf(buf, len, "%s", ip);
	else if (a->family == AF_INET6)
		snprintf(buf, len, "[%s]:%u", ip, port);
	else
		snprintf(buf, len, "%s:%u", ip, port);
	return buf;
}

int net_addr_parse(const char *s, struct ikb_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, a->bytes) == 1) {
		a->family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, a->bytes) == 1) {
		a->family = AF_INET6;
		return 0;
	}
	memset(a, 0, sizeof(*a));
	return -EINVAL;
}
