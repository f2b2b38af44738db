// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The conns of a configuration, compiled once when the engine takes it
 * (ike_engine_set_conf): both views, the proposals, the child plan of
 * each view and every value the exchanges and timers need. This is the
 * only engine file that reads config strings, with conn.c's parsers; the
 * config checker has refused bad syntax before, so what fails here is
 * what ikebana cannot use yet (a DNS name for left=, say), kept as the
 * error of that part and reported where the engine needs the part.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/config.h"
#include "config/groups.h"
#include "ike/child/child.h"
#include "ike/msg/msg.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/route/route.h"
#include "log/log.h"
#include "plugin/conf_load.h"

#define HOUR_MS (3600ULL * 1000)

static const char *value(const struct ikb_section *s, const char *key)
{
	const struct ikb_value *v = cfg_get(s, key);

	return v ? v->value : NULL;
}

static bool flag(const struct ikb_section *s, const char *key, bool dflt)
{
	const char *v = value(s, key);
	bool yes = dflt;

	if (v)
		cfg_parse_bool(v, &yes);
	return yes;
}

static unsigned long long ms(const struct ikb_section *s, const char *key,
			     unsigned long long dflt)
{
	const char *v = value(s, key);
	unsigned long long x;

	return v && cfg_parse_duration_ms(v, &x) ? x : dflt;
}

/* ipsec-max-bytes= and -packets=: checked by the config loader; 0: none */
static uint64_t count(const struct ikb_section *s, const char *key, bool bytes)
{
	const char *v = value(s, key);
	uint64_t n;

	return v && cfg_parse_count(v, bytes, &n) ? n : 0;
}

/* 0 or rc; a failure's message is kept (NULL without memory: generic). */
static int keep(int rc, const struct ikb_error *err, char **msg)
{
	*msg = rc ? strdup(err->msg) : NULL;
	return rc;
}

static const char *kept(const char *msg)
{
	return msg ? msg : "out of memory";
}

/*
 * mark=VALUE[/MASK], as libreswan's: checked by the config loader,
 * 32-bit numbers, or VALUE -1 for a mark of each reqid's own.
 */
static void parse_mark(const char *v, struct conn_mark *m)
{
	const char *slash = strchr(v, '/');

	memset(m, 0, sizeof(*m));
	m->set = true;
	if (!strncmp(v, "-1", 2) && (v[2] == '\0' || slash))
		m->reqid = true;
	else
		m->val = (uint32_t)strtoul(v, NULL, 0);
	m->mask = slash ? (uint32_t)strtoul(slash + 1, NULL, 0) : 0xffffffffu;
}

/* mark= both ways; mark-in= and mark-out= override it, as libreswan */
static void compile_mark(const struct ikb_section *s, struct conn *c)
{
	const char *both = value(s, "mark");
	const char *in = value(s, "mark-in"), *out = value(s, "mark-out");

	memset(&c->mark_in, 0, sizeof(c->mark_in));
	memset(&c->mark_out, 0, sizeof(c->mark_out));
	if (in || both)
		parse_mark(in ? in : both, &c->mark_in);
	if (out || both)
		parse_mark(out ? out : both, &c->mark_out);
}

/*
 * ipsec-interface=yes|no|N, checked by the config loader. yes is 1, as
 * libreswan's; N 0 is ipsec0, which takes libreswan's if_id 16384
 * (XFRMI_IF_ID_ZERO), since the kernel refuses if_id 0.
 */
static void compile_if_id(const struct ikb_section *s, struct conn *c)
{
	const char *v = value(s, "ipsec-interface");
	unsigned long n;

	c->if_id = 0;
	if (!v)
		return;
	if (!isdigit((unsigned char)v[0])) {
		c->if_id = flag(s, "ipsec-interface", false) ? 1 : 0;
		return;
	}
	n = strtoul(v, NULL, 10);
	c->if_id = n ? (uint32_t)n : XFRMI_IF_ID_ZERO;
}

/* encapsulation=yes|no|auto, as libreswan; nat-keepalive= and mobike=
 * per conn */
static void compile_encap(const struct ikb_section *s, struct conn *c)
{
	const char *v = value(s, "encapsulation");

	c->encap = ENCAP_AUTO;
	if (v && strcasecmp(v, "auto"))
		c->encap =
			flag(s, "encapsulation", false) ? ENCAP_YES : ENCAP_NO;
	c->nat_keepalive = flag(s, "nat-keepalive", true);
	c->mobike = flag(s, "mobike", false);
}

