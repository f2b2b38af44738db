// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * leftsourceip=: the address this host's own traffic to the peer's
 * subnet leaves with (daemon/ike/child/sourceip.c routes it); libreswan
 * 5 takes one IPv4 and one IPv6 address, each for the subnets of its
 * family (a conn %default can so serve IPv4 and IPv6 conns). It is only
 * protected when the Child SA's local selector holds it, so an address
 * outside leftsubnet= is an error: that traffic would go out in clear.
 * An address of the family a conn's selector does not have is not used
 * by that conn; one of the family it has must be there.
 */
#include <string.h>
#include <strings.h>

#include "config/config.h"
#include "config/groups.h"
#include "config/internal.h"
#include "config/values.h"

/* Whether a is in one of the subnets of the list v. */
static bool in_subnets(const char *v, const struct ikb_addr *a)
{
	char buf[512], *save, *t;
	struct ikb_addr net;
	uint8_t plen;

	snprintf(buf, sizeof(buf), "%s", v);
	for (t = strtok_r(buf, ", \t", &save); t;
	     t = strtok_r(NULL, ", \t", &save))
		if (cfg_parse_net(t, &net, &plen) &&
		    cfg_prefix_has(&net, plen, a))
			return true;
	return false;
}

/* One address a of side's sourceip= v, in its subnets. */
static void check_one(const struct ikb_section *s, const char *side,
		      const struct ikb_value *v, const struct ikb_addr *a,
		      struct ikb_diag *d)
{
	char key[32];
	const struct ikb_value *sub, *host;
	struct ikb_addr h;
	uint8_t plen;

	snprintf(key, sizeof(key), "%ssubnet", side);
	sub = cfg_get(s, key);
	host = cfg_get(s, side);
	if (sub) {
		if (!in_subnets(sub->value, a))
			diag_report(
				d, s, v, IKB_SEV_ERROR,
				"not in %s=%s (%s:%u): this host's traffic from it would miss the conn's policy and go out in clear",
				key, sub->value, sub->file, sub->line);
		return;
	}
	if (!host || !cfg_parse_net(host->value, &h, &plen) ||
	    !cfg_prefix_has(&h, plen, a))
		diag_report(
			d, s, v, IKB_SEV_ERROR,
			"there is no %s=, so the policy covers %s=%s only: traffic from this address would go out in clear; set %s= to a subnet that holds it",
			key, side, host ? host->value : "(unset)", key);
}

int cfg_parse_sourceips(const char *v, struct ikb_addr out[2])
{
	char buf[128], *save, *t;
	struct ikb_addr a;
	uint8_t plen;
	int n = 0;

	memset(out, 0, 2 * sizeof(out[0]));
	if (snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf))
		return -1;
	for (t = strtok_r(buf, ", \t", &save); t;
	     t = strtok_r(NULL, ", \t", &save)) {
		struct ikb_addr *slot;

		if (!cfg_parse_net(t, &a, &plen) ||
		    plen != (a.family == AF_INET ? 32 : 128) || strchr(t, '/'))
			return -1;
		slot = &out[a.family == AF_INET6];
		if (slot->family)
			return -1; /* two of one family */
		*slot = a;
		n++;
	}
	return n ? n : -1;
}

bool check_sourceip(const char *v, char *why, size_t len)
{
	struct ikb_addr a[2];

	if (cfg_parse_sourceips(v, a) > 0)
		return true;
	FAIL("expected an IP address, or an IPv4 and an IPv6 address separated by a comma (libreswan 5)");
}

/* The family of side's selector (its subnets, else its host), or 0. */
static int local_family(const struct ikb_section *s, const char *side)
{
	char key[32], buf[64];
	const struct ikb_value *v;
	struct ikb_addr a;
	uint8_t plen;

	snprintf(key, sizeof(key), "%ssubnet", side);
	if (!(v = cfg_get(s, key)))
		v = cfg_get(s, side);
	if (!v)
		return 0;
	/* the first of a list: the loader keeps them of one family */
	snprintf(buf, sizeof(buf), "%s", v->value);
	buf[strcspn(buf, ", \t")] = '\0';
	return cfg_parse_net(buf, &a, &plen) ? a.family : 0;
}

static void check_side(const struct ikb_section *s, const char *side,
		       struct ikb_diag *d)
{
	char key[32];
	const struct ikb_value *v, *type = cfg_get(s, "type");
	struct ikb_addr a[2];

	snprintf(key, sizeof(key), "%ssourceip", side);
	v = cfg_get(s, key);
	if (!v || cfg_parse_sourceips(v->value, a) < 0)
		return;
	if (type && strcasecmp(type->value, "tunnel")) {
		diag_report(
			d, s, v, IKB_SEV_ERROR,
			"needs type=tunnel (type=%s at %s:%u): in transport mode the selector is the host's address",
			type->value, type->file, type->line);
		return;
	}
	int fam = local_family(s, side);

	/* no address of the conn's family: the first one says why */
	if (fam && !a[fam == AF_INET6].family)
		fam = 0;
	for (int i = 0; i < 2; i++)
		if (a[i].family && (!fam || a[i].family == fam)) {
			check_one(s, side, v, &a[i], d);
			if (!fam)
				return;
		}
}

void cfg_check_sourceip(const struct ikb_section *s, struct ikb_diag *d)
{
	check_side(s, "left", d);
	check_side(s, "right", d);
}
