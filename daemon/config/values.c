// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of single values. Each returns false and says what it expected
 * in `why`; the caller adds "conn NAME: KEY=VALUE: " and file:line.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "config/internal.h"

#define FAIL(...)                                \
	do {                                     \
		snprintf(why, len, __VA_ARGS__); \
		return false;                    \
	} while (0)

static bool one_of(const char *v, const char *const *names)
{
	for (; *names; names++)
		if (!strcasecmp(v, *names))
			return true;
	return false;
}

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
	static const char *const oppo[] = {
		"%opportunistic", "%oppo",  "%opportunisticgroup",
		"%oppogroup",	  "%group", NULL
	};

	if (one_of(v, ok) || addr_family(v) || dns_name(v))
		return true;
	if (one_of(v, oppo))
		FAIL("opportunistic encryption is not supported by ikebana");
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

int subnet_family(const char *s)
{
	bool hb;

	return parse_cidr(s, &hb);
}

bool check_subnet(const char *v, char *why, size_t len)
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

static bool number(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return !*end && !errno && *out <= max;
}

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
	if (!number(proto, 255, &n) && !lookup(protocols, proto) &&
	    strcmp(proto, "%any"))
		FAIL("unknown protocol \"%s\": expected a number 0..255 or one of icmp, tcp, udp, gre, esp, ah, icmpv6, sctp",
		     proto);
	if (!slash)
		return true;
	const char *port = slash + 1;

	if (!strcmp(port, "%any") || number(port, 65535, &n) ||
	    lookup(services, port))
		return true;
	FAIL("unknown port \"%s\": expected a number 0..65535, %%any or a well-known service name (ssh, http, https, domain, ...)",
	     port);
}

bool check_port(const char *v, char *why, size_t len)
{
	unsigned long n;

	if (number(v, 65535, &n) && n > 0)
		return true;
	FAIL("expected a port number 1..65535");
}

bool check_id(const char *v, char *why, size_t len)
{
	if (!strcmp(v, "%fromcert"))
		FAIL("%%fromcert is not implemented by ikebana yet (certificates are not supported)");
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
	if (dns_name(v))
		return true;
	FAIL("expected @FQDN, @[KEY-ID], an IP address, a DN like \"C=CH, O=Example, CN=west\" or %%any");
}

bool check_authby(const char *v, char *why, size_t len)
{
	static const char *const known[] = { "rsasig",	       "rsa",
					     "ecdsa",	       "null",
					     "never",	       "eaponly",
					     "rsa-sha1",       "rsa-sha2",
					     "rsa-sha2_256",   "rsa-sha2_384",
					     "rsa-sha2_512",   "ecdsa-sha2",
					     "ecdsa-sha2_256", "ecdsa-sha2_384",
					     "ecdsa-sha2_512", "secret|rsasig",
					     "rsasig|secret",  NULL };
	char *copy = strdup(v), *save, *t;
	bool ok = true, any = false;

	if (!copy)
		abort();
	for (t = strtok_r(copy, ", ", &save); t && ok;
	     t = strtok_r(NULL, ", ", &save)) {
		any = true;
		if (!strcmp(t, "secret"))
			continue;
		ok = false;
		if (one_of(t, known))
			snprintf(
				why, len,
				"%s is not implemented by ikebana yet: use authby=secret",
				t);
		else
			snprintf(
				why, len,
				"unknown method \"%s\": expected secret (libreswan also knows rsasig, ecdsa, null and never)",
				t);
	}
	free(copy);
	if (ok && !any)
		FAIL("expected secret");
	return ok;
}

bool check_auto(const char *v, char *why, size_t len)
{
	static const char *const ok[] = { "add",   "start",  "ondemand",
					  "route", "ignore", "keep",
					  "up",	   NULL };

	if (one_of(v, ok))
		return true;
	FAIL("expected one of add, start, ondemand, route, ignore, keep");
}

