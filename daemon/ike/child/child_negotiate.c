// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The first Child SA, carried by IKE_AUTH (RFC 7296 §1.2): SA with the
 * ESP SPI, TSi/TSr, USE_TRANSPORT_MODE and ESP_TFC_PADDING_NOT_SUPPORTED.
 * A Child SA that fails leaves the IKE SA established (§2.21).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/path/path.h"
#include "ike/events.h"
#include "ike/conn/conn.h"
#include "ike/msg/msg.h"
#include "ike/exchange/exchange.h"
#include "ike/status/status.h"
#include "ike/timers.h"
#include "ike/child/ts.h"
#include "ike/auth/auth.h"
#include "plugin/plugin_set.h"

int child_out_init(struct child_out *o)
{
	memset(o, 0, sizeof(*o));
	o->store = calloc(1, sizeof(*o->store));
	return o->store ? 0 : -ENOMEM;
}

void child_out_fini(struct child_out *o)
{
	free(o->store);
	o->store = NULL;
}

int child_esp_build(const struct ike_engine *e, const struct ikb_section *conn,
		    struct ikb_proposal_list *l, struct ikb_error *err)
{
	int rc = conn_parse_proposals(e, conn, IKB_PROTO_ESP, l, err);

	if (!rc)
		rc = plugin_set_child_offer(engine_plugins(e), conn, l, err);
	if (!rc)
		rc = child_esn_default(l, err);
	return rc;
}

int child_plan_build(const struct ike_engine *e, const struct conn_view *v,
		     struct ikb_child_plan **out, struct ikb_error *err)
{
	struct ikb_child_plan *plan = calloc(1, sizeof(*plan));
	int rc;

	*out = NULL;
	if (!plan)
		return -ENOMEM;
	ts_from_conn(v, &plan->c[0].ts);
	plan->c[0].cpu = -1;
	plan->n = 1;
	plan->left_is_local = v->left_is_local;
	rc = plugin_set_child_plan(engine_plugins(e), v->s, plan, err);
	if (!rc && plan->n == 0) {
		snprintf(err->msg, sizeof(err->msg), "the plan is empty");
		rc = -EINVAL;
	}
	if (rc)
		free(plan);
	else
		*out = plan;
	return rc;
}

/* Initiator: the plan's first entry; the others follow by CREATE_CHILD_SA. */
static int plan_ts(struct ike_sa *sa, const struct conn_view *v,
		   struct ikb_selector *ts, struct ikb_error *err)
{
	const struct conn_plan *plan;
	int rc = conn_plan(v, &plan, err);

	if (rc)
		return rc;
	*ts = plan->c[0].ts;
	/* per-CPU clones join once the peer agrees (pcpu_accept) */
	sa->plan_n = 0;
	for (unsigned i = 0; i < plan->n; i++)
		sa->plan_n += plan->c[i].cpu < 0;
	sa->plan_next = 1;
	if (sa->plan_n > 1)
		ike_sa_log(
			sa, IKB_LOG_INFO,
			"the plan has %u Child SAs: IKE_AUTH brings the first, CREATE_CHILD_SA the others",
			sa->plan_n);
	return 0;
}

/* A conn with several selectors: the sets of each plan entry's. */
static int pick_set(struct ike_sa *sa, const struct conn_view *v,
		    const struct conn_plan *plan, const struct wire_ts_pld *tsi,
		    const struct wire_ts_pld *tsr, struct child_sa *c,
		    struct ikb_error *err)
{
	struct ts_set *ours, res;
	int rc = ts_set_of_conn(v, &ours);

	if (rc)
		return ikb_error_set(err, ENOMEM, "out of memory");
	rc = -1;
	for (int strict = 1; rc && strict >= 0; strict--)
		for (unsigned i = 0; rc && i < plan->n; i++)
			rc = ts_set_select(ours, &plan->c[i].ts, tsr, tsi,
					   strict, &res, &c->ts);
	if (!rc) {
		*ours = res;
		c->tsx = ours;
	} else {
		free(ours);
	}
	return rc;
}

