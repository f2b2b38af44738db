// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CREATE_CHILD_SA for Child SAs, responder (RFC 7296 §1.3.1, §2.8): the
 * peer's new Child SA or its rekey of one. The checks and choices run at
 * once; with PFS the key exchange then runs on the helper pool (kex.c)
 * and the Child SA is installed and answered when it is done. Until then
 * a retransmit of the request is dropped: no answer is cached yet, and
 * the window (one request) keeps the peer from sending another.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/child/child.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/path/path.h"
#include "ike/exchange/exchange.h"
#include "ike/msg/msg.h"
#include "ike/exchange/task.h"

/* The request, from its checks to the answer (across the key exchange). */
struct ccs_req {
	const struct wire_payload *sa, *ni, *ke, *tsi, *tsr; /* 1st half */
	const struct wire_notify *rekey; /* 1st half */
	struct child_sa *c;
	uint32_t old_spi; /* the old Child SA's outbound SPI; 0: none */
	struct ke *ke_ours;
	struct secret gir;
	uint32_t msgid;
	uint8_t num;
	uint16_t group; /* chosen with PFS, 0: none */
	uint16_t want_group; /* INVALID_KE_PAYLOAD */
	bool pcpu; /* answer with SA_RESOURCE_INFO */
	uint8_t peer_ni[256]; /* its nonce, which outlives the message */
	size_t peer_ni_len;
	uint8_t nr[IKE_SA_NONCE_LEN];
};

static void req_free(struct ccs_req *r)
{
	ke_free(r->ke_ours);
	secret_free(&r->gir);
	secret_wipe(r, sizeof(*r));
	free(r);
}

static struct child_sa *old_of(struct ike_sa *sa, const struct ccs_req *r)
{
	return r->old_spi ? child_by_spi_out(sa, r->old_spi) : NULL;
}

static uint16_t negotiate(struct ike_sa *sa, const struct conn_view *v,
			  const struct wire_msg *m, struct ccs_req *r,
			  struct ikb_error *err)
{
	bool transport = wire_find_notify(m, WIRE_N_USE_TRANSPORT_MODE);
	struct child_sa *old = old_of(sa, r);
	enum ikb_mode mode = old ? old->mode : v->mode;
	struct ikb_proposal_list *ours = calloc(1, sizeof(*ours));
	const struct ikb_transform *kx;
	uint16_t group, n;

	if (!ours)
		return WIRE_N_TEMPORARY_FAILURE;
	if (transport != (mode == IKB_MODE_TRANSPORT)) {
		snprintf(err->msg, sizeof(err->msg),
			 "peer asks for the other mode than type=");
		n = WIRE_N_NO_PROPOSAL_CHOSEN;
		child_mode_failed(sa, err->msg);
	} else if (!(r->c = child_sa_new(sa, mode))) {
		n = WIRE_N_TEMPORARY_FAILURE;
	} else if (child_pfs_list(sa, v->conn, ours, &group, err)) {
		n = WIRE_N_NO_PROPOSAL_CHOSEN;
	} else {
		n = child_select(sa, ours, &r->sa->u.sa, r->c, &r->num,
				 "peer's offer", WIRE_EXCH_CREATE_CHILD_SA);
	}
	free(ours);
	kx = n ? NULL : ike_prop_xf(&r->c->prop, IKB_XF_KE);
	if (!kx || !kx->id)
		return n;
	if (!r->ke || r->ke->u.ke.group != kx->id) {
		r->want_group = kx->id;
		snprintf(err->msg, sizeof(err->msg),
			 "KE group %u sent, %u chosen",
			 r->ke ? r->ke->u.ke.group : 0, kx->id);
		return WIRE_N_INVALID_KE_PAYLOAD;
	}
	r->group = kx->id; /* the key exchange comes next */
	return 0;
}

static uint16_t select_ts(struct ike_sa *sa, const struct conn_view *v,
			  struct ccs_req *r, struct ikb_error *err)
{
	struct child_sa *c = r->c, *old = old_of(sa, r);
	int rc;

