// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine: life cycle, the operator's verbs (up, down, auto=start) and
 * the first look at every datagram. Before anything is decrypted a
 * message must name an SA we have, come from its peer, and carry the
 * message id the window expects; anything else is dropped with a log
 * line and changes no state.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <event2/event.h>

#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/path/path.h"
#include "ike/events.h"
#include "ike/status/status.h"
#include "ike/conn/conn.h"
#include "ike/msg/msg.h"
#include "ike/route/route.h"
#include "ike/exchange/exchange.h"
#include "ike/timers.h"
#include "log/log.h"
#include "plugin/conf_load.h"

struct plugin_set *engine_plugins(const struct ike_engine *e)
{
	return e->lc->plugins;
}

const struct ikb_proposals_ops *engine_proposals(const struct ike_engine *e,
						 void **state)
{
	return plugin_set_proposals(e->lc->plugins, state);
}

const struct ikb_kernel_ops *engine_kernel(const struct ike_engine *e,
					   void **state)
{
	return plugin_set_kernel(e->lc->plugins, state);
}

void ike_engine_set_conf(struct ike_engine *e, const struct loaded_conf *lc)
{
	struct conn_set *set;

	e->lc = lc;
	set = conn_set_compile(e, lc);
	conn_set_free(e->conns);
	e->conns = set;
	hosts_sync(e);
	e->ddos_threshold = set ? set->ddos_threshold : DDOS_IKE_THRESHOLD;
	e->max_halfopen = set ? set->max_halfopen : 50000;
	if (e->base)
		rekey_events_subscribe(e);
	ipsec_ifs_sync(e);
	traps_sync(e);
}

struct ike_engine *ike_engine_new(struct event_base *base,
				  const struct loaded_conf *lc,
				  const struct ike_io *io)
{
	struct ike_engine *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->base = base;
	if (base)
		engine_clock_attach(base);
	e->io = *io;
	e->next_reqid = 1;
	ike_engine_set_conf(e, lc);
	/* where the sockets listen: read at start only */
	e->ike_port = e->conns ? e->conns->ike_port : 500;
	rekey_events_subscribe(e);
	if (cookie_init(e) || halfopen_init(e) || sourceip_init(e)) {
		ike_engine_free(e);
		return NULL;
	}
	return e;
}

void ike_engine_free(struct ike_engine *e)
{
	if (!e)
		return;
	events_free(e);
	rekey_events_unsubscribe(e);
	retry_cancel(e, NULL);
	ike_sa_free_all(e);
	halfopen_fini(e);
	sourceip_fini(e);
	traps_free(e);
	ipsec_ifs_free(e);
	hosts_free(e);
	cookie_fini(e);
	failure_fini(e);
	conn_set_free(e->conns);
	engine_clock_detach(e->base);
	free(e);
}

int ike_engine_up(struct ike_engine *e, const char *name, struct ikb_error *err)
{
	retry_cancel(e, name); /* the user's call replaces them */
	return engine_up(e, name, 0, err);
}

int ike_engine_up_auto(struct ike_engine *e, const char *name,
		       struct ikb_error *err)
{
	return engine_up(e, name, 1, err);
}

/* sa's path from its conn's view, for IKE_SA_INIT. */
static int engine_path(struct ike_sa *sa, struct ikb_error *err)
{
	struct ike_engine *e = sa->e;
	const struct conn *conn = engine_conn(e, sa->conn);
	struct conn_view v;
	int rc;

	if (!conn) {
		snprintf(err->msg, sizeof(err->msg), "no conn %s", sa->conn);
		return -ENOENT;
	}
	rc = conn_view_local(e, conn, &v, err);
	if (rc)
		return rc;
	/* the NAT-T port too: IKE may start there (RFC 7296 2.23, Submariner) */
	if (v.local.ike_port && v.local.ike_port != e->ike_port &&
	    v.local.ike_port != e->conns->natt_port) {
		snprintf(
			err->msg, sizeof(err->msg),
			"conn %s: %sikeport=%u, but the daemon listens on ikeport=%u and nat-ikeport=%u",
			sa->conn, v.left_is_local ? "left" : "right",
			v.local.ike_port, e->ike_port, e->conns->natt_port);
		return -EINVAL;
	}
	sa->path.local = v.local.addr;
	sa->path.remote = v.remote.addr;
	sa->path.lport = v.local.ike_port ? v.local.ike_port : e->ike_port;
	sa->path.rport = v.remote.ike_port ? v.remote.ike_port : 500;
	sa->view_side = v.left_is_local;
	ike_sa_set_state(sa, IKE_SA_OPENING_I);
	return 0;
}