/* libreswan's words: pass is passthrough, reject is drop on XFRM */
static enum ikb_policy_action shunt_word(const char *v)
{
	if (!v || !strcasecmp(v, "none") || !strcasecmp(v, "hold"))
		return IKB_POLICY_IPSEC;
	if (!strcasecmp(v, "passthrough") || !strcasecmp(v, "pass"))
		return IKB_POLICY_PASS;
	if (!strcasecmp(v, "drop") || !strcasecmp(v, "reject"))
		return IKB_POLICY_BLOCK;
	return IKB_POLICY_IPSEC; /* tunnel, transport */
}

static void compile_shunts(const struct ikb_section *s, struct conn *c)
{
	const char *a = value(s, "auto");

	c->auto_route =
		a && (!strcasecmp(a, "route") || !strcasecmp(a, "ondemand"));
	c->shunt = shunt_word(value(s, "type"));
	c->neg_pass =
		shunt_word(value(s, "negotiationshunt")) == IKB_POLICY_PASS;
	/* libreswan 5.4: failureshunt=hold means drop */
	c->fail_shunt = value(s, "failureshunt") &&
				!strcasecmp(value(s, "failureshunt"), "hold") ?
				IKB_POLICY_BLOCK :
				shunt_word(value(s, "failureshunt"));
}

static void compile_values(const struct ikb_section *s, struct conn *c)
{
	const char *a = value(s, "auto"), *t = value(s, "keyingtries");
	const char *fuzz = value(s, "rekeyfuzz");

	c->ignored = a && !strcasecmp(a, "ignore");
	c->auto_start = a && !strcasecmp(a, "start");
	c->pfs = flag(s, "pfs", true); /* libreswan's default */
	c->rekey = flag(s, "rekey", true);
	/* fragmentation=force is libreswan's IKEv1 word: IKEv2 is yes */
	c->frag = !value(s, "fragmentation") ||
		  (strcasecmp(value(s, "fragmentation"), "never") &&
		   flag(s, "fragmentation", true));
	compile_encap(s, c);
	compile_shunts(s, c);
	compile_mark(s, c);
	compile_if_id(s, c);
	/* checked by the config loader: 0..2^32-1 */
	c->priority = (uint32_t)strtoul(value(s, "priority") ?: "0", NULL, 10);
	c->fuzz_pct = fuzz ? (unsigned)strtoul(fuzz, NULL, 10) : 100;
	c->ike_life_ms = ms(s, "ikelifetime", 8 * HOUR_MS);
	c->child_life_ms = ms(s, "ipsec-lifetime", 8 * HOUR_MS);
	c->margin_ms = ms(s, "rekeymargin", 540000);
	c->child_max_bytes = count(s, "ipsec-max-bytes", true);
	c->child_max_packets = count(s, "ipsec-max-packets", false);
	c->dpd_delay_ms = ms(s, "dpddelay", 0);
	c->dpd_timeout_ms = ms(s, "dpdtimeout", 0);
	c->dpd_hold = value(s, "dpdaction") &&
		      !strcasecmp(value(s, "dpdaction"), "hold");
	c->keyingtries =
		!t || !strcmp(t, "%forever") ? 0 : strtoul(t, NULL, 10);
	conn_parse_timing(s, &c->rtx_interval_ms, &c->rtx_timeout_ms);
}

static int compile_props(const struct ike_engine *e, struct conn_set *set,
			 struct conn *c, enum ikb_protocol proto)
{
	struct ikb_proposal_list *l = calloc(1, sizeof(*l));
	struct ikb_error err = { "" };
	const struct conn_props **out =
		proto == IKB_PROTO_IKE ? &c->ike : &c->esp;
	int rc = l ? 0 : -ENOMEM;

	if (!rc)
		rc = proto == IKB_PROTO_IKE ?
			     conn_parse_proposals(e, c->s, proto, l, &err) :
			     child_esp_build(e, c->s, l, &err);
	if (!rc && !(*out = conn_props_intern(&set->props, l)))
		rc = -ENOMEM;
	if (rc == -ENOMEM && !err.msg[0])
		snprintf(err.msg, sizeof(err.msg), "out of memory");
	free(l);
	return keep(rc, &err,
		    proto == IKB_PROTO_IKE ? &c->ike_err : &c->esp_err);
}