bool check_type(const char *v, char *why, size_t len)
{
	static const char *const later[] = { "passthrough", "pass", "drop",
					     "reject", NULL };

	if (!strcasecmp(v, "tunnel") || !strcasecmp(v, "transport"))
		return true;
	if (one_of(v, later))
		FAIL("not implemented by ikebana yet; expected tunnel or transport");
	FAIL("expected tunnel or transport");
}

bool cfg_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "y", NULL };
	static const char *const no[] = { "no", "false", "off", "n", NULL };

	if (one_of(s, yes))
		return *out = true, true;
	if (one_of(s, no))
		return *out = false, true;
	return false;
}

bool check_bool(const char *v, char *why, size_t len)
{
	bool b;

	if (cfg_parse_bool(v, &b))
		return true;
	FAIL("expected yes or no");
}

bool ikev2_is_permit(const char *v)
{
	return !strcasecmp(v, "permit");
}

bool check_ikev2(const char *v, char *why, size_t len)
{
	static const char *const yes[] = { "insist", "propose", "permit",
					   "always", NULL };
	bool b;

	if (one_of(v, yes) || (cfg_parse_bool(v, &b) && b))
		return true;
	if (!strcasecmp(v, "never") || cfg_parse_bool(v, &b))
		FAIL("ikebana speaks IKEv2 only");
	FAIL("expected yes (ikebana speaks IKEv2 only)");
}

bool check_keyexchange(const char *v, char *why, size_t len)
{
	if (!strcasecmp(v, "ike") || !strcasecmp(v, "ikev2"))
		return true;
	if (!strcasecmp(v, "ikev1"))
		FAIL("ikebana speaks IKEv2 only");
	FAIL("expected ike or ikev2");
}

/*
 * libreswan's duration (lib/libswan/ttodeltatime.c): a decimal number
 * and an optional unit us, ms, s, m, h, d or w.
 */
static bool duration(const char *s, unsigned long long unit_us,
		     unsigned long long *us)
{
	static const struct {
		const char *suffix;
		unsigned long long us;
	} units[] = {
		{ "us", 1ULL },		  { "ms", 1000ULL },
		{ "s", 1000000ULL },	  { "m", 60000000ULL },
		{ "h", 3600000000ULL },	  { "d", 86400000000ULL },
		{ "w", 604800000000ULL },
	};
	const char *p = s;
	unsigned long long whole = 0, frac = 0, div = 1;

	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		if (whole > 1000000000ULL)
			return false;
		whole = whole * 10 + (unsigned)(*p - '0');
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++) {
			if (div < 1000000ULL) {
				frac = frac * 10 + (unsigned)(*p - '0');
				div *= 10;
			}
		}
	}
	unsigned long long scale = unit_us;

	if (*p) {
		size_t i;

		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcasecmp(p, units[i].suffix))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return false;
		scale = units[i].us;
	}
	*us = whole * scale + frac * scale / div;
	return true;
}

bool cfg_parse_duration_ms(const char *s, unsigned long long *ms)
{
	unsigned long long us;

	if (!duration(s, 1000000ULL, &us))
		return false;
	*ms = us / 1000;
	return true;
}

bool check_duration(const char *v, char *why, size_t len)
{
	unsigned long long ms;

	if (cfg_parse_duration_ms(v, &ms))
		return true;
	FAIL("expected a duration: seconds, or a number with s, m, h, d or w (e.g. 30s, 8h)");
}

bool check_duration_ms(const char *v, char *why, size_t len)
{
	unsigned long long us;

	if (duration(v, 1000ULL, &us))
		return true;
	FAIL("expected a duration: milliseconds, or a number with ms, s or m (e.g. 500ms, 2s)");
}

/* libreswan's IKE_SA_LIFETIME_MAXIMUM and IPSEC_SA_LIFETIME_MAXIMUM: 1 day */
bool check_lifetime(const char *v, char *why, size_t len)
{
	unsigned long long ms;

	if (!cfg_parse_duration_ms(v, &ms))
		FAIL("expected a duration: seconds, or a number with s, m, h or d (e.g. 8h)");
	if (ms == 0)
		FAIL("expected a lifetime above 0");
	if (ms > 24ULL * 3600 * 1000)
		FAIL("expected at most 24h (libreswan's maximum)");
	return true;
}

