// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rekeying the IKE SA (RFC 7296 §1.3.2, §2.18): a CREATE_CHILD_SA with an
 * IKE proposal carrying the new SPI, a nonce and a KE. The new SA's
 * SKEYSEED comes from the old SK_d, its message ids start at 0, the
 * Child SAs move over, and the rekey's initiator deletes the old IKE SA.
 * A simultaneous IKE SA rekey is answered TEMPORARY_FAILURE, and the
 * side that got it tries again 1..2 s later (the fuzz of rekeymargin
 * makes that rare); the §2.8.1 tie-break is done for Child SAs only.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>

#include "crypto/crypto.h"
#include "ike/child_sa.h"
#include "ike/engine.h"
#include "ike/events.h"
#include "ike/conn.h"
#include "ike/msg.h"
#include "ike/exchange.h"
#include "ike/timers.h"
#include "ike/tasks.h"

struct rk_out {
	struct wire_msg m;
	struct wire_sa_store store;
	struct ikb_proposal_list l;
	uint8_t nonce[IKE_SA_NONCE_LEN];
	uint8_t group[2];
};

static uint16_t first_group(const struct ikb_proposal_list *l)
{
	const struct ikb_transform *ke =
		l->n ? prop_xf(&l->p[0], IKB_XF_KE) : NULL;

	return ke ? ke->id : 0;
}

static void add_nonce_ke(struct wire_msg *m, const uint8_t *nonce,
			 const struct ke *ke)
{
	struct wire_payload *p = msg_add(m, WIRE_PT_NONCE);
	struct cbytes pub = ke_public(ke);

	p->u.nonce = (struct wire_opaque){ nonce, IKE_SA_NONCE_LEN };
	p = msg_add(m, WIRE_PT_KE);
	p->u.ke = (struct wire_ke){ ke_group(ke), pub.ptr, pub.len };
}

int rekey_ike_start(struct ike_sa *sa)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct exchange *x = exchange_new(sa, OUT_REKEY_IKE);
	struct rk_out *o = x ? calloc(1, sizeof(*o)) : NULL;
	struct ikb_error err = { "" };
	struct wire_payload *p;
	uint16_t group = 0;
	int rc = o && conn ? 0 : -ENOMEM;

	if (!rc)
		rc = conn_proposals(conn, IKB_PROTO_IKE, &o->l, &err);
	if (!rc)
		group = sa->rekey_ke.group ? sa->rekey_ke.group :
					     first_group(&o->l);
	if (!rc && !group)
		rc = -EINVAL;
	if (!rc)
		rc = ike_sa_new_spi(sa->e, x->ike_spi);
	if (!rc)
		rc = msg_nonce(sa);
	if (!rc)
		rc = kex_pair(&x->ke, group, &err);
	if (!rc) {
		p = msg_add(&o->m, WIRE_PT_SA);
		rc = wire_sa_from_proposals(&o->store, &o->l, 1, x->ike_spi, 8,
					    &p->u.sa);
	}
	if (!rc) {
		add_nonce_ke(&o->m, x->nonce, x->ke);
		rc = msg_request_sk(sa, &o->m, WIRE_EXCH_CREATE_CHILD_SA);
	}
	if (rc) {
		ike_sa_log(sa, IKB_LOG_ERR, "IKE SA rekey: %s",
			   err.msg[0] ? err.msg : "cannot build the request");
		exchange_end(sa);
	} else {
		ike_sa_log(sa, IKB_LOG_INFO, "rekeying the IKE SA");
	}
	free(o);
	return rc;
}

/* The new SA (its keys made) takes over the Child SAs; timers run. */
static void take_over(struct ike_sa *old, struct ike_sa *sa)
{
	sa->children = old->children;
	old->children = NULL;
	for (struct child_sa *c = sa->children; c; c = c->next)
		c->ike = sa;
	old->rekeyed = true;
	ike_sa_log(
		sa, IKB_LOG_NOTICE,
		"IKE SA established by rekeying #%lu, its Child SAs moved here",
		old->serial);
	events_ike_up(sa, NULL, old);
	ike_sa_established(sa);
}

