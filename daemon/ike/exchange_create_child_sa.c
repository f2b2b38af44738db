// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CREATE_CHILD_SA for Child SAs (RFC 7296 §1.3.1, §1.3.3), both roles:
 * the plan's further Child SAs after IKE_AUTH, and rekeying (§2.8) with
 * make-before-break. Inbound SAs go in first on both sides; the
 * initiator adds its new outbound SA when the response arrives (the
 * responder can receive on it by then); the responder adds its outbound
 * SA only when the old Child SA is deleted, so that it never sends on a
 * pair the initiator has not installed. A simultaneous rekey (§2.8.1)
 * leaves both new pairs up until the one whose exchange had the lowest
 * nonce is deleted by its initiator. Around it: child_pfs.c has the PFS
 * rule, child_rekey.c what only a rekey does, dispatch.c tells the uses
 * of CREATE_CHILD_SA apart, msg.c sends the requests and responses, and
 * the IKE SA rekey lives in rekey_ike.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/child_sa.h"
#include "ike/engine.h"
#include "ike/conn.h"
#include "ike/msg.h"
#include "ike/exchange.h"
#include "ike/timers.h"
#include "ike/tasks.h"
#include "ike/ts.h"

struct ccs_out {
	struct wire_msg m;
	struct child_out child;
	uint8_t nonce[IKE_SA_NONCE_LEN];
	uint8_t group[2];
	uint8_t res[4]; /* SA_RESOURCE_INFO's Resource Identifier */
};

static struct ccs_out *ccs_out_new(void)
{
	struct ccs_out *o = calloc(1, sizeof(*o));

	if (o && child_out_init(&o->child)) {
		free(o);
		return NULL;
	}
	return o;
}

static void ccs_out_free(struct ccs_out *o)
{
	if (!o)
		return;
	child_out_fini(&o->child);
	free(o);
}

static void add_nonce_ke(struct wire_msg *m, const uint8_t *nonce,
			 const struct ke *ke)
{
	struct wire_payload *p = msg_add(m, WIRE_PT_NONCE);

	p->u.nonce = (struct wire_opaque){ nonce, IKE_SA_NONCE_LEN };
	if (ke) {
		struct cbytes pub = ke_public(ke);

		p = msg_add(m, WIRE_PT_KE);
		p->u.ke = (struct wire_ke){ ke_group(ke), pub.ptr, pub.len };
	}
}

/* Initiator ------------------------------------------------------------ */

static int child_for(struct ike_sa *sa, const struct conn_view *v,
		     struct child_sa *old, struct child_sa *c,
		     struct ikb_error *err)
{
	const struct conn_plan *plan;
	struct child_sa *fb;
	int rc;

	if (old) {
		c->reqid = old->reqid;
		c->ts = old->ts;
		c->cpu = old->cpu;
		c->rekey_of = old->spi_in;
		return 0;
	}
	if (sa->x->cpu >= 0)
		return pcpu_acquired_child(sa, c, sa->x->cpu, err);
	rc = conn_plan(v, &plan, err);
	if (rc)
		return rc;
	if (sa->plan_next < plan->n) {
		c->ts = plan->c[sa->plan_next].ts;
		c->cpu = plan->c[sa->plan_next].cpu;
	} else {
		rc = -ENOENT;
	}
	/* a clone goes where the fallback's policies send: its reqid */
	fb = !rc && c->cpu >= 0 ? pcpu_fallback(sa, &c->ts) : NULL;
	if (fb)
		c->reqid = fb->reqid;
	return rc;
}

static int build_request(struct ike_sa *sa, struct ccs_out *o,
			 struct child_sa *c, const struct child_sa *old)
{
	int rc;

	if (old)
		child_rekey_notify(&o->m, old->spi_in);
	if (c->mode == IKB_MODE_TRANSPORT)
		msg_notify(&o->m, WIRE_N_USE_TRANSPORT_MODE, NULL, 0);
	msg_notify(&o->m, WIRE_N_ESP_TFC_PADDING_NOT_SUPPORTED, NULL, 0);
	if (!old && c->cpu >= 0)
		pcpu_add_notify(&o->m, o->res, c->cpu);
	rc = child_add_sa(&o->m, &o->child, &o->child.l, 1, c->spi_in);
	add_nonce_ke(&o->m, sa->x->nonce, sa->x->ke);
	child_add_ts(&o->m, &o->child, &c->ts, true);
	return rc;
}

