// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Routes (route.h): traps of on-demand conns and shunt conns, one per
 * selector set of the conn's plan. A trap's outbound policy is what its
 * negotiation and failure shunts swap: negotiationshunt=passthrough lets
 * the traffic pass while the conn is negotiated, failureshunt= passes or
 * drops it for shuntlifetime= after a failure; the trap (hold) is back
 * once a Child SA is up or the shunt's time is over. The inbound (and
 * forward) policies stay, so that nothing the conn covers is accepted in
 * clear while it has no SA.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <event2/event.h>

#include "config/config.h"
#include "ike/child/child.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/msg/msg.h"
#include "ike/route/route.h"
#include "ike/route/trap_int.h"
#include "log/log.h"

#define ROUTE_SELS_MAX (IKB_CHILD_PLAN_MAX + TS_NETS_MAX * TS_NETS_MAX)

static const char *const dir_names[] = { "in", "out", "fwd" };

static int out_set(struct ike_route *r, enum ikb_policy_action a,
		   const char *why);

static int route_install(struct ike_route *r, struct ikb_error *err)
{
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(r->e, &st);
	const struct conn *c = engine_conn(r->e, r->conn);
	enum ikb_dir dirs[3] = { IKB_DIR_OUT, IKB_DIR_IN, IKB_DIR_FWD };
	unsigned n = r->mode == IKB_MODE_TUNNEL || r->kind != IKB_POLICY_IPSEC ?
			     3 :
			     2;
	int rc = 0;

	/*
	 * A group's trap that may let traffic pass (private-or-clear) is
	 * outbound only, as libreswan's: a host of the group that speaks no
	 * IKE sends in clear first, and its packets must not meet an inbound
	 * policy that wants ESP; its instance's policies take both ways.
	 */
	if (r->group && c &&
	    (c->neg_pass || c->fail_shunt == IKB_POLICY_PASS) &&
	    r->kind == IKB_POLICY_IPSEC)
		n = 1;

	if (!k)
		return ikb_error_set(err, ENOTSUP,
				     "no kernel plugin is loaded");
	for (unsigned i = 0; !rc && i < n; i++) {
		struct ikb_policy *p = &r->pol[i];
		const struct conn_mark *m;

		policy_fill(p, &r->sel, dirs[i], r->mode, &r->local, &r->remote,
			    r->reqid);
		p->action = r->kind;
		if (c && c->priority)
			p->priority = c->priority;
		m = !c			   ? NULL :
		    dirs[i] == IKB_DIR_OUT ? &c->mark_out :
					     &c->mark_in;
		if (m && m->set && !m->reqid) {
			p->mark = m->val;
			p->mark_mask = m->mask;
		}
		/* the Child SA that claims the trap has the same if_id */
		p->if_id = c ? c->if_id : 0;
		/* an update replaces what a crashed run may have left */
		rc = k->policy_update ? k->policy_update(st, p, err) :
					k->policy_add(st, p, err);
		if (!rc)
			r->npol++;
	}
	r->out_now = r->kind;
	return rc;
}

static void route_remove(struct ike_route *r)
{
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(r->e, &st);
	struct ikb_error err = { "" };

	if (r->kind == IKB_POLICY_IPSEC)
		out_set(r, IKB_POLICY_IPSEC, "the trap goes");
	while (k && r->npol > 0)
		if (k->policy_del(st, &r->pol[--r->npol], &err))
			log_warn("conn %s: %s policy of its %s not removed: %s",
				 r->conn, dir_names[r->pol[r->npol].dir],
				 trap_action_name(r->kind), err.msg);
	r->npol = 0;
}

static void route_free(struct ike_route *r)
{
	if (r->revert)
		event_free(r->revert);
	free(r->conn);
	free(r);
}

/*
 * The traffic does a now (a trap's shunts); 0 or -errno. Every policy of
 * the trap takes it, so that the answers to what passes in clear are
 * let in (and a drop drops both ways). Each is replaced in place
 * (XFRM_MSG_UPDPOLICY), so that no packet meets no policy meanwhile: the
 * kernel takes no second policy of the same selector, whatever its
 * priority. Such a shunt carries no tag of ours (kernel-xfrm's are set
 * at NEWPOLICY), so a crash may leave it: the next start replaces it
 * with the trap (route_install updates).
 */
