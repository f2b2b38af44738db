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
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/events.h"
#include "ike/conn/conn.h"
#include "ike/msg/msg.h"
#include "ike/exchange/exchange.h"
#include "ike/timers.h"
#include "ike/exchange/task.h"

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

/* The request, our KE made: 0 or -errno. */
static int send_request(struct ike_sa *sa, struct rk_out *o,
			struct ikb_error *err)
{
	struct exchange *x = sa->x;
	struct wire_payload *p = msg_add(&o->m, WIRE_PT_SA);
	int rc = wire_sa_from_proposals(&o->store, &o->l, 1, x->ike_spi, 8,
					&p->u.sa);

	if (!rc) {
		msg_add_nonce_ke(&o->m, x->nonce, x->ke);
		rc = msg_request_sk(sa, &o->m, WIRE_EXCH_CREATE_CHILD_SA);
	}
	if (rc) {
		ike_sa_log(sa, IKB_LOG_ERR, "IKE SA rekey: %s",
			   err->msg[0] ? err->msg : "cannot build the request");
		exchange_end(sa);
	} else {
		ike_sa_log(sa, IKB_LOG_INFO, "rekeying the IKE SA");
	}
	return rc;
}

/* On the loop: our key pair is made. */
static void paired(struct ike_sa *sa, void *arg, struct kex_result *res)
{
	struct rk_out *o = arg;
	struct ikb_error err = { "" };

	if (sa && res->rc) {
		ike_sa_log(sa, IKB_LOG_ERR, "IKE SA rekey: %s", res->why);
		exchange_end(sa);
	} else if (sa) {
		sa->x->ke = res->ke;
		res->ke = NULL;
		send_request(sa, o, &err);
	}
	if (sa && !sa->x)
		tasks_schedule(sa); /* it failed: the other tasks */
	free(o);
}

int rekey_ike_start(struct ike_sa *sa)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct exchange *x = exchange_new(sa, OUT_REKEY_IKE);
	struct rk_out *o = x ? calloc(1, sizeof(*o)) : NULL;
	struct ikb_error err = { "" };
	uint16_t group = 0;
	int rc;

	if (!x)
		return -ENOMEM;
	rc = o && conn ? 0 : -ENOMEM;
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
	/* the request goes out once our key pair is made (kex.c) */
	if (!rc && !(rc = kex_start(sa, group, NULL, NULL, paired, o, &err)))
		return 0;
	ike_sa_log(sa, IKB_LOG_ERR, "IKE SA rekey: %s",
		   err.msg[0] ? err.msg : "cannot build the request");
	exchange_end(sa);
	free(o);
	return rc;
}