/* The plan hook's answer, trimmed to its entries: 10 KB as declared. */
static int compile_plan(const struct ike_engine *e, struct conn *c, int side)
{
	struct ikb_child_plan *plan = NULL;
	struct ikb_error err = { "" };
	int rc = child_plan_build(e, &c->view[side], &plan, &err);

	if (!rc) {
		c->plan[side].c = malloc(plan->n * sizeof(plan->c[0]));
		if (c->plan[side].c) {
			memcpy(c->plan[side].c, plan->c,
			       plan->n * sizeof(plan->c[0]));
			c->plan[side].n = plan->n;
		} else {
			rc = -ENOMEM;
		}
	}
	free(plan);
	return keep(rc, &err, &c->plan_err[side]);
}

/*
 * A credential that cannot be loaded (a leftcert= not in the database, a
 * key missing) is no syntax error, and the conn loads; said now, with the
 * key's place, when the end is this host's, and not first when a peer
 * is refused or `ikebana up` fails.
 */
static void tell_auth_error(const struct ike_engine *e,
			    const struct ikb_section *s,
			    const struct conn_view *v, const char *msg)
{
	if (!v->local.addr.family || !e->io.is_local ||
	    !e->io.is_local(e->io.ctx, &v->local.addr))
		return;
	log_warn("%s:%u: %s: this host cannot authenticate with the conn",
		 s->file, s->line, msg);
}

/*
 * A shunt without a peer (right= absent or %any, no rightsubnet=): its
 * other end is every address of the local end's family, 0.0.0.0/0.
 */
static void shunt_any_peer(const struct ikb_section *s, struct conn_view *v)
{
	struct conn_end *r = &v->remote;

	if (shunt_word(value(s, "type")) == IKB_POLICY_IPSEC ||
	    r->addr.family || r->net_set)
		return;
	r->net = (struct ikb_addr){ .family = v->local.addr.family ?: AF_INET };
	r->plen = 0;
	r->nnets = 1;
	r->nets[0] = (struct ts_net){ .a = r->net, .plen = 0 };
}

static int compile_view(const struct ike_engine *e, const struct ikb_section *s,
			bool left_is_local, struct conn_view *v,
			struct ikb_error *err)
{
	struct ikb_error aerr = { "" };
	int rc = conn_view_init(s, left_is_local, v, err);

	if (rc)
		return rc;
	shunt_any_peer(s, v);
	rc = conn_auth_compile(v, &aerr);
	if (rc) {
		snprintf(err->msg, sizeof(err->msg), "conn %s: %s", s->name,
			 aerr.msg);
		tell_auth_error(e, s, v, err->msg);
	}
	return rc;
}

/* The group end of c (its views compiled) and its networks. */
static void compile_group(const struct conn_set *set, struct conn *c)
{
	const struct conn_end *l = &c->view[1].local, *r = &c->view[1].remote;
	const struct cfg_group *g = cfg_group_find(set->cfg, c->name);
	const struct conn_end *end;

	c->grp_side = r->host.kind == IKE_HOST_GROUP ? 0 :
		      l->host.kind == IKE_HOST_GROUP ? 1 :
						       -1;
	if (c->grp_side < 0 || c->view_rc[1])
		return;
	end = c->grp_side ? l : r;
	if (!g) { /* %opportunistic: its subnet=, else every address */
		c->grp = calloc(end->nnets, sizeof(c->grp[0]));
		if (!c->grp)
			return;
		for (unsigned i = 0; i < end->nnets; i++)
			c->grp[i] = end->nets[i];
		if (!end->net_set)
			c->grp[0] = (struct ts_net){
				.a.family = (c->grp_side ? r : l)->addr.family ?:
						    AF_INET,
				.plen = 0
			};
		c->ngrp = end->nnets;
		return;
	}
	c->grp = g->n ? calloc(g->n, sizeof(c->grp[0])) : NULL;
	if (!c->grp)
		return;
	for (size_t i = 0; i < g->n; i++)
		c->grp[i] = (struct ts_net){ .a = g->nets[i].a,
					     .plen = g->nets[i].plen };
	c->ngrp = (unsigned)g->n;
}