/* The chosen proposal from an SA payload: 0 or the notify. */
static uint16_t choose(struct ike_sa *sa, const struct wire_sa *w,
		       struct ikb_proposal *chosen, uint8_t *num,
		       uint8_t spi[8])
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct ikb_proposal_list *ours = calloc(1, sizeof(*ours));
	struct ikb_proposal_list *got = calloc(1, sizeof(*got));
	uint8_t nums[IKB_PROPOSALS_MAX];
	struct ikb_error err = { "" };
	void *st;
	const struct ikb_proposals_ops *ops = engine_proposals(sa->e, &st);
	uint16_t rc = WIRE_N_NO_PROPOSAL_CHOSEN;
	unsigned n = 0;

	if (ours && got && conn &&
	    !conn_proposals(conn, IKB_PROTO_IKE, ours, &err) &&
	    wire_sa_to_proposals(w, got, nums) > 0 &&
	    !ops->select(st, ours, got, chosen, &n, &err) && n && n <= got->n &&
	    prop_xf(chosen, IKB_XF_KE)) {
		for (unsigned i = 0; i < w->n_prop; i++) {
			if (w->prop[i].num != nums[n - 1] ||
			    w->prop[i].spi_size != 8)
				continue;
			memcpy(spi, w->prop[i].spi, 8);
			*num = nums[n - 1];
			rc = 0;
		}
	}
	if (rc)
		ike_sa_log(sa, IKB_LOG_WARNING, "IKE SA rekey: %s",
			   err.msg[0] ? err.msg : "no usable IKE proposal");
	free(ours);
	free(got);
	return rc;
}

/* Responder ------------------------------------------------------------ */

static uint16_t rekey_respond(struct ike_sa *sa, const struct wire_msg *m,
			      struct rk_out *o, struct ike_sa **out,
			      struct ke **mine)
{
	const struct wire_payload *w = wire_find(m, WIRE_PT_SA);
	const struct wire_payload *ni = wire_find(m, WIRE_PT_NONCE);
	const struct wire_payload *ke = wire_find(m, WIRE_PT_KE);
	struct ikb_error err = { "" };
	struct secret gir = { 0 };
	struct ikb_proposal chosen;
	struct ike_sa *n = NULL;
	uint8_t spi[8], num;
	uint16_t g, rc;

	if (!ni || ni->u.nonce.len < 16 || ni->u.nonce.len > 256)
		return WIRE_N_INVALID_SYNTAX;
	if (exchange_kind(sa) == OUT_REKEY_IKE)
		return WIRE_N_TEMPORARY_FAILURE; /* see the file comment */
	if ((rc = choose(sa, &w->u.sa, &chosen, &num, spi)))
		return rc;
	g = prop_xf(&chosen, IKB_XF_KE)->id;
	if (!ke || ke->u.ke.group != g) {
		o->group[0] = (uint8_t)(g >> 8);
		o->group[1] = (uint8_t)g;
		return WIRE_N_INVALID_KE_PAYLOAD;
	}
	if (kex_pair(mine, g, &err) || kex_gir(*mine, &ke->u.ke, &gir, &err) ||
	    rng_bytes(o->nonce, sizeof(o->nonce), NULL) ||
	    !(n = ike_sa_new_rekeyed(sa, false, NULL, spi))) {
		rc = WIRE_N_NO_PROPOSAL_CHOSEN;
		goto out;
	}
	n->prop = chosen;
	n->prop_num = num;
	n->ke_group = g;
	memcpy(n->ni, ni->u.nonce.data, ni->u.nonce.len);
	n->ni_len = ni->u.nonce.len;
	memcpy(n->nr, o->nonce, sizeof(o->nonce));
	n->nr_len = sizeof(o->nonce);
	o->l.n = 1;
	o->l.p[0] = chosen;
	msg_add(&o->m, WIRE_PT_SA);
	if (wire_sa_from_proposals(&o->store, &o->l, num, n->spi_r, 8,
				   &o->m.pl[0].u.sa) ||
	    keys_rekey(n, sa, &gir, &err)) {
		rc = WIRE_N_NO_PROPOSAL_CHOSEN;
		goto out;
	}
	add_nonce_ke(&o->m, o->nonce, *mine);
	*out = n;
	n = NULL;
out:
	if (rc && err.msg[0])
		ike_sa_log(sa, IKB_LOG_WARNING, "IKE SA rekey: %s", err.msg);
	if (n)
		ike_sa_delete(n, NULL);
	secret_free(&gir);
	return rc;
}

