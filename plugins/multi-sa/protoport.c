// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * leftprotoport's syntax, PROTO[/PORT], one entry at a time: a protocol
 * name or number, then a port number, a service name or %any.
 */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "ms.h"

/* Known without /etc/protocols, which minimal containers lack. */
static const struct {
	const char *name;
	uint8_t proto;
} protos[] = {
	{ "icmp", 1 },	 { "tcp", 6 },	      { "udp", 17 },
	{ "gre", 47 },	 { "ipv6-icmp", 58 }, { "icmpv6", 58 },
	{ "sctp", 132 }, { "udplite", 136 },
};

static int parse_number(const char *s, unsigned long max, unsigned long *out)
{
	size_t n = strlen(s);

	if (n == 0 || n > 6 || strspn(s, "0123456789") != n)
		return -1;
	*out = strtoul(s, NULL, 10);
	return *out <= max ? 0 : 1;
}

static int parse_proto(const char *s, uint8_t *out, char *why, size_t len)
{
	unsigned long v;
	struct protoent *pe;
	int rc = parse_number(s, 255, &v);

	if (rc == 0) {
		*out = (uint8_t)v;
		return 0;
	}
	if (rc > 0) {
		snprintf(why, len, "protocol %s is not 0..255", s);
		return -1;
	}
	if (strcmp(s, "%any") == 0) {
		*out = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++) {
		if (strcasecmp(s, protos[i].name) == 0) {
			*out = protos[i].proto;
			return 0;
		}
	}
	pe = getprotobyname(s);
	if (pe) {
		*out = (uint8_t)pe->p_proto;
		return 0;
	}
	snprintf(why, len, "unknown protocol '%s'", s);
	return -1;
}

static int parse_port(const char *s, const char *proto, uint16_t *out,
		      char *why, size_t len)
{
	unsigned long v;
	struct servent *se;
	int rc = parse_number(s, 65535, &v);

	if (rc == 0) {
		*out = (uint16_t)v;
		return 0;
	}
	if (rc > 0) {
		snprintf(why, len, "port %s is not 0..65535", s);
		return -1;
	}
	if (strcmp(s, "%any") == 0) {
		*out = 0;
		return 0;
	}
	se = getservbyname(s, proto);
	if (se) {
		*out = ntohs((uint16_t)se->s_port);
		return 0;
	}
	snprintf(why, len, "unknown port or service '%s'", s);
	return -1;
}

int ms_parse_pp(const char *s, struct ms_pp *out, char *why, size_t len)
{
	char buf[64], *slash;

	if (strlen(s) >= sizeof(buf)) {
		snprintf(why, len, "entry '%.20s...' is too long", s);
		return -1;
	}
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash)
		*slash++ = '\0';
	*out = (struct ms_pp){ 0 };
	if (parse_proto(buf, &out->proto, why, len) < 0)
		return -1;
	if (!slash || *slash == '\0')
		return 0;
	if (out->proto == 0 && strcmp(slash, "%any") != 0) {
		snprintf(why, len, "a port needs a protocol, got '%s'", s);
		return -1;
	}
	return parse_port(slash, buf, &out->port, why, len);
}

int ms_parse_pp_list(const char *s, struct ms_pp_list *out, char *why,
		     size_t len)
{
	static const char sep[] = " \t,";
	char *copy = strdup(s), *save = NULL, *tok;
	int rc = 0;

	if (!copy) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	out->n = 0;
	for (tok = strtok_r(copy, sep, &save); tok && rc == 0;
	     tok = strtok_r(NULL, sep, &save)) {
		if (out->n == IKB_CHILD_PLAN_MAX) {
			snprintf(why, len, "more than %u entries",
				 IKB_CHILD_PLAN_MAX);
			rc = -1;
		} else {
			rc = ms_parse_pp(tok, &out->e[out->n++], why, len);
		}
	}
	free(copy);
	if (rc == 0 && out->n == 0) {
		snprintf(why, len, "the list is empty");
		rc = -1;
	}
	return rc;
}

int ms_parse_clones(const char *s, unsigned *out)
{
	unsigned long v;
	long cpus;

	if (strcasecmp(s, "yes") == 0) {
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		v = cpus < 1 ? 1 : (unsigned long)cpus;
		*out = v > IKB_CHILD_PLAN_MAX ? IKB_CHILD_PLAN_MAX :
						(unsigned)v;
		return 0;
	}
	if (parse_number(s, IKB_CHILD_PLAN_MAX, &v) != 0 || v == 0)
		return -1;
	*out = (unsigned)v;
	return 0;
}