static int out_set(struct ike_route *r, enum ikb_policy_action a,
		   const char *why)
{
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(r->e, &st);
	struct ikb_error err = { "" };
	int rc = 0;

	if (!k || !r->npol || r->out_now == a)
		return 0;
	for (unsigned i = 0; !rc && i < r->npol; i++) {
		struct ikb_policy p = r->pol[i];

		p.action = a;
		rc = k->policy_update ?
			     k->policy_update(st, &p, &err) :
			     ikb_error_set(
				     &err, ENOTSUP,
				     "the kernel plugin cannot replace a policy");
	}
	if (rc) {
		log_warn("conn %s: %s not made %s (%s): %s", r->conn,
			 trap_action_name(r->out_now), trap_action_name(a), why, err.msg);
		return rc;
	}
	log_info("conn %s: traffic: %s (%s)", r->conn, trap_action_name(a), why);
	r->out_now = a;
	return 0;
}

static struct trap_set *set_of(struct ike_engine *e)
{
	if (!e->traps)
		e->traps = calloc(1, sizeof(*e->traps));
	return e->traps;
}

/* Each route of conn, in order: *it NULL starts. */
static struct ike_route *route_next(const struct ike_engine *e,
				    const char *conn, struct ike_route *it)
{
	struct ike_route *r = it ? it->next : e->traps ? e->traps->head : NULL;

	for (; r; r = r->next)
		if (!strcmp(r->conn, conn))
			return r;
	return NULL;
}

static bool wants_route(const struct conn *c)
{
	if (c->ignored)
		return false;
	/* libreswan 5 routes a shunt conn at auto=route, and at start */
	return c->shunt != IKB_POLICY_IPSEC ? c->auto_route || c->auto_start :
					      c->auto_route;
}

/* out[pair]: the route of pair of base's selectors (set NULL: base). */
static int route_new(struct ike_engine *e, const struct conn *c,
		     const struct conn_view *v, const struct ikb_selector *base,
		     const struct ts_set *set, unsigned pair,
		     struct ike_route **out, struct ikb_error *err)
{
	struct ike_route *r = calloc(1, sizeof(*r));

	if (!r || !(r->conn = strdup(c->name))) {
		free(r);
		return ikb_error_set(err, ENOMEM, "out of memory");
	}
	r->e = e;
	r->kind = c->shunt;
	r->mode = v->mode;
	r->local = v->local.addr;
	r->remote = v->remote.addr;
	ts_set_pair(set, base, pair, &r->sel);
	r->pair = pair;
	if (set && !pair) {
		r->set = *set;
		r->has_set = true;
	}
	out[pair] = r;
	return 0;
}

/*
 * A group conn's routes: this host's subnet to each network of its
 * group, with a template to any address (the kernel's ACQUIRE names the
 * destination, whose instance is then negotiated). A network of the
 * other family than this host's is skipped: it has no route from here.
 */
static int routes_of_group(struct ike_engine *e, const struct conn *c,
			   const struct conn_view *v,
			   const struct conn_plan *plan, struct ike_route **out,
			   unsigned *n, struct ikb_error *err)
{
	struct ikb_selector base = plan->n ? plan->c[0].ts :
					     (struct ikb_selector){ 0 };
	int rc = 0;

	base.src = v->local.net;
	base.src_plen = v->local.plen;
	for (unsigned i = 0; !rc && i < c->ngrp; i++) {
		struct ikb_selector sel = base;

		if (c->grp[i].a.family != base.src.family)
			continue;
		sel.dst = c->grp[i].a;
		sel.dst_plen = c->grp[i].plen;
		rc = route_new(e, c, v, &sel, NULL, 0, &out[*n], err);
		if (rc)
			break;
		out[*n]->group = true;
		out[*n]->remote = (struct ikb_addr){ .family =
							     sel.dst.family };
		(*n)++;
	}
	return rc;
}

/* The most routes conn c can ask for. */
static unsigned routes_max(const struct conn *c)
{
	return c->ngrp > ROUTE_SELS_MAX ? c->ngrp : ROUTE_SELS_MAX;
}

