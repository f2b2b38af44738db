// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of addresses, host names, IDs and subnets (left=, leftnexthop=,
 * leftid=, leftsubnet=, listen=). As values.c's: false with what was
 * expected in `why`.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "config/groups.h"
#include "config/internal.h"
#include "config/values.h"

int addr_family(const char *s)
{
	unsigned char buf[16];

	if (inet_pton(AF_INET, s, buf) == 1)
		return AF_INET;
	if (inet_pton(AF_INET6, s, buf) == 1)
		return AF_INET6;
	return 0;
}

/* A DNS name by syntax only: labels of letters, digits and '-'. */
static bool dns_name(const char *s)
{
	size_t n = strlen(s), label = 0;
	bool alpha = false;

	if (n == 0 || n > 253 || s[0] == '.' || s[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c == '.') {
			if (label == 0 || s[i - 1] == '-')
				return false;
			label = 0;
			continue;
		}
		if (!isalnum(c) && c != '-')
			return false;
		if (isalpha(c))
			alpha = true;
		if (++label > 63)
			return false;
	}
	/* all digits and dots is a broken IPv4 address, not a name */
	return alpha && s[n - 1] != '-';
}

bool check_host(const char *v, char *why, size_t len)
{
	static const char *const ok[] = {
		"%any",		  "%any4",	    "%any6", "%defaultroute",
		"%defaultroute4", "%defaultroute6", NULL
	};

	/* opportunistic: the peer is the destination of the traffic */
	if (values_one_of(v, ok) || addr_family(v) || dns_name(v) ||
	    cfg_host_is_oppo(v))
		return true;
	if (v[0] == '%')
		FAIL("expected an IP address, a DNS name, %%any, %%any4, %%any6 or %%defaultroute (interface names like %s are not supported)",
		     v);
	FAIL("expected an IP address, a DNS name, %%any or %%defaultroute");
}

bool check_nexthop(const char *v, char *why, size_t len)
{
	if (addr_family(v) || !strcasecmp(v, "%defaultroute") ||
	    !strcasecmp(v, "%direct"))
		return true;
	FAIL("expected an IP address, %%defaultroute or %%direct");
}

bool check_addr(const char *v, char *why, size_t len)
{
	if (addr_family(v))
		return true;
	FAIL("expected an IP address");
}

/* "user@domain": something printable before the last @, a name after */
static bool rfc822_ok(const char *v, char *why, size_t len)
{
	const char *at = strrchr(v, '@');

	for (const char *p = v; p < at; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f)
			FAIL("expected user@domain without white space or control characters before the @");
	if (!dns_name(at + 1))
		FAIL("expected user@domain with a domain name after the @");
	return true;
}

bool check_id(const char *v, char *why, size_t len)
{
	if (!strcmp(v, "%fromcert"))
		return true;
	if (!strcmp(v, "%any") || !strcmp(v, "%none") || !strcmp(v, "%null"))
		return true;
	if (v[0] == '@') {
		if (v[1] == '[') {
			if (strlen(v) < 4 || v[strlen(v) - 1] != ']')
				FAIL("expected @[KEY-ID] with a closing ]");
			return true;
		}
		if (v[1] == '#' || v[1] == '~')
			return v[2] ? true :
				      (snprintf(
					       why, len,
					       "expected hex digits after %.2s",
					       v),
				       false);
		if (!v[1])
			FAIL("expected a name after @");
		return true;
	}
	if (addr_family(v))
		return true;
	/* a DN: "C=CH, O=Example, CN=west" */
	if (strchr(v, '=') && isalpha((unsigned char)v[0]))
		return true;
	/* user@domain: ID_RFC822_ADDR (libreswan 5 reads it so too) */
	if (strchr(v, '@') && v[0] != '@')
		return rfc822_ok(v, why, len);
	if (dns_name(v))
		return true;
	FAIL("expected @FQDN, user@domain, @[KEY-ID], an IP address, a DN like \"C=CH, O=Example, CN=west\" or %%any");
}