bool check_percent(const char *v, char *why, size_t len)
{
	char *end;

	errno = 0;
	unsigned long n = strtoul(v, &end, 10);

	if (isdigit((unsigned char)v[0]) && !errno &&
	    (!*end || !strcmp(end, "%")) && n <= 1000)
		return true;
	FAIL("expected a percentage, e.g. 100%%");
}

bool check_keyingtries(const char *v, char *why, size_t len)
{
	unsigned long n;

	if (!strcmp(v, "%forever") || number(v, 1000000, &n))
		return true;
	FAIL("expected a number of tries (0 or %%forever: no limit)");
}

bool check_encapsulation(const char *v, char *why, size_t len)
{
	bool b;

	if (!strcasecmp(v, "auto") || cfg_parse_bool(v, &b))
		return true;
	FAIL("expected yes, no or auto");
}

bool check_fragmentation(const char *v, char *why, size_t len)
{
	bool b;

	if (!strcasecmp(v, "force") || !strcasecmp(v, "insist") ||
	    !strcasecmp(v, "never") || cfg_parse_bool(v, &b))
		return true;
	FAIL("expected yes, no or force");
}

static bool u32(const char *s, unsigned long long *out)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return !*end && !errno && *out <= 0xffffffffULL;
}

bool check_mark(const char *v, char *why, size_t len)
{
	char val[32];
	const char *slash = strchr(v, '/');
	size_t n = slash ? (size_t)(slash - v) : strlen(v);
	unsigned long long x;

	if (n == 0 || n >= sizeof(val))
		FAIL("expected VALUE[/MASK], 32-bit numbers in decimal or 0x hex (VALUE -1: a unique mark per SA)");
	memcpy(val, v, n);
	val[n] = '\0';
	if (strcmp(val, "-1") && !u32(val, &x))
		FAIL("expected VALUE[/MASK], 32-bit numbers in decimal or 0x hex (VALUE -1: a unique mark per SA)");
	if (slash && !u32(slash + 1, &x))
		FAIL("expected a 32-bit MASK in decimal or 0x hex after /");
	return true;
}

bool check_plugins(const char *v, char *why, size_t len)
{
	bool any = false;

	for (const char *p = v; *p; p++) {
		unsigned char c = *p;

		if (c == ' ' || c == ',' || c == '\t')
			continue;
		if (!islower(c) && !isdigit(c) && c != '-' && c != '_')
			FAIL("expected plugin names (lower-case letters, digits, '-') separated by spaces or commas");
		any = true;
	}
	if (!any)
		FAIL("expected at least one plugin name");
	return true;
}

bool check_nhelpers(const char *v, char *why, size_t len)
{
	unsigned long n;

	if (!strcmp(v, "-1") || number(v, 4096, &n))
		return true;
	FAIL("expected a number of helper threads 0..4096, or -1 for one per CPU less one");
}

bool check_unsigned(const char *v, char *why, size_t len)
{
	unsigned long n;

	if (number(v, 0xffffffffUL, &n))
		return true;
	FAIL("expected a whole number");
}

bool check_ddos_mode(const char *v, char *why, size_t len)
{
	static const char *const ok[] = { "auto", "busy", "unlimited", NULL };

	if (one_of(v, ok))
		return true;
	FAIL("expected one of auto, busy, unlimited");
}

bool check_listen(const char *v, char *why, size_t len)
{
	if (addr_family(v))
		return true;
	FAIL("expected an IP address");
}

bool check_nonempty(const char *v, char *why, size_t len)
{
	if (*v)
		return true;
	FAIL("expected a value");
}

bool check_any(const char *v, char *why, size_t len)
{
	return true;
}