/* The routes conn c asks for, in r[0..*n) (not yet installed). */
static int routes_of(struct ike_engine *e, const struct conn *c,
		     struct ike_route **out, unsigned *n, struct ikb_error *err)
{
	const struct conn_plan *plan;
	struct conn_view v;
	struct ts_set *set;
	int rc = conn_view_local(e, c, &v, err);

	*n = 0;
	if (!rc)
		rc = conn_plan(&v, &plan, err);
	if (rc)
		return rc;
	if (c->grp_side >= 0)
		return routes_of_group(e, c, &v, plan, out, n, err);
	if (c->shunt == IKB_POLICY_IPSEC &&
	    (v.remote.addr.family == AF_UNSPEC ||
	     v.local.addr.family == AF_UNSPEC))
		return ikb_error_set(
			err, EINVAL,
			"a trap needs both ends' addresses (left=, right=), the template's endpoints");
	rc = ts_set_of_conn(&v, &set);
	if (rc)
		return ikb_error_set(err, ENOMEM, "out of memory");
	for (unsigned i = 0; !rc && i < plan->n; i++) {
		if (plan->c[i].cpu >= 0)
			continue; /* a per-CPU clone shares its fallback's */
		for (unsigned p = 0; !rc && p < ts_set_pairs(set); p++)
			rc = route_new(e, c, &v, &plan->c[i].ts, set, p,
				       &out[*n], err);
		if (!rc)
			*n += ts_set_pairs(set);
		if (*n + ts_set_pairs(set) > ROUTE_SELS_MAX)
			break;
	}
	free(set);
	return rc;
}

static bool route_same(const struct ike_route *a, const struct ike_route *b)
{
	return a->kind == b->kind && a->mode == b->mode &&
	       ike_addr_equal(&a->local, &b->local) &&
	       ike_addr_equal(&a->remote, &b->remote) &&
	       ike_sel_equal(&a->sel, &b->sel);
}

static void route_log_err(const struct conn *c, const char *what,
			  const struct ikb_error *err)
{
	const struct ikb_value *a = cfg_get(c->s, "auto");

	if (a)
		log_err("%s:%u: conn %s: %s: %s", a->file, a->line, c->name,
			what, err->msg);
	else
		log_err("conn %s: %s: %s", c->name, what, err->msg);
}

/* Whether the routes of conn are want[0..n) already, in that order. */
static bool routes_same(const struct ike_engine *e, const char *conn,
			struct ike_route **want, unsigned n)
{
	struct ike_route *r = route_next(e, conn, NULL);
	unsigned i = 0;

	for (; r && i < n; r = route_next(e, conn, r), i++)
		if (!route_same(r, want[i]))
			return false;
	return !r && i == n;
}

/*
 * A Child SA of the conn up already with r's selectors (the peer
 * initiated before the conn was routed, as it may between Submariner's
 * whack of the conn and its --route): r takes its reqid, so that the
 * policies route_install updates in place still lead to its SAs, and
 * holds them from now on, as if the Child SA had claimed the trap.
 * 0: none, a new reqid then.
 */
static uint32_t adopt_child(struct ike_engine *e, const struct ike_route *r)
{
	if (r->kind != IKB_POLICY_IPSEC || r->pair || r->has_set)
		return 0;
	for (struct ike_sa *sa = ike_sa_find_conn(e, r->conn, NULL); sa;
	     sa = ike_sa_find_conn(e, r->conn, sa))
		for (struct child_sa *c = sa->children; c; c = c->next) {
			if (c->trap_pols || !c->npol || c->cpu >= 0 || c->tsx ||
			    !ike_sel_equal(&r->sel, &c->ts))
				continue;
			c->trap_pols = true;
			c->npol = 0; /* the route's now */
			return c->reqid;
		}
	return 0;
}

/* conn's routes as its configuration says now; 0 or -errno with err. */
static int route_conn(struct ike_engine *e, const struct conn *c,
		      struct ikb_error *err)
{
	struct trap_set *ts = set_of(e);
	struct ike_route **want = calloc(routes_max(c), sizeof(*want));
	struct ike_route **tail;
	uint32_t reqid = 0;
	unsigned n;
	int rc;