static void compile_conn(const struct ike_engine *e, struct conn_set *set,
			 const struct ikb_section *s, struct conn *c)
{
	c->s = s;
	c->name = s->name;
	compile_values(s, c);
	for (int side = 0; side < 2; side++) {
		struct ikb_error err = { "" };

		c->view_rc[side] = keep(
			compile_view(e, s, side == 1, &c->view[side], &err),
			&err, &c->view_err[side]);
		c->view[side].conn = c;
		c->plan_rc[side] = c->view_rc[side] ? c->view_rc[side] :
						      compile_plan(e, c, side);
	}
	c->ike_rc = compile_props(e, set, c, IKB_PROTO_IKE);
	c->esp_rc = compile_props(e, set, c, IKB_PROTO_ESP);
	compile_group(set, c);
}

void conn_compile_one(const struct ike_engine *e, struct conn_set *set,
		      const struct ikb_section *s, struct conn *c)
{
	compile_conn(e, set, s, c);
}

/*
 * How many half-open IKE SAs we hold before asking for COOKIEs: libreswan's
 * ddos-mode= busy asks always, unlimited never, auto (the default) past
 * ddos-ike-threshold=.
 */
static unsigned cookie_threshold(const struct cfg_setup *set)
{
	switch (set->ddos_mode) {
	case CFG_DDOS_BUSY:
		return 0;
	case CFG_DDOS_UNLIMITED:
		return UINT_MAX;
	case CFG_DDOS_AUTO:
		break;
	}
	return set->ddos_ike_threshold;
}

static void compile_setup(const struct cfg_setup *setup, struct conn_set *set)
{
	set->ddos_threshold = cookie_threshold(setup);
	set->max_halfopen = setup->max_halfopen_ike;
	set->ike_port = setup->ikeport;
	set->uniqueids = setup->uniqueids;
	set->drop_oppo_null = setup->drop_oppo_null;
	set->if_managed = setup->ipsec_interface_managed;
	set->frag_size = setup->ike_fragment_size;
	set->natt_port = setup->nat_ikeport;
	/* libreswan's keep-alive=, seconds; 0 sends none */
	set->keepalive_s = (unsigned)(setup->keep_alive_ms / 1000);
	set->shunt_life_ms = setup->shuntlifetime_ms;
}

struct conn_set *conn_set_compile(const struct ike_engine *e,
				  const struct loaded_conf *lc)
{
	const struct cfg *cfg = lc->cfg;
	struct conn_set *set = calloc(1, sizeof(*set));

	if (set && cfg->nconns &&
	    !(set->conns = calloc(cfg->nconns, sizeof(set->conns[0])))) {
		free(set);
		set = NULL;
	}
	if (!set) {
		log_err("out of memory compiling %zu conns", cfg->nconns);
		return NULL;
	}
	set->cfg = cfg;
	set->n = cfg->nconns;
	compile_setup(&cfg->set, set);
	for (size_t i = 0; i < cfg->nconns; i++)
		compile_conn(e, set, &cfg->conns[i], &set->conns[i]);
	conn_index_build(set);
	return set;
}

static void set_end(struct conn_end *end, const struct ikb_addr *a)
{
	end->addr = *a;
	if (end->net_set)
		return;
	end->net = *a;
	end->plen = a->family == AF_INET ? 32 : 128;
	end->nets[0].a = end->net;
	end->nets[0].plen = end->plen;
}

void conn_end_set(const struct ike_engine *e, struct conn *c, int side,
		  const struct ikb_addr *a)
{
	set_end(&c->view[side].local, a);
	set_end(&c->view[!side].remote, a);
	for (int v = 0; v < 2; v++) {
		if (c->view_rc[v])
			continue;
		free(c->plan[v].c);
		free(c->plan_err[v]);
		c->plan[v] = (struct conn_plan){ 0 };
		c->plan_err[v] = NULL;
		c->plan_rc[v] = compile_plan(e, c, v);
	}
}

void conn_host_set(struct ike_engine *e, const struct conn *cc, int side,
		   const struct ikb_addr *a)
{
	conn_end_set(e, &e->conns->conns[cc - e->conns->conns], side, a);
	/* its view's local address is new: the index has it elsewhere */
	conn_index_build(e->conns);
}