int child_pick_ts(struct ike_sa *sa, const struct conn_view *v,
		  const struct wire_ts_pld *tsi, const struct wire_ts_pld *tsr,
		  struct child_sa *c, struct ikb_error *err)
{
	const struct conn_plan *plan;
	struct ikb_selector *out = &c->ts;
	int rc = conn_plan(v, &plan, err);

	if (rc)
		return rc;
	if (v->local.nnets > 1 || v->remote.nnets > 1)
		return pick_set(sa, v, plan, tsi, tsr, c, err);
	/*
	 * First an entry that takes the peer's TS as offered, then the
	 * first that meets them: a request for one entry must not be
	 * narrowed to an earlier one that overlaps it (%any after tcp/5201).
	 */
	rc = -1;
	for (int strict = 1; rc && strict >= 0; strict--)
		for (unsigned i = 0; rc && i < plan->n; i++) {
			struct ikb_selector ours = plan->c[i].ts;

			ts_fill_dynamic(&ours, &sa->path);
			rc = nat_ts_select(sa, v->mode, &ours, tsr, tsi, strict,
					   true, out);
		}
	return rc;
}

void child_add_ts(struct wire_msg *m, struct child_out *o,
		  const struct child_sa *c, bool initiator)
{
	const struct ikb_selector *ts = &c->ts;
	struct wire_payload *p;
	unsigned ni = 1, nr = 1;

	if (c->tsx) {
		ts_set_wire(c->tsx, ts, initiator, o->ts_i, &ni, o->ts_r, &nr);
	} else {
		/* TSi is the initiator's side: our src when we initiated */
		ts_to_wire(initiator ? &ts->src : &ts->dst,
			   initiator ? ts->src_plen : ts->dst_plen, ts->proto,
			   initiator ? ts->sport : ts->dport, &o->ts_i[0]);
		ts_to_wire(initiator ? &ts->dst : &ts->src,
			   initiator ? ts->dst_plen : ts->src_plen, ts->proto,
			   initiator ? ts->dport : ts->sport, &o->ts_r[0]);
	}
	p = msg_add(m, WIRE_PT_TSI);
	p->u.ts = (struct wire_ts_pld){ ni, o->ts_i };
	p = msg_add(m, WIRE_PT_TSR);
	p->u.ts = (struct wire_ts_pld){ nr, o->ts_r };
}

int child_check_ts(struct ike_sa *sa, struct child_sa *c,
		   const struct wire_ts_pld *tsi, const struct wire_ts_pld *tsr,
		   struct ikb_selector *got)
{
	struct ts_set res;

	if (!c->tsx)
		return nat_ts_select(sa, c->mode, &c->ts, tsi, tsr, true, false,
				     got);
	/* every TS of the responder's within one of ours, as it is */
	if (ts_set_select(c->tsx, &c->ts, tsi, tsr, true, &res, got))
		return -1;
	*c->tsx = res;
	return 0;
}

/* Every proposal of l without KE; true, to chain in a condition. */
static bool strip_all(struct ikb_proposal_list *l)
{
	for (unsigned i = 0; i < l->n; i++)
		child_strip_ke(&l->p[i]);
	return true;
}

int child_add_sa(struct wire_msg *m, struct child_out *o,
		 const struct ikb_proposal_list *l, uint8_t num, uint32_t spi)
{
	struct wire_payload *p;
	uint32_t nspi = htonl(spi);

	memcpy(o->spi, &nspi, 4);
	p = msg_add(m, WIRE_PT_SA);
	return wire_sa_from_proposals(o->store, l, num, o->spi, 4, &p->u.sa);
}

int child_offer(struct ike_sa *sa, const struct conn_view *v,
		struct wire_msg *m, struct child_out *o, struct ikb_error *err)
{
	struct child_sa *c = child_sa_new(sa, v->mode);
	int rc = c ? 0 : -ENOMEM;