	if (!ts || !want) {
		free(want);
		return ikb_error_set(err, ENOMEM, "out of memory");
	}
	rc = routes_of(e, c, want, &n, err);
	if (!rc && routes_same(e, c->name, want, n)) {
		for (unsigned i = 0; i < n; i++)
			route_free(want[i]);
		free(want);
		return 0; /* as it was: nothing moves */
	}
	trap_unroute(e, c->name, NULL);
	for (tail = &ts->head; *tail;)
		tail = &(*tail)->next;
	for (unsigned i = 0; i < n; i++) {
		struct ike_route *r = want[i];

		/* Child SAs of the conn find the trap's policies by reqid;
		 * the pairs of one set share the one of their Child SA */
		if (!r->pair && !(reqid = adopt_child(e, r)))
			reqid = e->next_reqid++;
		r->reqid = reqid;
		if (!rc && (rc = route_install(r, err)))
			route_remove(r);
		if (rc) {
			route_free(r);
			continue;
		}
		r->inst = c->inst_of != NULL;
		*tail = r;
		tail = &r->next;
		log_info("conn %s: %s routed, reqid %u", c->name,
			 trap_action_name(r->kind), r->reqid);
	}
	free(want);
	return rc;
}

static void on_event(void *ctx, const struct ike_event *ev);

/* A name or %defaultroute of c not resolved yet: routed on the answer. */
static bool host_pending(const struct conn *c)
{
	const struct conn_end *ends[2] = { &c->view[1].local,
					   &c->view[1].remote };

	for (int i = 0; i < 2; i++)
		if ((ends[i]->host.kind == IKE_HOST_NAME ||
		     ends[i]->host.kind == IKE_HOST_DEFROUTE) &&
		    !ends[i]->addr.family)
			return true;
	return false;
}

void traps_sync(struct ike_engine *e)
{
	const struct conn_set *set = e->conns;
	struct trap_set *ts;
	struct ike_route *r, *next;

	for (size_t i = 0; set && i < set->n; i++) {
		const struct conn *c = &set->conns[i];
		struct ikb_error err = { "" };

		if (wants_route(c) && !host_pending(c) &&
		    route_conn(e, c, &err))
			route_log_err(c, "not routed", &err);
	}
	ts = e->traps;
	for (r = ts ? ts->head : NULL; r; r = next) {
		const struct conn *c = engine_conn(e, r->conn);

		next = r->next;
		if (!c || !wants_route(c))
			trap_unroute(e, r->conn, NULL);
	}
	if (ts && ts->head && !ts->listener)
		ts->listener = ike_engine_subscribe(e, on_event, e);
}

void trap_host_known(struct ike_engine *e, const struct conn *c)
{
	struct ikb_error err = { "" };

	if (wants_route(c) && route_conn(e, c, &err))
		route_log_err(c, "not routed", &err);
	if (e->traps && e->traps->head && !e->traps->listener)
		e->traps->listener = ike_engine_subscribe(e, on_event, e);
}

void traps_free(struct ike_engine *e)
{
	struct trap_set *ts = e->traps;
	struct ike_route *r, *next;

	if (!ts)
		return;
	for (r = ts->head; r; r = next) {
		next = r->next;
		route_remove(r);
		route_free(r);
	}
	free(ts);
	e->traps = NULL;
}

int trap_route(struct ike_engine *e, const char *conn, struct ikb_error *err)
{
	const struct conn *c = engine_conn(e, conn);

	if (!c)
		return ikb_error_set(err, ENOENT, "no conn %s", conn);
	if (c->ignored)
		return ikb_error_set(err, EINVAL, "conn %s has auto=ignore",
				     conn);
	return route_conn(e, c, err);
}

int trap_unroute(struct ike_engine *e, const char *conn, struct ikb_error *err)
{
	struct trap_set *ts = e->traps;
	struct ike_route **pp, *r;
	unsigned n = 0;

	for (pp = ts ? &ts->head : NULL; pp && *pp;) {
		r = *pp;
		if (strcmp(r->conn, conn)) {
			pp = &r->next;
			continue;
		}
		*pp = r->next;
		route_remove(r);
		log_info("conn %s: %s unrouted", conn, trap_action_name(r->kind));
		route_free(r);
		n++;
	}
	if (n || !err)
		return 0;
	return ikb_error_set(err, ENOENT, "conn %s is not routed", conn);
}