int engine_open(struct ike_sa *sa, struct ikb_error *err)
{
	int rc = engine_path(sa, err);

	return rc ? rc : opening_start(sa, err);
}

static bool has_hosts(const struct conn *c)
{
	return host_needed(c, 0) || host_needed(c, 1);
}

int engine_up(struct ike_engine *e, const char *name, unsigned attempt,
	      struct ikb_error *err)
{
	const struct conn *conn = engine_conn(e, name);
	struct ike_path p = { 0 };
	struct ike_sa *sa;
	int rc;

	if (!conn) {
		snprintf(err->msg, sizeof(err->msg), "no conn %s", name);
		return -ENOENT;
	}
	if (ike_sa_find_conn(e, name, NULL)) {
		snprintf(err->msg, sizeof(err->msg),
			 "conn %s already has an IKE SA", name);
		return -EALREADY;
	}
	if (conn->shunt != IKB_POLICY_IPSEC) {
		snprintf(
			err->msg, sizeof(err->msg),
			"conn %s is a shunt (type=): nothing to negotiate; ikebana route installs it",
			name);
		return -EINVAL;
	}
	if (conn->grp_side >= 0) {
		snprintf(
			err->msg, sizeof(err->msg),
			"conn %s is opportunistic: traffic to a destination of its group starts that destination's instance (%s#ADDRESS)",
			name, name);
		return -EINVAL;
	}
	sa = ike_sa_new(e, name, &p, NULL);
	if (!sa) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -ENOMEM;
	}
	conn_timing(conn, &sa->rtx.interval_ms, &sa->rtx.timeout_ms);
	sa->auto_try = attempt > 0;
	sa->attempt = attempt;
	/* a name is looked up again at every initiation */
	rc = has_hosts(conn) ? resolve_start(sa, err) : engine_path(sa, err);
	if (rc) {
		/* as if there never was an SA: the caller says why */
		ike_sa_free(sa);
		return rc;
	}
	if (sa->state == IKE_SA_RESOLVE_I)
		return 0;
	rc = opening_start(sa, err);
	if (rc)
		ike_sa_delete(sa, err->msg);
	return rc;
}

void engine_outcome(struct ike_sa *sa, int rc, const char *why,
		    const struct child_sa *c)
{
	/* -ECONNABORTED: ike_sa_delete() is taking it away */
	bool ike_up = sa->state == IKE_SA_ESTABLISHED && rc != -ECONNABORTED;

	opening_done(sa, true);
	if (sa->outcome_sent || !sa->initiator)
		return;
	sa->outcome_sent = true;
	if (rc)
		events_failed(sa, rc, why, ike_up);
	if (!rc || ike_up) /* only its Child SA failed: the IKE SA is up */
		events_ike_up(sa, rc ? NULL : c, NULL);
}

static int conn_down(struct ike_engine *e, const char *name, bool again,
		     struct ikb_error *err)
{
	struct ike_sa *sa = ike_sa_find_conn(e, name, NULL), *next;
	unsigned n = retry_cancel(e, name);

	for (; sa; sa = next, n++) {
		next = ike_sa_find_conn(e, name, sa);
		sa->reinit = again; /* engine_reinit: auto=start only */
		sa->auto_try = false;
		if (sa->state == IKE_SA_ESTABLISHED) {
			/* a Delete, once the window is free */
			task_want(sa, TASK_DELETE_IKE);
			tasks_schedule(sa);
		} else if (sa->state != IKE_SA_DELETING) {
			ike_sa_delete(sa, "ikebana down");
		}
	}
	if (n)
		return 0;
	snprintf(err->msg, sizeof(err->msg), "conn %s has no IKE SA", name);
	return -ENOENT;
}

int ike_engine_down(struct ike_engine *e, const char *name,
		    struct ikb_error *err)
{
	return conn_down(e, name, false, err);
}

int ike_engine_redo(struct ike_engine *e, const char *name,
		    struct ikb_error *err)
{
	return conn_down(e, name, true, err);
}

int ike_engine_conn_usable(struct ike_engine *e, const char *name,
			   struct ikb_error *err)
{
	const struct conn *c = engine_conn(e, name);
	struct conn_view v;