int create_child_start(struct ike_sa *sa, struct child_sa *old, int32_t cpu)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct exchange *x =
		exchange_new(sa, old ? OUT_REKEY_CHILD : OUT_CHILD);
	struct ccs_out *o = x ? ccs_out_new() : NULL;
	struct ikb_error err = { "" };
	struct child_sa *c = NULL;
	struct conn_view v;
	uint16_t group = 0;
	int rc = o && conn ? 0 : -ENOMEM;

	if (x)
		x->cpu = cpu;
	if (!rc)
		rc = conn_view_local(sa->e, conn, &v, &err);
	if (!rc && !(c = child_sa_new(sa, old ? old->mode : v.mode)))
		rc = -ENOMEM;
	if (!rc)
		x->child = c;
	if (!rc)
		rc = child_for(sa, &v, old, c, &err);
	if (!rc)
		rc = child_pfs_list(sa, conn, &o->child.l, &group, &err);
	if (!rc)
		rc = child_sa_alloc_spi(sa, c, &err);
	if (!rc)
		rc = msg_nonce(sa);
	if (!rc && group)
		rc = kex_pair(&x->ke, group, &err);
	if (!rc)
		rc = build_request(sa, o, c, old);
	if (!rc)
		rc = msg_request_sk(sa, &o->m, WIRE_EXCH_CREATE_CHILD_SA);
	if (rc) {
		ike_sa_log(sa, IKB_LOG_ERR, "CREATE_CHILD_SA: %s",
			   err.msg[0] ? err.msg : "cannot build the request");
		exchange_end(sa); /* c with it */
	} else {
		x->spi = old ? old->spi_in : 0;
		if (old)
			ike_sa_log(sa, IKB_LOG_INFO,
				   "CREATE_CHILD_SA: rekeying Child SA %08x%s",
				   old->spi_in, group ? " (PFS)" : "");
		else
			ike_sa_log(sa, IKB_LOG_INFO,
				   "CREATE_CHILD_SA: Child SA of the plan%s",
				   group ? " (PFS)" : "");
	}
	ccs_out_free(o);
	return rc;
}

/* The responder's choice: installs c's in and out SAs. */
static int accept_ccs(struct ike_sa *sa, const struct wire_msg *m,
		      struct child_sa *c, const struct child_sa *old)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	const struct wire_payload *w = wire_find(m, WIRE_PT_SA);
	const struct wire_payload *nr = wire_find(m, WIRE_PT_NONCE);
	const struct wire_payload *ke = wire_find(m, WIRE_PT_KE);
	const struct wire_payload *tsi = wire_find(m, WIRE_PT_TSI);
	const struct wire_payload *tsr = wire_find(m, WIRE_PT_TSR);
	bool transport = wire_find_notify(m, WIRE_N_USE_TRANSPORT_MODE);
	struct ikb_proposal_list *ours = calloc(1, sizeof(*ours));
	struct ikb_error err = { "" };
	struct secret gir = { 0 };
	struct child_keyin kin;
	const struct ikb_transform *kx;
	struct ikb_selector got;
	uint16_t group;
	uint8_t num;
	int rc = -EBADMSG;
	bool kernel;

	if (!ours || !conn || !w || !nr || !tsi || !tsr ||
	    w->u.sa.n_prop != 1 || nr->u.nonce.len < 16 ||
	    nr->u.nonce.len > 256)
		snprintf(err.msg, sizeof(err.msg),
			 "response lacks SA, Nonce, TSi or TSr");
	else if (child_pfs_list(sa, conn, ours, &group, &err) ||
		 child_select(sa, ours, &w->u.sa, c, &num,
			      "responder's choice"))
		snprintf(err.msg, sizeof(err.msg),
			 "the responder chose a proposal we did not offer");
	else if (transport != (c->mode == IKB_MODE_TRANSPORT))
		snprintf(err.msg, sizeof(err.msg),
			 "the responder did not agree to the mode");
	else if (ts_select(&c->ts, &tsi->u.ts, &tsr->u.ts, true, &got))
		snprintf(err.msg, sizeof(err.msg),
			 "the responder's TS are not within ours");
	else
		rc = 0;
	kx = rc ? NULL : prop_xf(&c->prop, IKB_XF_KE);
	if (kx && kx->id)
		rc = kex_gir(sa->x->ke, ke ? &ke->u.ke : NULL, &gir, &err);
	if (!rc) {
		c->ts = got;
		child_set_nonces(c, sa->x->nonce, IKE_SA_NONCE_LEN,
				 nr->u.nonce.data, nr->u.nonce.len);
		kin = (struct child_keyin){
			secret_view(&gir),
			CBYTES(sa->x->nonce, IKE_SA_NONCE_LEN),
			CBYTES(nr->u.nonce.data, nr->u.nonce.len),
		};
		rc = child_sa_prepare(sa, c, &kin, &err);
	}
	/* make-before-break: in, then out; a successor keeps old's policies */
	kernel = !rc;
	if (!rc)
		rc = child_sa_add_in(sa, c, &err);
	if (!rc)
		rc = child_sa_add_out(sa, c, &err);
	if (!rc && !old && !child_shares_policies(sa, c))
		rc = child_sa_add_policies(sa, c, &err);
	if (rc && kernel)
		ike_sa_log(
			sa, IKB_LOG_ERR,
			"CREATE_CHILD_SA: Child SA not installed, deleting it at the peer: %s",
			err.msg);
	else if (rc)
		ike_sa_log(sa, IKB_LOG_WARNING, "CREATE_CHILD_SA: %s", err.msg);
	secret_free(&gir);
	free(ours);
	return rc;
}