	if (old) {
		c->reqid = old->reqid;
		c->cpu = old->cpu;
		c->rekey_of = old->spi_in;
		rc = child_copy_tsx(c, old, err);
		if (!rc && c->tsx)
			rc = ts_set_select(old->tsx, &old->ts, &r->tsr->u.ts,
					   &r->tsi->u.ts, false, c->tsx,
					   &c->ts);
		else if (!rc)
			rc = nat_ts_select(sa, old->mode, &old->ts,
					   &r->tsr->u.ts, &r->tsi->u.ts, false,
					   true, &c->ts);
	} else {
		rc = child_pick_ts(sa, v, &r->tsi->u.ts, &r->tsr->u.ts, c, err);
	}
	if (rc && !err->msg[0])
		snprintf(err->msg, sizeof(err->msg),
			 "the peer's selectors do not meet ours");
	if (rc)
		child_ts_failed(sa, v, &r->tsi->u.ts, &r->tsr->u.ts,
				WIRE_EXCH_CREATE_CHILD_SA, err->msg);
	return rc ? WIRE_N_TS_UNACCEPTABLE : 0;
}

/* Inbound first; a successor's outbound waits for the old's Delete. */
static uint16_t install(struct ike_sa *sa, struct ccs_req *r,
			struct ikb_error *err)
{
	struct child_sa *c = r->c;
	bool rekey = r->old_spi != 0;
	struct child_keyin kin;
	int rc = rng_bytes(r->nr, sizeof(r->nr), NULL);

	c->peer_created = true;
	if (!rc && child_set_nonces(c, r->peer_ni, r->peer_ni_len, r->nr,
				    sizeof(r->nr))) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		rc = -ENOMEM;
	}
	kin = (struct child_keyin){
		secret_view(&r->gir),
		CBYTES(r->peer_ni, r->peer_ni_len),
		CBYTES(r->nr, sizeof(r->nr)),
		false,
	};
	if (!rc)
		rc = child_sa_alloc_spi(sa, c, err);
	if (!rc)
		rc = child_sa_prepare(sa, c, &kin, err);
	if (!rc)
		rc = child_sa_add_in(sa, c, err);
	if (!rc && rekey)
		child_set_state(sa, c, CHILD_INBOUND_ONLY);
	if (!rc && !rekey)
		rc = child_sa_add_out(sa, c, err);
	if (!rc && !rekey && !child_shares_policies(sa, c))
		rc = child_sa_add_policies(sa, c, err);
	if (rc) {
		ike_sa_log(sa, IKB_LOG_ERR,
			   "Child SA not installed, answering %s: %s",
			   wire_notify_name(WIRE_N_NO_PROPOSAL_CHOSEN),
			   err->msg);
		child_kernel_failed(sa, WIRE_EXCH_CREATE_CHILD_SA,
				    WIRE_N_NO_PROPOSAL_CHOSEN, err->msg);
		err->msg[0] = '\0'; /* logged */
	}
	return rc ? WIRE_N_NO_PROPOSAL_CHOSEN : 0;
}

static uint16_t check_request(struct ike_sa *sa, const struct wire_msg *m,
			      struct ccs_req *r, struct ikb_error *err)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct child_sa *old;
	struct conn_view v;
	uint16_t n;

	r->sa = wire_find(m, WIRE_PT_SA);
	r->ni = wire_find(m, WIRE_PT_NONCE);
	r->ke = wire_find(m, WIRE_PT_KE);
	r->tsi = wire_find(m, WIRE_PT_TSI);
	r->tsr = wire_find(m, WIRE_PT_TSR);
	r->rekey = wire_find_notify(m, WIRE_N_REKEY_SA);
	if (!conn || conn_view_local(sa->e, conn, &v, err))
		return WIRE_N_NO_PROPOSAL_CHOSEN;
	/* SA, Nonce, TSi and TSr are there: expect.c */
	if (r->ni->u.nonce.len < 16 || r->ni->u.nonce.len > 256)
		return WIRE_N_INVALID_SYNTAX;
	if ((n = child_rekey_old(sa, r->rekey, &old)))
		return n;
	r->old_spi = old ? old->spi_out : 0;
	n = negotiate(sa, &v, m, r, err);
	if (!n)
		n = select_ts(sa, &v, r, err);
	if (!n && !old)
		n = pcpu_assign(sa, &v, m, r->c, &r->pcpu);
	if (!n) {
		memcpy(r->peer_ni, r->ni->u.nonce.data, r->ni->u.nonce.len);
		r->peer_ni_len = r->ni->u.nonce.len;
	}
	return n;
}