/* "ADDR/BITS" or a bare address; *host_bits set if bits beyond BITS. */
static int parse_cidr(const char *s, bool *host_bits)
{
	char addr[64];
	const char *slash = strchr(s, '/');
	size_t alen = slash ? (size_t)(slash - s) : strlen(s);
	unsigned char buf[16];

	*host_bits = false;
	if (alen == 0 || alen >= sizeof(addr))
		return 0;
	memcpy(addr, s, alen);
	addr[alen] = '\0';
	int af = addr_family(addr);

	if (!af)
		return 0;
	unsigned max = af == AF_INET ? 32 : 128, bits = max;

	if (slash) {
		char *end;

		if (!isdigit((unsigned char)slash[1]))
			return 0;
		errno = 0;
		unsigned long b = strtoul(slash + 1, &end, 10);

		if (*end || errno || b > max)
			return 0;
		bits = (unsigned)b;
	}
	inet_pton(af, addr, buf);
	for (unsigned i = bits; i < max; i++)
		if (buf[i / 8] & (0x80 >> (i % 8)))
			*host_bits = true;
	return af;
}

/* interface-ip=: ADDR/BITS with its host bits (ip addr add's form), or ADDR. */
bool check_ifaddr(const char *v, char *why, size_t len)
{
	bool hb;

	if (parse_cidr(v, &hb))
		return true;
	FAIL("expected an address with its prefix length, as 192.0.2.1/24 or 2001:db8::1/64");
}

/* A subnet's family; of a list's first (check_subnet: one family). */
int subnet_family(const char *s)
{
	char buf[64];
	bool hb;

	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(s, ", \t"), s);
	return parse_cidr(buf, &hb);
}

static bool check_one_subnet(const char *v, char *why, size_t len);

/*
 * leftsubnet=A,B,...: libreswan 5's several selectors of one Child SA, up
 * to IKB_CONN_NETS_MAX of one family.
 */
bool check_subnet(const char *v, char *why, size_t len)
{
	char buf[512], *save, *t;
	unsigned n = 0;
	int fam = 0;
	bool hb;

	if (!strchr(v, ','))
		return check_one_subnet(v, why, len);
	if (strlen(v) >= sizeof(buf))
		FAIL("the list is too long");
	strcpy(buf, v);
	for (t = strtok_r(buf, ", \t", &save); t;
	     t = strtok_r(NULL, ", \t", &save)) {
		if (!check_one_subnet(t, why, len))
			return false;
		if (++n > IKB_CONN_NETS_MAX)
			FAIL("more than %u subnets", IKB_CONN_NETS_MAX);
		if (fam && parse_cidr(t, &hb) != fam)
			FAIL("%s is of the other address family", t);
		fam = parse_cidr(t, &hb);
	}
	if (!n)
		FAIL("an empty list; expected ADDRESS/PREFIX[,ADDRESS/PREFIX...]");
	return true;
}

static bool check_one_subnet(const char *v, char *why, size_t len)
{
	bool hb;
	int af;

	if (!strncmp(v, "vhost:", 6) || !strncmp(v, "vnet:", 5))
		FAIL("vhost: and vnet: are IKEv1-only; ikebana speaks IKEv2 only");
	af = parse_cidr(v, &hb);
	if (!af)
		FAIL("expected a subnet ADDRESS/PREFIX, e.g. 192.0.2.0/24 or 2001:db8::/32");
	/*
	 * libreswan masks IPv4 host bits with a warning and refuses them for
	 * IPv6 (ttosubnet() clash mode '6'); ikebana refuses both, as a typo
	 * in a traffic selector is not something to guess about.
	 */
	if (hb)
		FAIL("host bits are set after the prefix length; expected a network address");
	return true;
}

bool check_host_family(const char *v, char *why, size_t len)
{
	if (!strcasecmp(v, "ipv4") || !strcasecmp(v, "ipv6"))
		return true;
	FAIL("expected ipv4 or ipv6");
}

bool check_listen(const char *v, char *why, size_t len)
{
	if (addr_family(v))
		return true;
	FAIL("expected an IP address");
}