static const struct wire_payload *first_error(const struct wire_msg *m)
{
	const struct wire_payload *p = NULL;

	while ((p = wire_next_notify(m, p)))
		if (wire_notify_is_error(p->u.notify.type))
			return p;
	return NULL;
}

/* The peer refused; true when the same exchange is to be tried again. */
static bool refused(struct ike_sa *sa, const struct wire_notify *n,
		    struct child_sa *old)
{
	const char *name = wire_notify_name(n->type) ?: "an error";

	if (ke_retry(&sa->child_ke, n, sa->x->ke ? ke_group(sa->x->ke) : 0,
		     NULL)) {
		ike_sa_log(sa, IKB_LOG_INFO,
			   "CREATE_CHILD_SA: peer wants KE group %u: again",
			   sa->child_ke.group);
		if (old)
			old->want_rekey = true;
		return true;
	}
	if (old && child_rekey_refused(sa, n, old))
		return false;
	ike_sa_log(sa, IKB_LOG_WARNING,
		   "Child SA refused by the peer: %s; the IKE SA stays up",
		   name);
	return false;
}

void create_child_response(struct ike_sa *sa, const struct wire_msg *m,
			   bool rekey)
{
	struct child_sa *c = exchange_take_child(sa), *old = NULL;
	const struct wire_payload *n = first_error(m);
	bool again = false;

	if (rekey)
		old = child_by_spi_in(sa, sa->x->spi);
	if (!c)
		return;
	if (n) {
		if (old || !pcpu_max_queue(sa, c, n->u.notify.type))
			again = refused(sa, &n->u.notify, old);
		child_sa_free(sa, c);
	} else if (accept_ccs(sa, m, c, old)) {
		/*
		 * The peer installed its half: delete it there. Ours leaves
		 * the kernel now, whatever part of it got in; old stays.
		 */
		child_sa_uninstall(sa, c);
		c->ike = sa;
		c->next = sa->children;
		sa->children = c;
		child_set_state(sa, c, CHILD_FAILED);
		c->want_delete = true;
	} else {
		child_established(sa, c, old ? "rekeyed" : "established");
		if (old)
			child_rekey_resolve(sa, c, old);
	}
	if (!rekey && !again && sa->x->cpu < 0)
		sa->plan_next++;
}

/* Responder ------------------------------------------------------------ */

struct ccs_req {
	const struct wire_payload *sa, *ni, *ke, *tsi, *tsr;
	const struct wire_notify *rekey;
	struct child_sa *c, *old;
	struct ke *ke_ours;
	struct secret gir;
	uint8_t num;
	uint16_t want_group; /* INVALID_KE_PAYLOAD */
	bool pcpu; /* answer with SA_RESOURCE_INFO */
	uint8_t nr[IKE_SA_NONCE_LEN];
};