static bool in_use(struct ike_engine *e, const char *conn)
{
	for (struct ike_sa *sa = ike_sa_find_conn(e, conn, NULL); sa;
	     sa = ike_sa_find_conn(e, conn, sa))
		for (const struct child_sa *c = sa->children; c; c = c->next)
			if (c->trap_pols && (c->state == CHILD_INSTALLED ||
					     c->state == CHILD_INBOUND_ONLY))
				return true;
	return false;
}

int ike_engine_route(struct ike_engine *e, const char *conn,
		     struct ikb_error *err)
{
	return trap_route(e, conn, err);
}

struct json_object *ike_engine_routes(const struct ike_engine *e)
{
	return traps_status(e);
}

int ike_engine_unroute(struct ike_engine *e, const char *conn,
		       struct ikb_error *err)
{
	if (in_use(e, conn))
		return ikb_error_set(
			err, EBUSY,
			"conn %s: a Child SA uses its trap's policies: ikebana down %s first",
			conn, conn);
	return trap_unroute(e, conn, err);
}

static struct ike_route *route_by_reqid(const struct ike_engine *e,
					uint32_t reqid)
{
	for (struct ike_route *r = e->traps ? e->traps->head : NULL; r;
	     r = r->next)
		if (r->reqid == reqid && r->kind == IKB_POLICY_IPSEC)
			return r;
	return NULL;
}

static bool has_child(const struct ike_sa *sa)
{
	for (const struct child_sa *c = sa->children; c; c = c->next)
		if (c->state == CHILD_INSTALLED ||
		    c->state == CHILD_INBOUND_ONLY)
			return true;
	return false;
}

/* An IKE SA of the conn without a Child SA negotiates its plan again. */
static void child_again(struct ike_sa *sa)
{
	if (sa->state != IKE_SA_ESTABLISHED || has_child(sa) || sa->x)
		return;
	sa->plan_next = 0;
	if (!sa->plan_n)
		sa->plan_n = 1;
	tasks_schedule(sa);
}

/*
 * A group's ACQUIRE: the destination's instance gets its own trap, the
 * peer alone (more specific than the group's, so its shunts are that
 * destination's only), and that route is what the negotiation swaps.
 */
static struct ike_route *instance_route(struct ike_engine *e,
					struct ike_route *g,
					const struct conn *c,
					const struct ikb_kernel_event *ev)
{
	const struct conn *inst = conn_instance(e, c, &ev->sel.dst);
	struct ikb_error err = { "" };
	struct ike_route *r;
	char d[64];

	if (!inst) {
		log_warn("conn %s: ACQUIRE for %s: no instance of the group",
			 g->conn, addr_str(&ev->sel.dst, d, sizeof(d)));
		return NULL;
	}
	r = route_next(e, inst->name, NULL);
	if (r)
		return r;
	if (route_conn(e, inst, &err)) {
		route_log_err(inst, "not routed", &err);
		return NULL;
	}
	return route_next(e, inst->name, NULL);
}

void trap_acquire(struct ike_engine *e, const struct ikb_kernel_event *ev)
{
	struct ike_route *r = route_by_reqid(e, ev->reqid);
	const struct conn *c = r ? engine_conn(e, r->conn) : NULL;
	struct ikb_error err = { "" };
	struct ike_sa *sa;
	char s[64], d[64];

	if (!c) {
		log_debug("kernel: ACQUIRE for reqid %u: no trap of ours",
			  ev->reqid);
		return;
	}
	r->acquires++;
	if (r->group) {
		r = instance_route(e, r, c, ev);
		c = r ? engine_conn(e, r->conn) : NULL;
		if (!c)
			return;
		r->acquires++;
	}
	sa = ike_sa_find_conn(e, r->conn, NULL);
	if (sa) {
		child_again(sa);
		return; /* under way */
	}
	log_notice(
		"conn %s: kernel: ACQUIRE for %s -> %s (proto %u): initiating",
		r->conn, addr_str(&ev->sel.src, s, sizeof(s)),
		addr_str(&ev->sel.dst, d, sizeof(d)), ev->sel.proto);
	if (c->neg_pass)
		out_set(r, IKB_POLICY_PASS, "negotiationshunt=passthrough");
	if (engine_up(e, r->conn, 0, &err)) {
		log_warn("conn %s: ACQUIRE: %s", r->conn, err.msg);
		out_set(r, IKB_POLICY_IPSEC, "the negotiation did not start");
	}
}