void rekey_ike_request(struct ike_sa *sa, const struct wire_msg *m,
		       uint32_t msgid)
{
	struct rk_out *o = calloc(1, sizeof(*o));
	struct ike_sa *n = NULL;
	struct ke *mine = NULL;
	uint16_t rc;

	if (!o)
		return;
	rc = rekey_respond(sa, m, o, &n, &mine);
	if (rc) {
		o->m.n = 0;
		msg_notify(&o->m, rc, o->group,
			   rc == WIRE_N_INVALID_KE_PAYLOAD ? 2 : 0);
	}
	msg_respond_sk(sa, &o->m, WIRE_EXCH_CREATE_CHILD_SA, msgid);
	ke_free(mine); /* its public value was in the response */
	free(o);
	if (rc)
		return;
	take_over(sa, n);
	/* the peer deletes this one; until then it answers retransmits */
	ike_sa_linger(sa, sa->rtx.timeout_ms);
}

/* Initiator ------------------------------------------------------------ */

static int accept_new(struct ike_sa *sa, const struct wire_msg *m,
		      struct ikb_error *err)
{
	const struct wire_payload *w = wire_find(m, WIRE_PT_SA);
	const struct wire_payload *nr = wire_find(m, WIRE_PT_NONCE);
	const struct wire_payload *ke = wire_find(m, WIRE_PT_KE);
	struct secret gir = { 0 };
	struct ikb_proposal chosen;
	struct ike_sa *n;
	uint8_t spi[8], num;
	int rc;

	if (!w || !nr || w->u.sa.n_prop != 1 || nr->u.nonce.len < 16 ||
	    nr->u.nonce.len > 256 || choose(sa, &w->u.sa, &chosen, &num, spi)) {
		snprintf(err->msg, sizeof(err->msg),
			 "the response lacks a usable SA or Nonce");
		return -EBADMSG;
	}
	rc = kex_gir(sa->x->ke, ke ? &ke->u.ke : NULL, &gir, err);
	if (rc)
		return rc;
	n = ike_sa_new_rekeyed(sa, true, sa->x->ike_spi, spi);
	if (!n) {
		secret_free(&gir);
		return -ENOMEM;
	}
	n->prop = chosen;
	n->ke_group = ke_group(sa->x->ke);
	memcpy(n->ni, sa->x->nonce, IKE_SA_NONCE_LEN);
	n->ni_len = IKE_SA_NONCE_LEN;
	memcpy(n->nr, nr->u.nonce.data, nr->u.nonce.len);
	n->nr_len = nr->u.nonce.len;
	rc = keys_rekey(n, sa, &gir, err);
	secret_free(&gir);
	if (rc)
		ike_sa_delete(n, NULL);
	else
		take_over(sa, n);
	return rc;
}

void rekey_ike_response(struct ike_sa *sa, const struct wire_msg *m)
{
	const struct wire_payload *p = NULL;
	struct ikb_error err = { "" };

	while ((p = wire_next_notify(m, p))) {
		const struct wire_notify *n = &p->u.notify;

		if (!wire_notify_is_error(n->type))
			continue;
		if (ke_retry(&sa->rekey_ke, n, ke_group(sa->x->ke), NULL))
			sa->want_rekey = true;
		else if (n->type == WIRE_N_TEMPORARY_FAILURE)
			ike_timer_retry(sa);
		ike_sa_log(sa, IKB_LOG_WARNING,
			   "IKE SA rekey: peer answered %s",
			   wire_notify_name(n->type) ?: "an error");
		return;
	}
	if (accept_new(sa, m, &err)) {
		ike_sa_log(sa, IKB_LOG_WARNING, "IKE SA rekey: %s", err.msg);
		return;
	}
	sa->want_delete = true; /* the old one: tasks.c sends the Delete */
}