	if (!rc)
		sa->x->child = c;
	if (!rc)
		rc = conn_proposals(v->conn, IKB_PROTO_ESP, &o->l, err);
	if (!rc)
		strip_all(&o->l); /* IKE_AUTH: see child_strip_ke() */
	if (!rc)
		rc = plan_ts(sa, v, &c->ts, err);
	if (!rc && ts_set_of_conn(v, &c->tsx))
		rc = ikb_error_set(err, ENOMEM, "out of memory");
	if (!rc)
		rc = child_sa_alloc_spi(sa, c, err);
	if (rc)
		return rc;
	if (v->mode == IKB_MODE_TRANSPORT)
		msg_notify(m, WIRE_N_USE_TRANSPORT_MODE, NULL, 0);
	msg_notify(m, WIRE_N_ESP_TFC_PADDING_NOT_SUPPORTED, NULL, 0);
	if (pcpu_offer(sa, v))
		pcpu_add_notify(m, o->res, -1); /* this one is the fallback */
	rc = child_add_sa(m, o, &o->l, 1, c->spi_in);
	child_add_ts(m, o, c, true);
	return rc;
}

/* The wire proposal numbered num: where the peer's ESP SPI is. */
static const struct wire_proposal *wire_prop(const struct wire_sa *w,
					     uint8_t num)
{
	for (unsigned i = 0; i < w->n_prop; i++)
		if (w->prop[i].num == num)
			return &w->prop[i];
	return NULL;
}

/*
 * A failed choice is a failure record: the peer's offer beside ours, and
 * a PFS group of its own kind when only the KE transform kept them apart.
 */
static void select_failed(struct ike_sa *sa,
			  const struct ikb_proposal_list *ours,
			  const struct ikb_proposal_list *got, uint8_t exchange,
			  const char *why)
{
	struct ike_failure f;

	failure_from_sa(&f, sa, IKE_FAIL_ESP_PROPOSAL, exchange);
	if (failure_proposals(&f, got, ours) == 1u << IKB_XF_KE &&
	    exchange == WIRE_EXCH_CREATE_CHILD_SA)
		f.kind = IKE_FAIL_PFS_GROUP;
	f.notify_sent = WIRE_N_NO_PROPOSAL_CHOSEN;
	failure_detail(&f, why);
	failure_file(sa->e, &f);
}

uint16_t child_select(struct ike_sa *sa, const struct ikb_proposal_list *ours,
		      const struct wire_sa *w, struct child_sa *c, uint8_t *num,
		      const char *who, uint8_t exchange)
{
	struct ikb_proposal_list *got = calloc(1, sizeof(*got));
	uint8_t nums[IKB_PROPOSALS_MAX];
	struct ikb_error err = { "" };
	void *st;
	const struct ikb_proposals_ops *ops = engine_proposals(sa->e, &st);
	struct ikb_proposal_list *mine = NULL;
	const struct wire_proposal *wp = NULL;
	struct ikb_proposal chosen;
	unsigned n = 0;
	uint16_t rc = WIRE_N_NO_PROPOSAL_CHOSEN;

	if (exchange == WIRE_EXCH_IKE_AUTH && got &&
	    (mine = malloc(sizeof(*mine)))) {
		*mine = *ours;
		for (unsigned i = 0; i < mine->n; i++)
			child_strip_ke(&mine->p[i]);
		ours = mine;
	}
	if (got && wire_sa_to_proposals(w, got, nums) > 0 &&
	    (exchange != WIRE_EXCH_IKE_AUTH || strip_all(got)) &&
	    !ops->select(st, ours, got, &chosen, &n, &err) && n &&
	    n <= got->n && (wp = wire_prop(w, nums[n - 1])) &&
	    wp->spi_size == 4 && !ike_prop_keep(&c->prop, &chosen, &err)) {
		uint32_t spi;

		memcpy(&spi, wp->spi, 4);
		*num = nums[n - 1];
		c->spi_out = ntohl(spi);
		rc = 0;
	}
	if (rc) {
		ike_sa_log(sa, IKB_LOG_WARNING, "Child SA: %s: %s", who,
			   err.msg[0] ? err.msg : "no usable ESP proposal");
		if (got)
			select_failed(sa, ours, got, exchange,
				      err.msg[0] ? err.msg :
						   "no usable ESP proposal");
	}
	free(got);
	free(mine);
	return rc;
}

