// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The keys the core owns and the checks of their values. Plugins own the
 * rest (esp=, replay-window=, ...) through the cfg_owner_fn callback.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include <sys/socket.h>

#include "config/groups.h"
#include "config/internal.h"
#include "config/setup.h"

struct core_key {
	const char *name;
	enum ikb_key_scope scope;
	value_check_fn check;
};

static const struct core_key core_keys[] = {
	{ "also", IKB_KEY_CONN, check_nonempty },
	{ "left", IKB_KEY_CONN, check_host },
	{ "right", IKB_KEY_CONN, check_host },
	{ "hostaddrfamily", IKB_KEY_CONN, check_host_family },
	{ "leftid", IKB_KEY_CONN, check_id },
	{ "rightid", IKB_KEY_CONN, check_id },
	{ "leftsubnet", IKB_KEY_CONN, check_subnet },
	{ "rightsubnet", IKB_KEY_CONN, check_subnet },
	{ "leftprotoport", IKB_KEY_CONN, check_protoport },
	{ "rightprotoport", IKB_KEY_CONN, check_protoport },
	{ "leftnexthop", IKB_KEY_CONN, check_nexthop },
	{ "rightnexthop", IKB_KEY_CONN, check_nexthop },
	{ "leftsourceip", IKB_KEY_CONN, check_sourceip },
	{ "rightsourceip", IKB_KEY_CONN, check_sourceip },
	{ "leftikeport", IKB_KEY_CONN, check_port },
	{ "rightikeport", IKB_KEY_CONN, check_port },
	{ "authby", IKB_KEY_CONN, check_authby },
	{ "leftauth", IKB_KEY_CONN, check_end_auth },
	{ "rightauth", IKB_KEY_CONN, check_end_auth },
	{ "leftcert", IKB_KEY_CONN, check_nonempty },
	{ "rightcert", IKB_KEY_CONN, check_nonempty },
	{ "leftsendcert", IKB_KEY_CONN, check_sendcert },
	{ "rightsendcert", IKB_KEY_CONN, check_sendcert },
	{ "leftca", IKB_KEY_CONN, check_ca },
	{ "leftrsasigkey", IKB_KEY_CONN, check_rsasigkey },
	{ "rightrsasigkey", IKB_KEY_CONN, check_rsasigkey },
	{ "leftckaid", IKB_KEY_CONN, check_ckaid },
	{ "rightckaid", IKB_KEY_CONN, check_ckaid },
	{ "rightca", IKB_KEY_CONN, check_ca },
	{ "auto", IKB_KEY_CONN, check_auto },
	{ "type", IKB_KEY_CONN, check_type },
	{ "ikev2", IKB_KEY_CONN, check_ikev2 },
	{ "keyexchange", IKB_KEY_CONN, check_keyexchange },
	{ "pfs", IKB_KEY_CONN, check_bool },
	{ "ikelifetime", IKB_KEY_CONN, check_lifetime },
	{ "ipsec-lifetime", IKB_KEY_CONN, check_lifetime },
	{ "salifetime", IKB_KEY_CONN, check_lifetime },
	{ "lifetime", IKB_KEY_CONN, check_lifetime },
	{ "keylife", IKB_KEY_CONN, check_lifetime },
	{ "rekey", IKB_KEY_CONN, check_bool },
	{ "rekeymargin", IKB_KEY_CONN, check_duration },
	{ "rekeyfuzz", IKB_KEY_CONN, check_percent },
	{ "ipsec-max-bytes", IKB_KEY_CONN, check_max_bytes },
	{ "ipsec-max-packets", IKB_KEY_CONN, check_max_packets },
	{ "keyingtries", IKB_KEY_CONN, check_keyingtries },
	/* ike/child/child_sa.c, trap.c: the kernel policies' priority */
	{ "priority", IKB_KEY_CONN, check_priority },
	{ "encapsulation", IKB_KEY_CONN, check_encapsulation },
	{ "nat-keepalive", IKB_KEY_CONN, check_bool },
	{ "mobike", IKB_KEY_CONN, check_bool },
	{ "dpdaction", IKB_KEY_CONN, check_dpdaction },
	{ "dpddelay", IKB_KEY_CONN, check_duration },
	{ "dpdtimeout", IKB_KEY_CONN, check_duration },
	{ "mark", IKB_KEY_CONN, check_mark },
	{ "mark-in", IKB_KEY_CONN, check_mark },
	{ "mark-out", IKB_KEY_CONN, check_mark },
	{ "ipsec-interface", IKB_KEY_CONN, check_ipsec_interface },
	{ "retransmit-timeout", IKB_KEY_CONN, check_retransmit_timeout },
	/* libreswan: kt_milliseconds, a plain number is milliseconds */
	{ "retransmit-interval", IKB_KEY_CONN, check_retransmit_interval },
	{ "fragmentation", IKB_KEY_CONN, check_fragmentation },
	{ "negotiationshunt", IKB_KEY_CONN, check_negotiationshunt },
	{ "failureshunt", IKB_KEY_CONN, check_failureshunt },
	/* daemon/updown/: the program is checked by cfg_check_updown() */
	/* ike/route/ipsec_if.c: an address on the conn's ipsecN */
	{ "leftinterface-ip", IKB_KEY_CONN, check_ifaddr },
	{ "rightinterface-ip", IKB_KEY_CONN, check_ifaddr },
	{ "leftupdown", IKB_KEY_CONN, check_any },
	{ "rightupdown", IKB_KEY_CONN, check_any },

	/* config setup's keys: setup.c, one row each with its typed field */
	{ NULL, 0, NULL },
};