/* The new SA (its keys made) takes over the Child SAs; timers run. */
static void take_over(struct ike_sa *old, struct ike_sa *sa)
{
	sa->children = old->children;
	old->children = NULL;
	tasks_move_children(sa, old);
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
	    ike_prop_fits(chosen, &err) && prop_xf(chosen, IKB_XF_KE)) {
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

/* The peer's request, from its checks to the answer. */
struct rk_req {
	struct rk_out o;
	uint32_t msgid;
	struct ikb_proposal chosen;
	uint8_t num, spi[8];
	uint8_t ni[256];
	size_t ni_len;
};

/* The new IKE SA from the key exchange's result; 0 or the notify. */
static uint16_t rekey_new(struct ike_sa *sa, struct rk_req *r,
			  struct kex_result *res, struct ike_sa **out)
{
	struct rk_out *o = &r->o;
	struct ikb_error err = { "" };
	struct ike_sa *n = NULL;
	uint16_t rc = 0;

	snprintf(err.msg, sizeof(err.msg), "%s", res->rc ? res->why : "");
	if (res->rc || rng_bytes(o->nonce, sizeof(o->nonce), NULL) ||
	    !(n = ike_sa_new_rekeyed(sa, false, NULL, r->spi))) {
		rc = WIRE_N_NO_PROPOSAL_CHOSEN;
		goto out;
	}
	ike_prop_keep(&n->prop, &r->chosen, NULL); /* choose() bounded it */
	n->prop_num = r->num;
	n->ke_group = ke_group(res->ke);
	if (ike_bytes_set(&n->ni, r->ni, r->ni_len) ||
	    ike_bytes_set(&n->nr, o->nonce, sizeof(o->nonce))) {
		snprintf(err.msg, sizeof(err.msg), "out of memory");
		rc = WIRE_N_NO_PROPOSAL_CHOSEN;
		goto out;
	}
	o->l.n = 1;
	o->l.p[0] = r->chosen;
	msg_add(&o->m, WIRE_PT_SA);
	if (wire_sa_from_proposals(&o->store, &o->l, r->num, n->spi_r, 8,
				   &o->m.pl[0].u.sa) ||
	    keys_rekey(n, sa, &res->gir, &err)) {
		rc = WIRE_N_NO_PROPOSAL_CHOSEN;
		goto out;
	}
	msg_add_nonce_ke(&o->m, o->nonce, res->ke);
	*out = n;
	n = NULL;
out:
	if (rc && err.msg[0])
		ike_sa_log(sa, IKB_LOG_WARNING, "IKE SA rekey: %s", err.msg);
	if (n)
		ike_sa_free(n);
	return rc;
}

/* rc 0: n takes over; else rc is refused. */
static void answer(struct ike_sa *sa, struct rk_req *r, uint16_t rc,
		   struct ike_sa *n)
{
	if (rc) {
		r->o.m.n = 0;
		msg_notify(&r->o.m, rc, r->o.group,
			   rc == WIRE_N_INVALID_KE_PAYLOAD ? 2 : 0);
	}
	msg_respond_sk(sa, &r->o.m, WIRE_EXCH_CREATE_CHILD_SA, r->msgid);
	if (rc)
		return;
	take_over(sa, n);
	/* the peer deletes this one; until then it answers retransmits */
	ike_sa_linger(sa, sa->rtx.timeout_ms);
}

/* On the loop: our key pair and g^ir are made. */
static void keyed(struct ike_sa *sa, void *arg, struct kex_result *res)
{
	struct rk_req *r = arg;
	struct ike_sa *n = NULL;

	if (sa) {
		/* the response carries our public value: ke stays till then */
		uint16_t rc = rekey_new(sa, r, res, &n);

		answer(sa, r, rc, n);
		tasks_schedule(sa);
	}
	secret_wipe(r, sizeof(*r));
	free(r);
}

static uint16_t check_request(struct ike_sa *sa, const struct wire_msg *m,
			      struct rk_req *r, uint16_t *g)
{
	const struct wire_payload *w = wire_find(m, WIRE_PT_SA);
	const struct wire_payload *ni = wire_find(m, WIRE_PT_NONCE);
	const struct wire_payload *ke = wire_find(m, WIRE_PT_KE);
	uint16_t rc;

	/* SA and Nonce are there: expect.c */
	if (ni->u.nonce.len < 16 || ni->u.nonce.len > 256)
		return WIRE_N_INVALID_SYNTAX;
	if (exchange_kind(sa) == OUT_REKEY_IKE)
		return WIRE_N_TEMPORARY_FAILURE; /* see the file comment */
	if ((rc = choose(sa, &w->u.sa, &r->chosen, &r->num, r->spi)))
		return rc;
	*g = prop_xf(&r->chosen, IKB_XF_KE)->id;
	if (!ke || ke->u.ke.group != *g) {
		r->o.group[0] = (uint8_t)(*g >> 8);
		r->o.group[1] = (uint8_t)*g;
		return WIRE_N_INVALID_KE_PAYLOAD;
	}
	memcpy(r->ni, ni->u.nonce.data, ni->u.nonce.len);
	r->ni_len = ni->u.nonce.len;
	return 0;
}

void rekey_ike_request(struct ike_sa *sa, struct msg_in *in, uint32_t msgid)
{
	const struct wire_msg *m = in->m;
	struct rk_req *r = calloc(1, sizeof(*r));
	const struct wire_payload *ke = wire_find(m, WIRE_PT_KE);
	struct ikb_error err = { "" };
	uint16_t rc, g = 0;

	if (!r)
		return;
	r->msgid = msgid;
	rc = check_request(sa, m, r, &g);
	/* our key pair and g^ir on the helper pool, the rest in keyed() */
	if (!rc && !kex_start(sa, g, NULL, &ke->u.ke, keyed, r, &err))
		return;
	if (!rc) {
		ike_sa_log(sa, IKB_LOG_WARNING, "IKE SA rekey: %s", err.msg);
		rc = WIRE_N_NO_PROPOSAL_CHOSEN;
	}
	answer(sa, r, rc, NULL);
	free(r);
}

/* Initiator ------------------------------------------------------------ */

/* The responder's choice, kept across the key exchange. */
struct rk_resp {
	struct ikb_proposal chosen;
	uint8_t spi[8];
	uint8_t nr[256];
	size_t nr_len;
};

static int check_response(struct ike_sa *sa, const struct expected *x,
			  struct rk_resp *r, struct ikb_error *err)
{
	uint8_t num;

	if (x->sa->n_prop != 1 || x->nonce->len < 16 || x->nonce->len > 256 ||
	    choose(sa, x->sa, &r->chosen, &num, r->spi)) {
		snprintf(err->msg, sizeof(err->msg),
			 "the response lacks a usable SA or Nonce");
		return -EBADMSG;
	}
	memcpy(r->nr, x->nonce->data, x->nonce->len);
	r->nr_len = x->nonce->len;
	return 0;
}

/* The new IKE SA, g^ir made; it takes over. 0 or -errno. */
static int accept_new(struct ike_sa *sa, const struct rk_resp *r,
		      const struct ke *ke, const struct secret *gir,
		      struct ikb_error *err)
{
	struct ike_sa *n = ike_sa_new_rekeyed(sa, true, sa->x->ike_spi, r->spi);
	int rc;

	if (!n)
		return -ENOMEM;
	ike_prop_keep(&n->prop, &r->chosen, NULL); /* choose() bounded it */
	n->ke_group = ke_group(ke);
	rc = ike_bytes_set(&n->ni, sa->x->nonce, IKE_SA_NONCE_LEN);
	if (!rc)
		rc = ike_bytes_set(&n->nr, r->nr, r->nr_len);
	if (rc)
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	else
		rc = keys_rekey(n, sa, gir, err);
	if (rc)
		ike_sa_free(n);
	else
		take_over(sa, n);
	return rc;
}

static void accepted(struct ike_sa *sa, int rc, const struct ikb_error *err)
{
	if (rc)
		ike_sa_log(sa, IKB_LOG_WARNING, "IKE SA rekey: %s", err->msg);
	else
		task_want(sa, TASK_DELETE_IKE); /* the old one's */
}

/* On the loop: g^ir is made. */
static void derived(struct ike_sa *sa, void *arg, struct kex_result *res)
{
	struct rk_resp *r = arg;
	struct ikb_error err = { "" };
	int rc = res->rc;

	if (sa) {
		snprintf(err.msg, sizeof(err.msg), "%s", res->why);
		if (!rc)
			rc = accept_new(sa, r, res->ke, &res->gir, &err);
		accepted(sa, rc, &err);
		tasks_out_done(sa);
	}
	secret_wipe(r, sizeof(*r));
	free(r);
}

bool rekey_ike_malformed(struct ike_sa *sa, const char *why)
{
	ike_sa_log(sa, IKB_LOG_WARNING, "IKE SA rekey: %s", why);
	return true;
}

bool rekey_ike_refused(struct ike_sa *sa, const struct wire_notify *n)
{
	char b[32];

	if (ke_retry_conn(sa, &sa->rekey_ke, n, ke_group(sa->x->ke), false))
		task_want(sa, TASK_REKEY_IKE);
	else if (n->type == WIRE_N_TEMPORARY_FAILURE)
		ike_timer_retry(sa);
	ike_sa_log(sa, IKB_LOG_WARNING, "IKE SA rekey: peer answered %s",
		   wire_notify_text(n->type, b, sizeof(b)));
	return true;
}

bool rekey_ike_response(struct ike_sa *sa, struct msg_in *in,
			const struct expected *x)
{
	struct rk_resp *r;
	struct ikb_error err = { "" };
	struct secret none = { 0 };
	struct ke *ours;
	int rc;

	r = calloc(1, sizeof(*r));
	rc = r ? check_response(sa, x, r, &err) : -ENOMEM;
	if (!rc && x->ke) {
		/* g^ir on the helper pool, the rest in derived() */
		ours = sa->x->ke;
		sa->x->ke = NULL;
		if (!(rc = kex_start(sa, 0, ours, x->ke, derived, r, &err)))
			return false;
		sa->x->ke = ours;
	} else if (!rc) {
		rc = kex_gir(sa->x->ke, NULL, &none, &err); /* says why */
	}
	if (!err.msg[0])
		snprintf(err.msg, sizeof(err.msg), "out of memory");
	accepted(sa, rc, &err);
	free(r);
	return true;
}