static uint16_t negotiate(struct ike_sa *sa, const struct conn_view *v,
			  const struct wire_msg *m, struct ccs_req *r,
			  struct ikb_error *err)
{
	bool transport = wire_find_notify(m, WIRE_N_USE_TRANSPORT_MODE);
	enum ikb_mode mode = r->old ? r->old->mode : v->mode;
	struct ikb_proposal_list *ours = calloc(1, sizeof(*ours));
	const struct ikb_transform *kx;
	uint16_t group, n;

	if (!ours)
		return WIRE_N_TEMPORARY_FAILURE;
	if (transport != (mode == IKB_MODE_TRANSPORT)) {
		snprintf(err->msg, sizeof(err->msg),
			 "peer asks for the other mode than type=");
		n = WIRE_N_NO_PROPOSAL_CHOSEN;
	} else if (!(r->c = child_sa_new(sa, mode))) {
		n = WIRE_N_TEMPORARY_FAILURE;
	} else if (child_pfs_list(sa, v->conn, ours, &group, err)) {
		n = WIRE_N_NO_PROPOSAL_CHOSEN;
	} else {
		n = child_select(sa, ours, &r->sa->u.sa, r->c, &r->num,
				 "peer's offer");
	}
	free(ours);
	kx = n ? NULL : prop_xf(&r->c->prop, IKB_XF_KE);
	if (!kx || !kx->id)
		return n;
	if (!r->ke || r->ke->u.ke.group != kx->id) {
		r->want_group = kx->id;
		snprintf(err->msg, sizeof(err->msg),
			 "KE group %u sent, %u chosen",
			 r->ke ? r->ke->u.ke.group : 0, kx->id);
		return WIRE_N_INVALID_KE_PAYLOAD;
	}
	if (kex_pair(&r->ke_ours, kx->id, err) ||
	    kex_gir(r->ke_ours, &r->ke->u.ke, &r->gir, err))
		return WIRE_N_NO_PROPOSAL_CHOSEN;
	return 0;
}

static uint16_t select_ts(struct ike_sa *sa, const struct conn_view *v,
			  struct ccs_req *r, struct ikb_error *err)
{
	struct child_sa *c = r->c;
	int rc;

	if (r->old) {
		c->reqid = r->old->reqid;
		c->cpu = r->old->cpu;
		c->rekey_of = r->old->spi_in;
		rc = ts_select(&r->old->ts, &r->tsr->u.ts, &r->tsi->u.ts, false,
			       &c->ts);
	} else {
		rc = child_pick_ts(sa, v, &r->tsi->u.ts, &r->tsr->u.ts, &c->ts,
				   err);
	}
	if (rc && !err->msg[0])
		snprintf(err->msg, sizeof(err->msg),
			 "the peer's selectors do not meet ours");
	return rc ? WIRE_N_TS_UNACCEPTABLE : 0;
}

/* Inbound first; a successor's outbound waits for the old's Delete. */
static uint16_t install(struct ike_sa *sa, struct ccs_req *r,
			struct ikb_error *err)
{
	struct child_sa *c = r->c;
	struct child_keyin kin;
	int rc = rng_bytes(r->nr, sizeof(r->nr), NULL);

	c->peer_created = true;
	child_set_nonces(c, r->ni->u.nonce.data, r->ni->u.nonce.len, r->nr,
			 sizeof(r->nr));
	kin = (struct child_keyin){
		secret_view(&r->gir),
		CBYTES(r->ni->u.nonce.data, r->ni->u.nonce.len),
		CBYTES(r->nr, sizeof(r->nr)),
	};
	if (!rc)
		rc = child_sa_alloc_spi(sa, c, err);
	if (!rc)
		rc = child_sa_prepare(sa, c, &kin, err);
	if (!rc)
		rc = child_sa_add_in(sa, c, err);
	if (!rc && r->old)
		child_set_state(sa, c, CHILD_INBOUND_ONLY);
	if (!rc && !r->old)
		rc = child_sa_add_out(sa, c, err);
	if (!rc && !r->old && !child_shares_policies(sa, c))
		rc = child_sa_add_policies(sa, c, err);
	if (rc) {
		ike_sa_log(sa, IKB_LOG_ERR,
			   "Child SA not installed, answering %s: %s",
			   wire_notify_name(WIRE_N_NO_PROPOSAL_CHOSEN),
			   err->msg);
		err->msg[0] = '\0'; /* logged */
	}
	return rc ? WIRE_N_NO_PROPOSAL_CHOSEN : 0;
}