/* libreswan's aliases (kv_alias in keywords.c): one setting, many names. */
static const struct {
	const char *alias, *canonical;
} aliases[] = {
	{ "salifetime", "ipsec-lifetime" },  { "lifetime", "ipsec-lifetime" },
	{ "keylife", "ipsec-lifetime" },     { "plutostderrlog", "logfile" },
	{ "strictcrlpolicy", "crl-strict" }, { NULL, NULL },
};

const char *cfg_canonical_key(const char *key)
{
	for (size_t i = 0; aliases[i].alias; i++)
		if (!strcmp(aliases[i].alias, key))
			return aliases[i].canonical;
	return key;
}

static const struct core_key *core_key(const char *key,
				       enum ikb_key_scope scope)
{
	for (const struct core_key *k = core_keys; k->name; k++)
		if (k->scope == scope && !strcmp(k->name, key))
			return k;
	return NULL;
}

bool cfg_core_owns(const char *key, enum ikb_key_scope scope)
{
	if (scope == IKB_KEY_SETUP)
		return cfg_setup_owns(key);
	return core_key(key, scope) != NULL;
}

static bool check_value(const struct ikb_section *s, const struct ikb_value *v,
			char *why, size_t len)
{
	const struct core_key *ck;

	if (s->kind == CFG_SETUP)
		return cfg_setup_check(v->key, v->value, why, len);
	ck = core_key(v->key, IKB_KEY_CONN);
	return ck->check(v->value, why, len);
}

static enum ikb_key_scope scope_of(const struct ikb_section *s)
{
	return s->kind == CFG_SETUP ? IKB_KEY_SETUP : IKB_KEY_CONN;
}

static void check_key(const struct ikb_section *s, const struct ikb_value *v,
		      cfg_owner_fn owns, void *ctx, struct ikb_diag *d)
{
	enum ikb_key_scope scope = scope_of(s);
	enum ikb_key_scope other =
		scope == IKB_KEY_SETUP ? IKB_KEY_CONN : IKB_KEY_SETUP;
	char label[300];

	if (cfg_core_owns(v->key, scope) || (owns && owns(ctx, v->key, scope)))
		return;
	/* a libreswan key no one owns: its verdict (keys_conn.c, ...) */
	if (cfg_report_verdict(s, v, scope, "ignored by ikebana: ", d))
		return;
	if (scope == IKB_KEY_SETUP)
		snprintf(label, sizeof(label), "config setup");
	else
		snprintf(label, sizeof(label), "conn %s", s->name);
	if (cfg_core_owns(v->key, other) ||
	    cfg_libreswan_knows(v->key, other) ||
	    (owns && owns(ctx, v->key, other)))
		diag_at(d, IKB_SEV_ERROR, v->file, v->line,
			"%s: %s: belongs in %s, not in %s", label, v->key,
			scope == IKB_KEY_SETUP ? "a conn" : "config setup",
			scope == IKB_KEY_SETUP ? "config setup" : "a conn");
	else
		diag_at(d, IKB_SEV_ERROR, v->file, v->line,
			"%s: %s: unknown key", label, v->key);
}

int cfg_check_keys(const struct cfg *c, cfg_owner_fn plugin_owns, void *ctx,
		   struct ikb_diag *d)
{
	unsigned before = d->errors;

	for (size_t i = 0; i < c->nraw; i++) {
		const struct ikb_section *s = &c->raw[i];

		for (size_t k = 0; k < s->n; k++)
			check_key(s, &s->kv[k], plugin_owns, ctx, d);
	}
	return d->errors > before ? -1 : 0;
}