/* Select one of the offered proposals: 0, or the notify to answer. */
static uint16_t select_esp(struct ike_sa *sa, const struct conn *conn,
			   const struct wire_sa *w, struct child_sa *c,
			   uint8_t *num, const char *who)
{
	struct ikb_proposal_list *ours = calloc(1, sizeof(*ours));
	struct ikb_error err = { "" };
	uint16_t rc = WIRE_N_NO_PROPOSAL_CHOSEN;

	if (ours && !conn_proposals(conn, IKB_PROTO_ESP, ours, &err))
		rc = child_select(sa, ours, w, c, num, who,
				  WIRE_EXCH_IKE_AUTH);
	else
		ike_sa_log(sa, IKB_LOG_WARNING, "Child SA: %s: %s", who,
			   err.msg[0] ? err.msg : "out of memory");
	free(ours);
	return rc;
}

/* A Child SA failure of kind in exchange, with what it said (why). */
static void child_failed(struct ike_sa *sa, enum ike_fail_kind kind,
			 uint8_t exchange, uint16_t sent, const char *why)
{
	struct ike_failure f;

	failure_from_sa(&f, sa, kind, exchange);
	f.notify_sent = sent;
	failure_detail(&f, why);
	failure_file(sa->e, &f);
}

void child_kernel_failed(struct ike_sa *sa, uint8_t exchange, uint16_t sent,
			 const char *why)
{
	child_failed(sa, IKE_FAIL_KERNEL, exchange, sent, why);
}

void child_mode_failed(struct ike_sa *sa, const char *why)
{
	child_failed(sa, IKE_FAIL_ESP_PROPOSAL, WIRE_EXCH_CREATE_CHILD_SA,
		     WIRE_N_NO_PROPOSAL_CHOSEN, why);
}

void child_ts_failed(struct ike_sa *sa, const struct conn_view *v,
		     const struct wire_ts_pld *tsi,
		     const struct wire_ts_pld *tsr, uint8_t exchange,
		     const char *why)
{
	struct ike_failure f;

	failure_from_sa(&f, sa, IKE_FAIL_TS, exchange);
	failure_ts(&f, tsi, tsr, v, true);
	f.notify_sent = WIRE_N_TS_UNACCEPTABLE;
	failure_detail(&f, why);
	failure_file(sa->e, &f);
}

void child_refused(struct ike_sa *sa, uint8_t exchange, uint16_t notify,
		   bool pfs, const char *why)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct ikb_proposal_list *ours = calloc(1, sizeof(*ours));
	struct ikb_error err = { "" };
	struct ike_failure f;
	struct conn_view v;

	failure_from_sa(&f, sa, failure_kind_of(notify, exchange), exchange);
	if (pfs && notify == WIRE_N_NO_PROPOSAL_CHOSEN)
		f.kind = IKE_FAIL_PFS_GROUP;
	f.notify_received = notify;
	failure_detail(&f, why);
	if (conn && f.kind == IKE_FAIL_TS &&
	    !conn_view_local(sa->e, conn, &v, &err)) {
		failure_ts(&f, NULL, NULL, &v, false);
		f.peer[0] = '\0';
	} else if (conn && ours &&
		   !conn_proposals(conn, IKB_PROTO_ESP, ours, &err)) {
		failure_proposals(&f, NULL, ours);
		f.peer[0] = '\0';
	}
	free(ours);
	failure_file(sa->e, &f);
}

