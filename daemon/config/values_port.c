// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of protocols and ports (leftprotoport=, ikeport=). As values.c's:
 * false with what was expected in `why`.
 */
#include <string.h>
#include <strings.h>

#include "config/internal.h"
#include "config/values.h"

struct named {
	const char *name;
	unsigned num;
};

/* A small table on purpose: /etc/services differs between hosts. */
static const struct named protocols[] = {
	{ "icmp", 1 },	 { "tcp", 6 }, { "udp", 17 },	 { "gre", 47 },
	{ "esp", 50 },	 { "ah", 51 }, { "icmpv6", 58 }, { "ipv6-icmp", 58 },
	{ "sctp", 132 }, { NULL, 0 },
};

static const struct named services[] = {
	{ "ftp", 21 },	  { "ssh", 22 },     { "telnet", 23 },
	{ "smtp", 25 },	  { "domain", 53 },  { "bootps", 67 },
	{ "bootpc", 68 }, { "http", 80 },    { "ntp", 123 },
	{ "snmp", 161 },  { "bgp", 179 },    { "ldap", 389 },
	{ "https", 443 }, { "isakmp", 500 }, { "submission", 587 },
	{ "ldaps", 636 }, { "l2tp", 1701 },  { "ipsec-nat-t", 4500 },
	{ NULL, 0 },
};

static bool lookup(const struct named *t, const char *s)
{
	for (; t->name; t++)
		if (!strcasecmp(t->name, s))
			return true;
	return false;
}

bool check_protoport(const char *v, char *why, size_t len)
{
	char proto[32];
	const char *slash = strchr(v, '/');
	size_t plen = slash ? (size_t)(slash - v) : strlen(v);
	unsigned long n;

	if (plen == 0 || plen >= sizeof(proto))
		FAIL("expected PROTOCOL[/PORT], e.g. tcp/22, udp or 17/%%any");
	memcpy(proto, v, plen);
	proto[plen] = '\0';
	if (!values_number(proto, 255, &n) && !lookup(protocols, proto) &&
	    strcmp(proto, "%any"))
		FAIL("unknown protocol \"%s\": expected a number 0..255 or one of icmp, tcp, udp, gre, esp, ah, icmpv6, sctp",
		     proto);
	if (!slash)
		return true;
	const char *port = slash + 1;

	if (!strcmp(port, "%any") || values_number(port, 65535, &n) ||
	    lookup(services, port))
		return true;
	FAIL("unknown port \"%s\": expected a number 0..65535, %%any or a well-known service name (ssh, http, https, domain, ...)",
	     port);
}

bool check_port(const char *v, char *why, size_t len)
{
	unsigned long n;

	if (values_number(v, 65535, &n) && n > 0)
		return true;
	FAIL("expected a port number 1..65535");
}