static void check_values(const struct ikb_section *s, struct ikb_diag *d)
{
	char why[300];

	for (size_t k = 0; k < s->n; k++) {
		const struct ikb_value *v = &s->kv[k];

		if (!cfg_core_owns(v->key, scope_of(s)))
			continue;
		if (!check_value(s, v, why, sizeof(why)))
			diag_report(d, s, v, IKB_SEV_ERROR, "%s", why);
		else
			cfg_check_limits(s, v, d);
	}
}

static bool is_any(const struct ikb_value *v)
{
	return v && (!strcmp(v->value, "%any") || !strcmp(v->value, "%any4") ||
		     !strcmp(v->value, "%any6"));
}

static int host_family(const struct ikb_value *v)
{
	if (!v)
		return 0;
	if (!strcmp(v->value, "%any6") || !strcmp(v->value, "%defaultroute6"))
		return AF_INET6;
	if (!strcmp(v->value, "%any4") || !strcmp(v->value, "%defaultroute4"))
		return AF_INET;
	return addr_family(v->value);
}

/* leftsubnet=A,B: several selectors of one tunnel-mode Child SA */
static void check_lists(const struct ikb_section *s, const struct ikb_value *v,
			struct ikb_diag *d)
{
	const struct ikb_value *type = cfg_get(s, "type");

	if (v && strchr(v->value, ',') && type &&
	    !strcasecmp(type->value, "transport"))
		diag_report(
			d, s, v, IKB_SEV_ERROR,
			"several subnets need type=tunnel: in transport mode the selectors are the hosts");
}

/* type=drop|reject|pass|passthrough: policies only, never negotiated */
static bool is_shunt(const struct ikb_value *type)
{
	return type && strcasecmp(type->value, "tunnel") &&
	       strcasecmp(type->value, "transport");
}

static void check_ends(const struct ikb_section *s, struct ikb_diag *d)
{
	const struct ikb_value *l = cfg_get(s, "left"),
			       *r = cfg_get(s, "right");
	const struct ikb_value *a = cfg_get(s, "auto");

	char why[200];

	/*
	 * A shunt has no peer: one end may be absent, the other end of its
	 * selectors is then any address (ovs-monitor-ipsec's
	 * prevent_unencrypted_* conns name left= and leftprotoport= only).
	 */
	if (a && strcasecmp(a->value, "ignore") &&
	    check_auto(a->value, why, sizeof(why)) &&
	    (is_shunt(cfg_get(s, "type")) ? !l && !r : !l || !r))
		diag_report(
			d, s, a, IKB_SEV_ERROR,
			"needs left= and right=, but %s= is set neither in the conn, its also= conns nor conn %%default",
			!l ? "left" : "right");
	if (is_any(l) && is_any(r))
		diag_report(
			d, s, r, IKB_SEV_ERROR,
			"left= is %s too (%s:%u): at least one end needs an address or name",
			l->value, l->file, l->line);
	int lf = host_family(l), rf = host_family(r);
	const struct ikb_value *hf = cfg_get(s, "hostaddrfamily");
	int want = !hf				  ? 0 :
		   !strcasecmp(hf->value, "ipv6") ? AF_INET6 :
						    AF_INET;

	if (want && ((lf && lf != want) || (rf && rf != want)))
		diag_report(d, s, hf, IKB_SEV_ERROR,
			    "the %s= address is of the other family",
			    lf && lf != want ? "left" : "right");

	if (lf && rf && lf != rf)
		diag_report(d, s, r, IKB_SEV_ERROR,
			    "mixes address families with left=%s (%s:%u)",
			    l->value, l->file, l->line);
	const struct ikb_value *ls = cfg_get(s, "leftsubnet"),
			       *rs = cfg_get(s, "rightsubnet");
	int lsf = ls ? subnet_family(ls->value) : 0,
	    rsf = rs ? subnet_family(rs->value) : 0;

	if (lsf && rsf && lsf != rsf)
		diag_report(d, s, rs, IKB_SEV_ERROR,
			    "mixes address families with leftsubnet=%s (%s:%u)",
			    ls->value, ls->file, ls->line);
	check_lists(s, ls, d);
	check_lists(s, rs, d);
}

static void check_margin(const struct ikb_section *s, struct ikb_diag *d,
			 const char *life_key)
{
	const struct ikb_value *m = cfg_get(s, "rekeymargin");
	const struct ikb_value *lv = cfg_get(s, life_key);
	unsigned long long mm, lm;

	if (!m || !lv || !cfg_parse_duration_ms(m->value, &mm) ||
	    !cfg_parse_duration_ms(lv->value, &lm))
		return;
	if (mm >= lm)
		diag_report(d, s, m, IKB_SEV_ERROR,
			    "must be shorter than %s=%s (%s:%u)", lv->key,
			    lv->value, lv->file, lv->line);
}

