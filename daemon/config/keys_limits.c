// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Core keys whose value is well-formed but which ikebana does not (fully)
 * implement: the values that the rows of keys_conn.c, keys_end.c and
 * keys_setup.c single out, and the check that reports their verdict. A
 * warning where the value is handled harmlessly otherwise, an error where
 * ignoring it would send traffic in clear or to the wrong place, or leave
 * a conn that is never initiated.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/internal.h"

/* ikebana installs no routes: only %direct and %defaultroute hold */
bool when_nexthop_addr(const char *v)
{
	return strcasecmp(v, "%direct") && strcasecmp(v, "%defaultroute");
}

/* auto=: up is start's alias */
bool when_auto_up(const char *v)
{
	return !strcasecmp(v, "up");
}

bool when_auto_keep(const char *v)
{
	return !strcasecmp(v, "keep");
}

/* The daemon reopens the log file on reload, after it changed to /. */
bool when_relative(const char *v)
{
	return v[0] != '/';
}

bool cfg_report_verdict(const struct ikb_section *s, const struct ikb_value *v,
			enum ikb_key_scope scope, const char *ignored,
			struct ikb_diag *d)
{
	const struct cfg_rule *r = cfg_libreswan_rule(v->key, scope, v->value);

	if (!r)
		return false;
	if (r->verdict == CFG_V_WARN)
		diag_report(d, s, v, IKB_SEV_WARNING, "%s%s", ignored, r->why);
	else if (r->verdict == CFG_V_ERROR)
		diag_report(d, s, v, IKB_SEV_ERROR, "%s", r->why);
	return true;
}

void cfg_check_limits(const struct ikb_section *s, const struct ikb_value *v,
		      struct ikb_diag *d)
{
	cfg_report_verdict(s, v,
			   s->kind == CFG_SETUP ? IKB_KEY_SETUP : IKB_KEY_CONN,
			   "", d);
}

static unsigned long port_of(const struct ikb_value *v)
{
	char why[100];

	if (!v || !check_port(v->value, why, sizeof(why)))
		return 0;
	return strtoul(v->value, NULL, 10);
}

static bool host_is_any(const struct ikb_value *v)
{
	return v && !strncasecmp(v->value, "%any", 4);
}

/*
 * leftikeport=, rightikeport=: the engine initiates to the remote end's
 * port, but sends and listens on config setup's ikeport= and
 * nat-ikeport= only (an end on the NAT-T port starts IKE there, with the
 * non-ESP marker, as Submariner's conns do). An end whose port is
 * neither can thus only be the peer's: an error when it must be this
 * host's, that is when the other end is %any (never local) or names
 * another port too.
 */
void cfg_check_ikeports(const struct cfg *c, const struct ikb_section *s,
			struct ikb_diag *d)
{
	static const char *const side[2] = { "left", "right" };
	const struct ikb_value *ike = cfg_get(&c->setup, "ikeport");
	const struct ikb_value *natt = cfg_get(&c->setup, "nat-ikeport");
	const struct ikb_value *port[2], *host[2];
	unsigned long own = ike ? port_of(ike) : 500;
	unsigned long own_natt = natt ? port_of(natt) : 4500;
	bool off[2];

	if (!own)
		return;
	for (int i = 0; i < 2; i++) {
		char k[16];

		strcpy(k, side[i]);
		host[i] = cfg_get(s, k);
		strcat(k, "ikeport");
		port[i] = cfg_get(s, k);
		off[i] = port_of(port[i]) && port_of(port[i]) != own &&
			 port_of(port[i]) != own_natt;
	}
	if (off[0] && off[1]) {
		diag_report(
			d, s, port[1], IKB_SEV_ERROR,
			"per-conn IKE ports are not implemented yet: ikebana sends and listens on ikeport= (%lu) and nat-ikeport= (%lu); one end is this host's, and leftikeport=%s (%s:%u) differs too",
			own, own_natt, port[0]->value, port[0]->file, port[0]->line);
		return;
	}
	for (int i = 0; i < 2; i++)
		if (off[i] && host_is_any(host[1 - i]))
			diag_report(
				d, s, port[i], IKB_SEV_ERROR,
				"per-conn IKE ports are not implemented yet: ikebana sends and listens on ikeport= (%lu) and nat-ikeport= (%lu); with %s=%s this end is this host's",
				own, own_natt, host[1 - i]->key, host[1 - i]->value);
}