static uint16_t respond_child(struct ike_sa *sa, const struct conn_view *v,
			      const struct wire_msg *req, struct child_sa *c,
			      uint8_t *num)
{
	const struct wire_payload *w = wire_find(req, WIRE_PT_SA);
	const struct wire_payload *tsi = wire_find(req, WIRE_PT_TSI);
	const struct wire_payload *tsr = wire_find(req, WIRE_PT_TSR);
	bool transport = wire_find_notify(req, WIRE_N_USE_TRANSPORT_MODE);
	struct ikb_error err = { "" };
	uint16_t n;

	if (!tsi || !tsr)
		return WIRE_N_TS_UNACCEPTABLE;
	if ((n = select_esp(sa, v->conn, &w->u.sa, c, num, "peer's offer")))
		return n;
	if (transport != (v->mode == IKB_MODE_TRANSPORT)) {
		snprintf(err.msg, sizeof(err.msg),
			 "peer asks for %s mode, conn has type=%s",
			 transport ? "transport" : "tunnel",
			 v->mode == IKB_MODE_TRANSPORT ? "transport" :
							 "tunnel");
		ike_sa_log(sa, IKB_LOG_WARNING, "Child SA: %s", err.msg);
		child_failed(sa, IKE_FAIL_ESP_PROPOSAL, WIRE_EXCH_IKE_AUTH,
			     WIRE_N_NO_PROPOSAL_CHOSEN, err.msg);
		return WIRE_N_NO_PROPOSAL_CHOSEN;
	}
	if (child_pick_ts(sa, v, &tsi->u.ts, &tsr->u.ts, c, &err)) {
		ike_sa_log(
			sa, IKB_LOG_WARNING,
			"Child SA: TS_UNACCEPTABLE: the peer's selectors do not meet ours %s",
			err.msg);
		child_ts_failed(sa, v, &tsi->u.ts, &tsr->u.ts,
				WIRE_EXCH_IKE_AUTH, err.msg);
		return WIRE_N_TS_UNACCEPTABLE;
	}
	unique_takeover(sa, c); /* before the SPI: it carries the reqid */
	/*
	 * What the kernel refuses is no proposal we can accept; the IKE SA
	 * stands (§2.21.2). strongSwan answers a failed install so too.
	 */
	if (child_sa_alloc_spi(sa, c, &err) || child_sa_install(sa, c, &err)) {
		ike_sa_log(sa, IKB_LOG_ERR,
			   "Child SA not installed, answering %s: %s",
			   wire_notify_name(WIRE_N_NO_PROPOSAL_CHOSEN),
			   err.msg);
		child_failed(sa, IKE_FAIL_KERNEL, WIRE_EXCH_IKE_AUTH,
			     WIRE_N_NO_PROPOSAL_CHOSEN, err.msg);
		return WIRE_N_NO_PROPOSAL_CHOSEN;
	}
	return 0;
}

void child_respond(struct ike_sa *sa, const struct conn_view *v,
		   const struct wire_msg *req, struct wire_msg *resp,
		   struct child_out *o)
{
	struct child_sa *c;
	uint8_t num = 1;
	uint16_t n;
	bool pcpu;

	if (!wire_find(req, WIRE_PT_SA))
		return; /* no Child SA asked for */
	pcpu = pcpu_respond(sa, v, req); /* before install: the policies */
	c = child_sa_new(sa, v->mode);
	n = c ? respond_child(sa, v, req, c, &num) : WIRE_N_NO_PROPOSAL_CHOSEN;
	if (n) {
		if (c)
			child_sa_free(sa, c);
		msg_notify(resp, n, NULL, 0);
		return;
	}
	child_established(sa, c, "established");
	if (c->mode == IKB_MODE_TRANSPORT)
		msg_notify(resp, WIRE_N_USE_TRANSPORT_MODE, NULL, 0);
	msg_notify(resp, WIRE_N_ESP_TFC_PADDING_NOT_SUPPORTED, NULL, 0);
	if (pcpu)
		pcpu_add_notify(resp, o->res, -1);
	o->l.n = 1;
	ike_prop_widen(&c->prop, &o->l.p[0]);
	child_add_sa(resp, o, &o->l, num, c->spi_in);
	child_add_ts(resp, o, c, false);
}