/*
 * Shunts and traps: authby=never authenticates nothing, so only a shunt
 * (never negotiated) may say it; a trap's template needs the peer's
 * address, so auto=route of a tunnel or transport conn needs right=.
 */
static void check_routes(const struct ikb_section *s, struct ikb_diag *d)
{
	const struct ikb_value *type = cfg_get(s, "type"),
			       *by = cfg_get(s, "authby"),
			       *a = cfg_get(s, "auto"), *l = cfg_get(s, "left"),
			       *r = cfg_get(s, "right");
	bool route = a && (!strcasecmp(a->value, "route") ||
			   !strcasecmp(a->value, "ondemand"));

	if (by && !strcasecmp(by->value, "never") && !is_shunt(type))
		diag_report(
			d, s, by, IKB_SEV_ERROR,
			"authenticates nothing: only for type=passthrough, drop or reject");
	if (route && !is_shunt(type) && (is_any(l) || is_any(r)))
		diag_report(
			d, s, a, IKB_SEV_ERROR,
			"a trap needs both ends' addresses (its ESP template's endpoints), but %s=%s",
			is_any(r) ? "right" : "left",
			is_any(r) ? r->value : l->value);
}

/* interface-ip= goes on the conn's ipsecN: without one it has nowhere to go. */
static void check_ifip(const struct ikb_section *s, struct ikb_diag *d)
{
	const struct ikb_value *x = cfg_get(s, "ipsec-interface");
	bool on = true;

	if (x && !isdigit((unsigned char)x->value[0]))
		cfg_parse_bool(x->value, &on);
	for (int i = 0; i < 2; i++) {
		const struct ikb_value *v =
			cfg_get(s, i ? "rightinterface-ip" : "leftinterface-ip");

		if (v && (!x || !on))
			diag_report(
				d, s, v, IKB_SEV_ERROR,
				"needs ipsec-interface= (%s): the address goes on the conn's XFRM interface ipsecN, and there is none",
				x ? x->value : "unset");
	}
}

/*
 * Opportunistic conns (right=%opportunisticgroup, %group): the peer is
 * the destination of the traffic, one of the group's networks, so the
 * conn cannot be started, the group end has no subnet= of its own (the
 * policy group file gives them), and only one end can be the group.
 */
static void check_oppo(const struct ikb_section *s, struct ikb_diag *d)
{
	const struct ikb_value *l = cfg_get(s, "left"),
			       *r = cfg_get(s, "right"), *a = cfg_get(s, "auto");
	const struct ikb_value *g =
		r && cfg_host_is_oppo(r->value) ? r :
		l && cfg_host_is_oppo(l->value) ? l :
						  NULL;
	const struct ikb_value *net;

	if (!g)
		return;
	if (l && r && cfg_host_is_oppo(l->value) && cfg_host_is_oppo(r->value))
		diag_report(
			d, s, r, IKB_SEV_ERROR,
			"left= is %s too (%s:%u): one end is this host, with an address, a name or %%defaultroute",
			l->value, l->file, l->line);
	if (a && !strcasecmp(a->value, "start"))
		diag_report(
			d, s, a, IKB_SEV_ERROR,
			"an opportunistic conn (%s=%s) has no peer to start: traffic starts it; use auto=ondemand, or auto=add to answer only",
			g->key, g->value);
	net = cfg_get(s, g == r ? "rightsubnet" : "leftsubnet");
	if (net && cfg_host_is_group(g->value))
		diag_report(
			d, s, net, IKB_SEV_ERROR,
			"%s=%s takes its networks from its policy group file, not from %s=",
			g->key, g->value, net->key);
}

int cfg_check_core(const struct cfg *c, struct ikb_diag *d)
{
	unsigned before = d->errors;

	for (size_t i = 0; i < c->nraw; i++)
		check_values(&c->raw[i], d);
	cfg_check_ocsp(&c->setup, d);
	for (size_t i = 0; i < c->nconns; i++) {
		check_ends(&c->conns[i], d);
		check_routes(&c->conns[i], d);
		check_oppo(&c->conns[i], d);
		check_ifip(&c->conns[i], d);
		cfg_check_updown(&c->conns[i], d);
		cfg_check_sourceip(&c->conns[i], d);
		check_margin(&c->conns[i], d, "ikelifetime");
		check_margin(&c->conns[i], d, "ipsec-lifetime");
		cfg_check_ikeports(c, &c->conns[i], d);
	}
	return d->errors > before ? -1 : 0;
}