	if (!c) {
		snprintf(err->msg, sizeof(err->msg), "no conn %s", name);
		return -ENOENT;
	}
	/*
	 * Only an end of this host that failed to compile (its certificate
	 * or key missing) makes it unusable: a conn for a peer of %any, or
	 * one whose host names are not resolved yet, waits as it should.
	 */
	for (int side = 1; side >= 0; side--) {
		const struct ikb_addr *a = &c->view[side].local.addr;

		if (c->view_rc[side] && a->family && e->io.is_local &&
		    e->io.is_local(e->io.ctx, a))
			return conn_view_local(e, c, &v, err);
	}
	return 0;
}

void ike_engine_start_auto(struct ike_engine *e)
{
	const struct conn_set *set = e->conns;

	for (size_t i = 0; set && i < set->n; i++) {
		const struct conn *c = &set->conns[i];
		struct ikb_error err = { "" };

		if (c->auto_start && !ike_sa_find_conn(e, c->name, NULL) &&
		    engine_up(e, c->name, 1, &err))
			log_warn("conn %s: auto=start: %s", c->name, err.msg);
	}
}

/* Field by field: structs built on the stack may differ in padding. */
bool ike_addr_equal(const struct ikb_addr *a, const struct ikb_addr *b)
{
	return a->family == b->family && !memcmp(a->bytes, b->bytes,
						 a->family == AF_INET6 ? 16 :
						 a->family == AF_INET  ? 4 :
									 0);
}

bool ike_path_equal(const struct ike_path *a, const struct ike_path *b)
{
	return ike_addr_equal(&a->local, &b->local) &&
	       ike_addr_equal(&a->remote, &b->remote) && a->lport == b->lport &&
	       a->rport == b->rport;
}

bool ike_sel_equal(const struct ikb_selector *a, const struct ikb_selector *b)
{
	return ike_addr_equal(&a->src, &b->src) &&
	       ike_addr_equal(&a->dst, &b->dst) && a->src_plen == b->src_plen &&
	       a->dst_plen == b->dst_plen && a->proto == b->proto &&
	       a->sport == b->sport && a->dport == b->dport;
}

/* The SA this message belongs to, or NULL after logging why not. */
static struct ike_sa *lookup(struct ike_engine *e, const struct ike_path *p,
			     const struct wire_hdr *h)
{
	bool from_initiator = h->flags & WIRE_FLAG_I;
	struct ike_sa *sa =
		ike_sa_find(e, from_initiator ? h->spi_r : h->spi_i);
	const char *why = NULL;

	if (!sa)
		why = "no IKE SA for its SPI";
	else if (memcmp(h->spi_i, sa->spi_i, 8))
		why = "SPIi does not match the IKE SA";
	else if (from_initiator == sa->initiator)
		why = "Initiator flag does not match our role";
	else if (h->exchange != WIRE_EXCH_IKE_SA_INIT &&
		 memcmp(h->spi_r, sa->spi_r, 8))
		why = "SPIr does not match the IKE SA";
	else if (!ike_addr_equal(&p->remote, &sa->path.remote) &&
		 !nat_may_move(sa, p) && !mobike_may_move(sa, p))
		why = "from another address than the IKE SA's peer, which is behind no NAT and does no MOBIKE";
	if (why)
		log_wire_drop(p, why, NULL);
	else if (sa->job)
		log_debug(
			"conn %s #%lu: message while the key exchange runs: dropped",
			sa->conn, sa->serial);
	return why || sa->job ? NULL : sa;
}

void ike_engine_input(struct ike_engine *e, const struct ike_path *p,
		      const uint8_t *buf, size_t len)
{
	struct ike_dgram dg = { .buf = buf, .len = len };
	const struct wire_hdr *h = &dg.hdr;
	struct wire_error werr;
	struct ike_sa *sa;

	/* the one parse of the header: handed down with the datagram */
	if (wire_parse_hdr(&dg.hdr, buf, len, &werr)) {
		log_wire_drop(p, "malformed", &werr);
		return;
	}
	if (h->exchange == WIRE_EXCH_IKE_SA_INIT && !(h->flags & WIRE_FLAG_R)) {
		if (!(h->flags & WIRE_FLAG_I) ||
		    memcmp(h->spi_r, "\0\0\0\0\0\0\0\0", 8))
			log_wire_drop(
				p,
				"IKE_SA_INIT request with SPIr set or without the Initiator flag",
				NULL);
		else
			ike_sa_init_request(e, p, &dg);
		return;
	}
	sa = lookup(e, p, h);
	if (!sa)
		return;
	if (sa->jobs) { /* in order, once its jobs are done */
		hold_msg(sa, p, &dg);
		return;
	}
	sa->rx_path = *p;
	if (h->flags & WIRE_FLAG_R)
		dispatch_response(sa, &dg);
	else
		dispatch_request(sa, &dg);
}