static void answer(struct ike_sa *sa, struct ccs_req *r, struct ccs_out *o)
{
	struct child_sa *c = r->c;

	if (c->mode == IKB_MODE_TRANSPORT)
		msg_notify(&o->m, WIRE_N_USE_TRANSPORT_MODE, NULL, 0);
	msg_notify(&o->m, WIRE_N_ESP_TFC_PADDING_NOT_SUPPORTED, NULL, 0);
	if (r->pcpu)
		pcpu_add_notify(&o->m, o->res, c->cpu);
	o->child.l.n = 1;
	ike_prop_widen(&c->prop, &o->child.l.p[0]);
	child_add_sa(&o->m, &o->child, &o->child.l, r->num, c->spi_in);
	memcpy(o->nonce, r->nr, sizeof(o->nonce));
	msg_add_nonce_ke(&o->m, o->nonce, r->ke_ours);
	child_add_ts(&o->m, &o->child, c, false);
	msg_respond_sk(sa, &o->m, WIRE_EXCH_CREATE_CHILD_SA, r->msgid);
}

/* The Child SA is installed and answered (n 0), or n is refused. */
static void reply(struct ike_sa *sa, struct ccs_req *r, uint16_t n,
		  const struct ikb_error *err)
{
	struct ccs_out *o = ccs_out_new();

	if (n && err->msg[0])
		ike_sa_log(sa, IKB_LOG_WARNING, "CREATE_CHILD_SA: %s: %s",
			   wire_notify_name(n) ?: "refused", err->msg);
	if (!o) {
		ike_sa_log(sa, IKB_LOG_ERR,
			   "CREATE_CHILD_SA: out of memory, no answer");
		n = n ? n : WIRE_N_TEMPORARY_FAILURE;
	} else if (n) {
		if (n == WIRE_N_INVALID_KE_PAYLOAD) {
			o->group[0] = (uint8_t)(r->want_group >> 8);
			o->group[1] = (uint8_t)r->want_group;
		}
		msg_notify(&o->m, n, o->group,
			   n == WIRE_N_INVALID_KE_PAYLOAD ? 2 : 0);
		msg_respond_sk(sa, &o->m, WIRE_EXCH_CREATE_CHILD_SA, r->msgid);
	} else {
		answer(sa, r, o);
	}
	if (n && r->c)
		child_sa_free(sa, r->c);
	else if (r->c)
		child_established(sa, r->c,
				  r->old_spi ? "rekeyed" : "established");
	ccs_out_free(o);
	req_free(r);
}

/* On the loop, the key exchange done: install, answer. */
static void keyed(struct ike_sa *sa, void *arg, struct kex_result *res)
{
	struct ccs_req *r = arg;
	struct ikb_error err = { "" };
	uint16_t n = WIRE_N_NO_PROPOSAL_CHOSEN;

	if (!sa) { /* nothing of c is in the kernel yet */
		if (r->c)
			child_sa_drop(r->c);
		req_free(r);
		return;
	}
	if (res->rc) {
		snprintf(err.msg, sizeof(err.msg), "%s", res->why);
	} else if (r->old_spi && !old_of(sa, r)) {
		snprintf(err.msg, sizeof(err.msg),
			 "the Child SA it rekeys went meanwhile");
		n = WIRE_N_CHILD_SA_NOT_FOUND;
	} else {
		r->ke_ours = res->ke;
		r->gir = res->gir;
		res->ke = NULL;
		res->gir = (struct secret){ 0 };
		n = install(sa, r, &err);
	}
	reply(sa, r, n, &err);
	tasks_schedule(sa); /* tasks wait while a key exchange runs */
}

void create_child_request(struct ike_sa *sa, struct msg_in *in, uint32_t msgid)
{
	const struct wire_msg *m = in->m;
	struct ccs_req *r = calloc(1, sizeof(*r));
	struct ikb_error err = { "" };
	uint16_t n;

	if (!r) {
		ike_sa_log(sa, IKB_LOG_ERR,
			   "CREATE_CHILD_SA: out of memory, no answer");
		return;
	}
	r->msgid = msgid;
	n = check_request(sa, m, r, &err);
	if (!n && r->group) {
		/* PFS: the rest when the key exchange is done */
		if (!kex_start(sa, r->group, NULL, &r->ke->u.ke, keyed, r,
			       &err))
			return;
		n = WIRE_N_NO_PROPOSAL_CHOSEN;
	} else if (!n) {
		n = install(sa, r, &err);
	}
	reply(sa, r, n, &err);
}
