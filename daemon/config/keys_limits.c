// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Core keys whose value is well-formed but which ikebana does not (fully)
 * implement, and libreswan keys that only a plugin implements. Each says
 * what the daemon does instead of ignoring the value in silence: a
 * warning where it is ignored harmlessly, an error where ignoring it would
 * send traffic in clear or to the wrong place, or leave a conn that is
 * never initiated.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/internal.h"

typedef void limit_fn(const struct ikb_section *s, const struct ikb_value *v,
		      struct ikb_diag *d);

/*
 * left=, right=: the engine takes addresses and %any only (conn.c
 * parse_addr()); with a name or %defaultroute the conn fails `up` and
 * matches no peer.
 */
static void host_limit(const struct ikb_section *s, const struct ikb_value *v,
		       struct ikb_diag *d)
{
	if (addr_family(v->value) || !strncasecmp(v->value, "%any", 4))
		return;
	diag_report(
		d, s, v, IKB_SEV_WARNING,
		"%s not implemented by ikebana yet: the conn can neither be initiated nor match a peer; write an IP address or %%any",
		v->value[0] == '%' ? "%defaultroute is" : "DNS names are");
}

static void nexthop_limit(const struct ikb_section *s,
			  const struct ikb_value *v, struct ikb_diag *d)
{
	if (!strcasecmp(v->value, "%direct") ||
	    !strcasecmp(v->value, "%defaultroute"))
		return;
	diag_report(
		d, s, v, IKB_SEV_WARNING,
		"ikebana installs no routes: the kernel's routing table picks the next hop; ignored");
}

/*
 * auto=: the engine knows add, start and ignore. route and ondemand need
 * trap policies, without which the traffic goes out in clear.
 */
static void auto_limit(const struct ikb_section *s, const struct ikb_value *v,
		       struct ikb_diag *d)
{
	if (!strcasecmp(v->value, "route") || !strcasecmp(v->value, "ondemand"))
		diag_report(
			d, s, v, IKB_SEV_ERROR,
			"on-demand policies (trap and ACQUIRE) are not implemented by ikebana yet: until the conn is up its traffic would go out in clear; use auto=start, or auto=add and ikebana up");
	else if (!strcasecmp(v->value, "up"))
		diag_report(
			d, s, v, IKB_SEV_ERROR,
			"not implemented by ikebana yet (the conn would only be added, not initiated): write auto=start");
	else if (!strcasecmp(v->value, "keep"))
		diag_report(
			d, s, v, IKB_SEV_WARNING,
			"ikebana reads keep as add: it answers the peer, but does not bring the conn up again when it goes down");
}

static void encapsulation_limit(const struct ikb_section *s,
				const struct ikb_value *v, struct ikb_diag *d)
{
	bool yes;

	if (!cfg_parse_bool(v->value, &yes) || !yes)
		return;
	diag_report(
		d, s, v, IKB_SEV_ERROR,
		"UDP encapsulation (NAT-T) is not implemented by ikebana yet: use encapsulation=no or auto");
}

/* libreswan spells no also never, and force also insist */
static void fragmentation_limit(const struct ikb_section *s,
				const struct ikb_value *v, struct ikb_diag *d)
{
	static const char why[] =
		"IKE fragmentation (RFC 7383) is not implemented by ikebana yet";
	bool yes;

	if (!strcasecmp(v->value, "force") || !strcasecmp(v->value, "insist"))
		diag_report(d, s, v, IKB_SEV_ERROR, "%s: use fragmentation=no",
			    why);
	else if (cfg_parse_bool(v->value, &yes) && yes)
		diag_report(d, s, v, IKB_SEV_WARNING,
			    "%s: messages are sent whole", why);
}

/* The daemon reopens the file on reload, after it changed to /. */
static void logfile_limit(const struct ikb_section *s,
			  const struct ikb_value *v, struct ikb_diag *d)
{
	if (v->value[0] != '/')
		diag_report(
			d, s, v, IKB_SEV_ERROR,
			"expected an absolute path (a detached daemon runs in /)");
}

static const struct {
	const char *key;
	limit_fn *fn;
} limits[] = {
	{ "left", host_limit },
	{ "right", host_limit },
	{ "leftnexthop", nexthop_limit },
	{ "rightnexthop", nexthop_limit },
	{ "auto", auto_limit },
	{ "encapsulation", encapsulation_limit },
	{ "fragmentation", fragmentation_limit },
	{ "logfile", logfile_limit },
	{ "plutostderrlog", logfile_limit },
	{ NULL, NULL },
};

void cfg_check_limits(const struct ikb_section *s, const struct ikb_value *v,
		      struct ikb_diag *d)
{
	for (size_t i = 0; limits[i].key; i++)
		if (!strcmp(limits[i].key, v->key)) {
			limits[i].fn(s, v, d);
			return;
		}
}

/*
 * Keys libreswan knows that only a plugin implements, and that would send
 * traffic in clear if ignored: without a loaded plugin that owns one,
 * check_key() reports it as an error with this reason, not as ignored.
 */
const char *cfg_unowned_error(const char *key)
{
	/* plugins/multi-sa: one Child SA per pair of subnets */
	if (!strcmp(key, "leftsubnets") || !strcmp(key, "rightsubnets"))
		return "needs the multi-sa plugin, which plugins= does not load: without it the conn would come up host to host and the subnets' traffic would go out in clear; load multi-sa, or write one conn per subnet pair with leftsubnet= and rightsubnet=";
	return NULL;
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
 * port, but sends and listens on config setup's ikeport= only. An end
 * whose port differs can thus only be the peer's: an error when it must
 * be this host's, that is when the other end is %any (never local) or
 * names another port too.
 */
void cfg_check_ikeports(const struct cfg *c, const struct ikb_section *s,
			struct ikb_diag *d)
{
	static const char *const side[2] = { "left", "right" };
	const struct ikb_value *ike = cfg_get(&c->setup, "ikeport");
	const struct ikb_value *port[2], *host[2];
	unsigned long own = ike ? port_of(ike) : 500;
	bool off[2];

	if (!own)
		return;
	for (int i = 0; i < 2; i++) {
		char k[16];

		strcpy(k, side[i]);
		host[i] = cfg_get(s, k);
		strcat(k, "ikeport");
		port[i] = cfg_get(s, k);
		off[i] = port_of(port[i]) && port_of(port[i]) != own;
	}
	if (off[0] && off[1]) {
		diag_report(
			d, s, port[1], IKB_SEV_ERROR,
			"per-conn IKE ports are not implemented yet: ikebana sends and listens on ikeport= (%lu); one end is this host's, and leftikeport=%s (%s:%u) differs too",
			own, port[0]->value, port[0]->file, port[0]->line);
		return;
	}
	for (int i = 0; i < 2; i++)
		if (off[i] && host_is_any(host[1 - i]))
			diag_report(
				d, s, port[i], IKB_SEV_ERROR,
				"per-conn IKE ports are not implemented yet: ikebana sends and listens on ikeport= (%lu); with %s=%s this end is this host's",
				own, host[1 - i]->key, host[1 - i]->value);
}