bool trap_claim(struct ike_sa *sa, struct child_sa *c)
{
	for (struct ike_route *r = route_next(sa->e, sa->conn, NULL); r;
	     r = route_next(sa->e, sa->conn, r)) {
		if (r->kind != IKB_POLICY_IPSEC || !r->npol || r->pair ||
		    !ike_sel_equal(&r->sel, &c->ts) || c->cpu >= 0 ||
		    !ts_set_equal(r->has_set ? &r->set : NULL, c->tsx))
			continue;
		c->reqid = r->reqid;
		return true;
	}
	return false;
}

/* An instance's route goes: its group's trap covers the peer again. */
static void inst_unroute(struct ike_route *r)
{
	struct trap_set *ts = r->e->traps;
	struct ike_route **pp = &ts->head;

	while (*pp && *pp != r)
		pp = &(*pp)->next;
	if (!*pp)
		return;
	*pp = r->next;
	route_remove(r);
	log_info("conn %s: unrouted (%s)", r->conn,
		 r->drop ? "its IKE SA went" : "shuntlifetime= is over");
	route_free(r);
}

/* The failure shunt's time is over: the trap again. */
static void on_revert(evutil_socket_t fd, short what, void *arg)
{
	struct ike_route *r = arg;

	(void)fd;
	(void)what;
	if (r->inst)
		inst_unroute(r);
	else
		out_set(r, IKB_POLICY_IPSEC, "shuntlifetime= is over");
}

/* After the event's listeners: an instance's route, now out of use. */
static void inst_drop_later(struct ike_engine *e, struct ike_route *r)
{
	struct timeval now = { 0, 0 };

	if (!r->revert && e->base)
		r->revert = evtimer_new(e->base, on_revert, r);
	if (!r->revert)
		return;
	r->drop = true;
	evtimer_add(r->revert, &now);
}

static void failed(struct ike_engine *e, struct ike_route *r,
		   const struct conn *c)
{
	unsigned long long ms = e->conns ? e->conns->shunt_life_ms : 900000;
	struct timeval tv = { (time_t)(ms / 1000),
			      (suseconds_t)(ms % 1000) * 1000 };

	if (c->fail_shunt == IKB_POLICY_IPSEC) {
		/* failureshunt=none: the trap holds, the next packet asks */
		out_set(r, IKB_POLICY_IPSEC, "the negotiation failed");
		if (r->inst) /* the group's trap holds */
			inst_drop_later(e, r);
		return;
	}
	if (r->out_now == c->fail_shunt)
		log_info(
			"conn %s: traffic: stays %s (failureshunt=, the negotiation failed)",
			r->conn, trap_action_name(c->fail_shunt));
	else if (out_set(r, c->fail_shunt,
			 "failureshunt=, the negotiation failed"))
		return;
	if (!r->revert && e->base)
		r->revert = evtimer_new(e->base, on_revert, r);
	if (r->revert)
		evtimer_add(r->revert, &tv);
}

static void on_event(void *ctx, const struct ike_event *ev)
{
	struct ike_engine *e = ctx;
	const char *name = ev->ike ? ev->ike->conn : NULL;
	const struct conn *c = name ? engine_conn(e, name) : NULL;

	if (!c)
		return;
	for (struct ike_route *r = route_next(e, name, NULL); r;
	     r = route_next(e, name, r)) {
		if (r->kind != IKB_POLICY_IPSEC)
			continue;
		if (ev->kind == IKE_EVENT_CHILD_UP) {
			if (r->revert)
				evtimer_del(r->revert);
			r->drop = false;
			out_set(r, IKB_POLICY_IPSEC, "a Child SA is up");
		} else if (ev->kind == IKE_EVENT_IKE_DOWN && r->inst &&
			   !(r->revert && evtimer_pending(r->revert, NULL))) {
			inst_drop_later(e, r);
		} else if (ev->kind == IKE_EVENT_FAILED) {
			/* no Child SA, whether the IKE SA stands or not */
			failed(e, r, c);
		}
	}
}
