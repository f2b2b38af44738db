// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which handler a message of an IKE SA goes to, once ike_engine_input()
 * has found the SA and checked the header: by exchange type, role and
 * state, and for CREATE_CHILD_SA by which of its uses (RFC 7296 §1.3) the
 * decrypted message is. Anything else is dropped with a log line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "ike/engine.h"
#include "ike/exchange.h"
#include "ike/msg.h"
#include "ike/tasks.h"

/* A new Child SA or a Child SA rekey, or an IKE SA rekey (§1.3.2). */
static void ccs_request(struct ike_sa *sa, const uint8_t *buf, size_t len)
{
	struct wire_msg *m = calloc(1, sizeof(*m));
	const struct wire_payload *w;
	uint32_t msgid = sa->next_peer_msgid;
	uint8_t *plain = NULL;

	if (!m || msg_open_sk(sa, m, buf, len, &plain))
		goto out;
	sa->next_peer_msgid++;
	w = wire_find(m, WIRE_PT_SA);
	if (sa->state != IKE_SA_ESTABLISHED || sa->rekeyed)
		/* §2.8: nothing new on an IKE SA that is going away */
		msg_respond_notify_sk(sa, WIRE_EXCH_CREATE_CHILD_SA,
				      WIRE_N_TEMPORARY_FAILURE, msgid);
	else if (w && w->u.sa.n_prop &&
		 w->u.sa.prop[0].protocol == IKB_PROTO_IKE)
		rekey_ike_request(sa, m, msgid);
	else
		create_child_request(sa, m, msgid);
out:
	free(plain);
	free(m);
}

static void ccs_response(struct ike_sa *sa, const uint8_t *buf, size_t len)
{
	struct wire_msg *m = calloc(1, sizeof(*m));
	uint8_t *plain = NULL;

	if (!m || msg_open_sk(sa, m, buf, len, &plain))
		goto out; /* unauthenticated: keep waiting */
	rtx_done(sa);
	if (exchange_kind(sa) == OUT_REKEY_IKE ?
		    rekey_ike_response(sa, m) :
		    create_child_response(sa, m,
					  exchange_kind(sa) == OUT_REKEY_CHILD))
		tasks_out_done(sa);
out:
	free(plain);
	free(m);
}

void dispatch_response(struct ike_sa *sa, const struct wire_hdr *h,
		       const uint8_t *buf, size_t len)
{
	char why[96];

	if (!sa->rtx.req) {
		log_wire_drop(&sa->path, "response without a request", NULL);
	} else if (h->msgid != sa->rtx.req_msgid) {
		snprintf(why, sizeof(why),
			 "response message id %" PRIu32 ", expected %" PRIu32,
			 h->msgid, sa->rtx.req_msgid);
		log_wire_drop(&sa->path, why, NULL);
	} else if (h->exchange == WIRE_EXCH_IKE_SA_INIT &&
		   sa->state == IKE_SA_INIT_I) {
		ike_sa_init_response(sa, buf, len);
	} else if (h->exchange == WIRE_EXCH_IKE_AUTH &&
		   sa->state == IKE_SA_AUTH_I) {
		ike_auth_response(sa, buf, len);
	} else if (h->exchange == WIRE_EXCH_CREATE_CHILD_SA &&
		   (exchange_kind(sa) == OUT_CHILD ||
		    exchange_kind(sa) == OUT_REKEY_CHILD ||
		    exchange_kind(sa) == OUT_REKEY_IKE)) {
		ccs_response(sa, buf, len);
	} else if (h->exchange == WIRE_EXCH_INFORMATIONAL &&
		   (exchange_kind(sa) == OUT_DELETE_CHILD ||
		    exchange_kind(sa) == OUT_DELETE_IKE ||
		    exchange_kind(sa) == OUT_DPD)) {
		informational_response(sa, buf, len);
	} else {
		snprintf(why, sizeof(why), "unexpected %s response (%s)",
			 wire_exchange_name(h->exchange) ?: "unknown",
			 ike_sa_state_name(sa->state));
		log_wire_drop(&sa->path, why, NULL);
	}
}

void dispatch_request(struct ike_sa *sa, const struct wire_hdr *h,
		      const uint8_t *buf, size_t len)
{
	char why[96];

	if (sa->rtx.resp && h->msgid == sa->rtx.resp_msgid &&
	    h->msgid + 1 == sa->next_peer_msgid) {
		rtx_replay(sa);
	} else if (h->msgid != sa->next_peer_msgid) {
		snprintf(why, sizeof(why),
			 "request message id %" PRIu32 ", expected %" PRIu32,
			 h->msgid, sa->next_peer_msgid);
		log_wire_drop(&sa->path, why, NULL);
	} else if (h->exchange == WIRE_EXCH_IKE_AUTH &&
		   sa->state == IKE_SA_INIT_R) {
		ike_auth_request(sa, buf, len);
	} else if (h->exchange == WIRE_EXCH_CREATE_CHILD_SA &&
		   (sa->state == IKE_SA_ESTABLISHED ||
		    sa->state == IKE_SA_DELETING)) {
		ccs_request(sa, buf, len);
	} else if (h->exchange == WIRE_EXCH_INFORMATIONAL &&
		   (sa->state == IKE_SA_ESTABLISHED ||
		    sa->state == IKE_SA_DELETING)) {
		informational_request(sa, buf, len);
	} else {
		snprintf(why, sizeof(why), "unexpected %s request (%s)",
			 wire_exchange_name(h->exchange) ?: "unknown",
			 ike_sa_state_name(sa->state));
		log_wire_drop(&sa->path, why, NULL);
	}
}
