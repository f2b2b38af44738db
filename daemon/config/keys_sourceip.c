// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * leftsourceip=: the address this host's own traffic to the peer's
 * subnet leaves with (daemon/ike/child/sourceip.c routes it). It is only
 * protected when the Child SA's local selector holds it, so an address
 * outside leftsubnet= is an error: that traffic would go out in clear.
 */
#include <string.h>
#include <strings.h>

#include "config/groups.h"
#include "config/internal.h"

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

static void check_side(const struct ikb_section *s, const char *side,
		       struct ikb_diag *d)
{
	char key[32];
	const struct ikb_value *v, *sub, *host, *type = cfg_get(s, "type");
	struct ikb_addr a, h;
	uint8_t plen;

	snprintf(key, sizeof(key), "%ssourceip", side);
	v = cfg_get(s, key);
	if (!v || !cfg_parse_net(v->value, &a, &plen))
		return;
	if (type && strcasecmp(type->value, "tunnel")) {
		diag_report(
			d, s, v, IKB_SEV_ERROR,
			"needs type=tunnel (type=%s at %s:%u): in transport mode the selector is the host's address",
			type->value, type->file, type->line);
		return;
	}
	snprintf(key, sizeof(key), "%ssubnet", side);
	sub = cfg_get(s, key);
	host = cfg_get(s, side);
	if (sub) {
		if (!in_subnets(sub->value, &a))
			diag_report(
				d, s, v, IKB_SEV_ERROR,
				"not in %s=%s (%s:%u): this host's traffic from it would miss the conn's policy and go out in clear",
				key, sub->value, sub->file, sub->line);
		return;
	}
	if (!host || !cfg_parse_net(host->value, &h, &plen) ||
	    !cfg_prefix_has(&h, plen, &a))
		diag_report(
			d, s, v, IKB_SEV_ERROR,
			"there is no %s=, so the policy covers %s=%s only: traffic from this address would go out in clear; set %s= to a subnet that holds it",
			key, side, host ? host->value : "(unset)", key);
}

void cfg_check_sourceip(const struct ikb_section *s, struct ikb_diag *d)
{
	check_side(s, "left", d);
	check_side(s, "right", d);
}