void conn_free_one(struct conn *c)
{
	for (int side = 0; side < 2; side++) {
		free(c->view_err[side]);
		conn_auth_free(&c->view[side].local);
		conn_auth_free(&c->view[side].remote);
		free(c->plan_err[side]);
		free(c->plan[side].c);
	}
	free(c->ike_err);
	free(c->esp_err);
	free(c->grp);
}

void conn_set_free(struct conn_set *set)
{
	if (!set)
		return;
	conn_inst_free(set);
	conn_index_free(set->by_local);
	for (size_t i = 0; i < set->n; i++)
		conn_free_one(&set->conns[i]);
	conn_props_free(&set->props);
	free(set->conns);
	free(set);
}

const struct conn *engine_conn(const struct ike_engine *e, const char *name)
{
	const struct conn_set *set = e->conns;
	const struct ikb_section *s =
		set ? cfg_conn_find(set->cfg, name) : NULL;

	if (s)
		return &set->conns[s - set->cfg->conns];
	return set && strchr(name, '#') ? conn_instance_find(e, name) : NULL;
}

bool conn_auto_start(const struct ike_engine *e, const char *conn)
{
	const struct conn *c = engine_conn(e, conn);

	return c && c->auto_start;
}

bool conn_dpd_hold(const struct ike_engine *e, const char *conn)
{
	const struct conn *c = engine_conn(e, conn);

	return c && c->dpd_hold;
}

static bool ours(const struct ike_engine *e, const struct conn *c, int side)
{
	const struct conn_view *v = &c->view[side];

	/* a shunt needs no peer: right= may be absent (%any) */
	return !c->view_rc[side] && v->local.addr.family &&
	       e->io.is_local(e->io.ctx, &v->local.addr) &&
	       (v->remote.addr.family || v->remote.host.kind == IKE_HOST_GROUP ||
		c->shunt != IKB_POLICY_IPSEC);
}

int conn_view_local(const struct ike_engine *e, const struct conn *c,
		    struct conn_view *v, struct ikb_error *err)
{
	/* left first, as libreswan looks */
	for (int side = 1; side >= 0; side--)
		if (ours(e, c, side)) {
			*v = c->view[side];
			return 0;
		}
	/* the failed view whose local address is ours says why, else any */
	for (int side = 1; side >= 0; side--) {
		const struct ikb_addr *a = &c->view[side].local.addr;

		if (c->view_rc[side] && a->family &&
		    e->io.is_local(e->io.ctx, a)) {
			snprintf(err->msg, sizeof(err->msg), "%s",
				 kept(c->view_err[side]));
			return -EADDRNOTAVAIL;
		}
	}
	if (c->view_rc[0] || c->view_rc[1])
		snprintf(err->msg, sizeof(err->msg), "%s",
			 kept(c->view_err[c->view_rc[1] ? 1 : 0]));
	else
		snprintf(
			err->msg, sizeof(err->msg),
			"conn %s: neither left= nor right= is an address of this host with a known peer address",
			c->name);
	return -EADDRNOTAVAIL;
}

int conn_plan(const struct conn_view *v, const struct conn_plan **out,
	      struct ikb_error *err)
{
	const struct conn *c = v->conn;
	int side = v->left_is_local;

	*out = &c->plan[side];
	if (c->plan_rc[side])
		snprintf(err->msg, sizeof(err->msg), "%s",
			 kept(c->plan_err[side]));
	return c->plan_rc[side];
}

int conn_proposals(const struct conn *c, enum ikb_protocol proto,
		   struct ikb_proposal_list *out, struct ikb_error *err)
{
	bool ike = proto == IKB_PROTO_IKE;
	int rc = ike ? c->ike_rc : c->esp_rc;

	if (rc) {
		memset(out, 0, sizeof(*out));
		snprintf(err->msg, sizeof(err->msg), "%s",
			 kept(ike ? c->ike_err : c->esp_err));
		return rc;
	}
	conn_props_copy(ike ? c->ike : c->esp, out);
	return 0;
}

void conn_timing(const struct conn *c, unsigned *interval_ms,
		 unsigned long long *timeout_ms)
{
	if (c) {
		*interval_ms = c->rtx_interval_ms;
		*timeout_ms = c->rtx_timeout_ms;
	} else {
		conn_parse_timing(NULL, interval_ms, timeout_ms);
	}
}