static uint16_t respond_child(struct ike_sa *sa, const struct wire_msg *m,
			      struct ccs_req *r)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct ikb_error err = { "" };
	struct conn_view v;
	uint16_t n;

	r->sa = wire_find(m, WIRE_PT_SA);
	r->ni = wire_find(m, WIRE_PT_NONCE);
	r->ke = wire_find(m, WIRE_PT_KE);
	r->tsi = wire_find(m, WIRE_PT_TSI);
	r->tsr = wire_find(m, WIRE_PT_TSR);
	r->rekey = wire_find_notify(m, WIRE_N_REKEY_SA);
	if (!conn || conn_view_local(sa->e, conn, &v, &err))
		return WIRE_N_NO_PROPOSAL_CHOSEN;
	if (!r->sa || !r->ni || r->ni->u.nonce.len < 16 ||
	    r->ni->u.nonce.len > 256)
		return WIRE_N_INVALID_SYNTAX;
	if (!r->tsi || !r->tsr)
		return WIRE_N_TS_UNACCEPTABLE;
	if ((n = child_rekey_old(sa, r->rekey, &r->old)))
		return n;
	n = negotiate(sa, &v, m, r, &err);
	if (!n)
		n = select_ts(sa, &v, r, &err);
	if (!n && !r->old)
		n = pcpu_assign(sa, &v, m, r->c, &r->pcpu);
	if (!n)
		n = install(sa, r, &err);
	if (n && err.msg[0])
		ike_sa_log(sa, IKB_LOG_WARNING, "CREATE_CHILD_SA: %s: %s",
			   wire_notify_name(n) ?: "refused", err.msg);
	return n;
}

static void answer(struct ike_sa *sa, struct ccs_req *r, struct ccs_out *o,
		   uint32_t msgid)
{
	struct child_sa *c = r->c;

	if (c->mode == IKB_MODE_TRANSPORT)
		msg_notify(&o->m, WIRE_N_USE_TRANSPORT_MODE, NULL, 0);
	msg_notify(&o->m, WIRE_N_ESP_TFC_PADDING_NOT_SUPPORTED, NULL, 0);
	if (r->pcpu)
		pcpu_add_notify(&o->m, o->res, c->cpu);
	o->child.l.n = 1;
	o->child.l.p[0] = c->prop;
	child_add_sa(&o->m, &o->child, &o->child.l, r->num, c->spi_in);
	memcpy(o->nonce, r->nr, sizeof(o->nonce));
	add_nonce_ke(&o->m, o->nonce, r->ke_ours);
	child_add_ts(&o->m, &o->child, &c->ts, false);
	msg_respond_sk(sa, &o->m, WIRE_EXCH_CREATE_CHILD_SA, msgid);
}

void create_child_request(struct ike_sa *sa, const struct wire_msg *m,
			  uint32_t msgid)
{
	struct ccs_out *o = ccs_out_new();
	struct ccs_req *r = o ? calloc(1, sizeof(*r)) : NULL;
	uint16_t n = r ? respond_child(sa, m, r) : WIRE_N_TEMPORARY_FAILURE;

	if (!o) {
		ike_sa_log(sa, IKB_LOG_ERR,
			   "CREATE_CHILD_SA: out of memory, no answer");
		return;
	}

	if (n) {
		if (n == WIRE_N_INVALID_KE_PAYLOAD) {
			o->group[0] = (uint8_t)(r->want_group >> 8);
			o->group[1] = (uint8_t)r->want_group;
		}
		msg_notify(&o->m, n, o->group,
			   n == WIRE_N_INVALID_KE_PAYLOAD ? 2 : 0);
		msg_respond_sk(sa, &o->m, WIRE_EXCH_CREATE_CHILD_SA, msgid);
		if (r && r->c)
			child_sa_free(sa, r->c);
	} else {
		answer(sa, r, o, msgid);
		child_established(sa, r->c, r->old ? "rekeyed" : "established");
	}
	if (r) {
		ke_free(r->ke_ours);
		secret_free(&r->gir);
		secret_wipe(r, sizeof(*r));
	}
	free(r);
	ccs_out_free(o);
}