/* 0, or -errno with err saying why (also logged). */
static int accept_child(struct ike_sa *sa, const struct wire_msg *resp,
			struct child_sa *c, struct ikb_error *err)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	const struct wire_payload *w = wire_find(resp, WIRE_PT_SA);
	const struct wire_payload *tsi = wire_find(resp, WIRE_PT_TSI);
	const struct wire_payload *tsr = wire_find(resp, WIRE_PT_TSR);
	bool transport = wire_find_notify(resp, WIRE_N_USE_TRANSPORT_MODE);
	struct ikb_selector got;
	uint8_t num;
	int rc = -EBADMSG;

	if (!conn || !w || !tsi || !tsr || w->u.sa.n_prop != 1)
		snprintf(err->msg, sizeof(err->msg),
			 "response lacks SA, TSi or TSr");
	else if (select_esp(sa, conn, &w->u.sa, c, &num, "responder's choice"))
		snprintf(err->msg, sizeof(err->msg),
			 "the responder chose no ESP proposal of ours");
	else if (transport != (c->mode == IKB_MODE_TRANSPORT))
		snprintf(err->msg, sizeof(err->msg),
			 "responder did not agree to %s mode",
			 c->mode == IKB_MODE_TRANSPORT ? "transport" :
							 "tunnel");
	else if (child_check_ts(sa, c, &tsi->u.ts, &tsr->u.ts, &got))
		snprintf(err->msg, sizeof(err->msg),
			 "responder's TS are not within ours");
	else
		rc = 0;
	if (rc) {
		ike_sa_log(sa, IKB_LOG_WARNING, "Child SA: %s", err->msg);
		return rc;
	}
	c->ts = got;
	unique_takeover(sa, c); /* a crossed IKE SA's policies */
	/* child_sa_install() took back whatever it had installed */
	rc = child_sa_install(sa, c, err);
	if (rc) {
		ike_sa_log(
			sa, IKB_LOG_ERR,
			"Child SA not installed, deleting it at the peer: %s",
			err->msg);
		child_failed(sa, IKE_FAIL_KERNEL, WIRE_EXCH_IKE_AUTH, 0,
			     err->msg);
	}
	return rc;
}

void child_accept(struct ike_sa *sa, struct child_sa *c,
		  const struct wire_msg *resp)
{
	const struct wire_payload *p = wire_first_error(resp);
	struct ikb_error err = { "" };
	char why[sizeof(err.msg) + 64];
	int rc;

	if (!c)
		return;
	if (p) {
		snprintf(why, sizeof(why), "Child SA refused by the peer: %s",
			 wire_notify_name(p->u.notify.type) ?: "error");
		ike_sa_log(sa, IKB_LOG_WARNING, "%s; the IKE SA stays up", why);
		child_refused(sa, WIRE_EXCH_IKE_AUTH, p->u.notify.type, false,
			      why);
		child_sa_free(sa, c);
		engine_outcome(sa, -ECONNREFUSED, why, NULL);
		return;
	}
	pcpu_accept(sa, resp); /* before install: the policies */
	if ((rc = accept_child(sa, resp, c, &err))) {
		child_keep_failed(sa, c); /* not even our larval SPI stays */
		snprintf(why, sizeof(why), "Child SA not established: %s",
			 err.msg);
		engine_outcome(sa, rc, why, NULL);
		return;
	}
	child_established(sa, c, "established");
	engine_outcome(sa, 0, NULL, c);
}

void child_keep_failed(struct ike_sa *sa, struct child_sa *c)
{
	child_sa_uninstall(sa, c);
	c->ike = sa;
	c->next = sa->children;
	sa->children = c;
	child_set_state(sa, c, CHILD_FAILED);
	task_want_child(sa, c, TASK_DELETE_CHILD);
}

void child_established(struct ike_sa *sa, struct child_sa *c, const char *how)
{
	char cpu[48] = "";

	if (c->cpu >= 0)
		snprintf(cpu, sizeof(cpu), ", per-CPU SA for CPU %d", c->cpu);
	else if (sa->pcpu_on)
		snprintf(cpu, sizeof(cpu), ", the per-CPU fallback");
	c->ike = sa;
	c->next = sa->children;
	sa->children = c;
	if (c->state == CHILD_NEGOTIATING)
		child_set_state(sa, c, CHILD_INSTALLED);
	child_timer_arm(sa, c);
	sa->e->stats.child_rekeys += c->rekey_of != 0;
	ike_sa_log(sa, IKB_LOG_NOTICE,
		   "Child SA %s: reqid %u, SPIs in %08x out %08x%s%s", how,
		   c->reqid, c->spi_in, c->spi_out, cpu,
		   c->state == CHILD_INBOUND_ONLY ?
			   " (outbound once the old one is deleted)" :
			   "");
	events_child_up(sa, c);
}
