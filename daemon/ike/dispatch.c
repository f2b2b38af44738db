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
#include <string.h>

#include "ike/engine.h"
#include "ike/exchange.h"
#include "ike/frag.h"
#include "ike/msg.h"
#include "ike/tasks.h"

/*
 * The message is ours to handle: decrypted, and the payloads its exchange
 * needs checked (expect.c) before the handler runs. NULL: dropped (not
 * authentic: the SA stays as it was) or answered here.
 */
static struct wire_msg *open_msg(struct ike_sa *sa, const uint8_t *buf,
				 size_t len, uint8_t **plain)
{
	struct wire_msg *m = calloc(1, sizeof(*m));

	if (m && !msg_open_sk(sa, m, buf, len, plain))
		return m;
	free(m);
	return NULL;
}

/* A request that lacks a payload is answered, and not handled. */
static bool request_ok(struct ike_sa *sa, const struct wire_msg *m,
		       enum expect_use use, uint32_t msgid)
{
	char why[96];
	uint16_t n;

	if (expect_ok(m, false, use, &n, why, sizeof(why)))
		return true;
	ike_sa_log(sa, IKB_LOG_WARNING, "%s: answering %s", why,
		   wire_notify_name(n) ?: "an error");
	msg_respond_notify_sk(sa, m->hdr.exchange, n, msgid);
	if (m->hdr.exchange == WIRE_EXCH_IKE_AUTH)
		ike_sa_linger(sa, sa->rtx.timeout_ms); /* as a failed AUTH */
	return false;
}

/* CREATE_CHILD_SA's use: a Child SA, or the IKE SA (§1.3.2). */
static enum expect_use ccs_use(const struct wire_msg *m)
{
	const struct wire_payload *w = wire_find(m, WIRE_PT_SA);

	return w && w->u.sa.n_prop &&
			       w->u.sa.prop[0].protocol == IKB_PROTO_IKE ?
		       EXPECT_IKE :
		       EXPECT_CHILD;
}

void msg_in_free(struct msg_in *in)
{
	free(in->plain);
	free(in->m);
	in->plain = NULL;
	in->m = NULL;
}

void msg_in_take(struct msg_in *to, struct msg_in *in)
{
	*to = *in;
	in->m = NULL;
	in->plain = NULL;
}

static void on_request(struct ike_sa *sa, const uint8_t *buf, size_t len)
{
	uint8_t *plain = NULL;
	struct wire_msg *m = open_msg(sa, buf, len, &plain);
	struct msg_in in = { m, plain };
	uint32_t msgid = sa->next_peer_msgid;
	uint8_t exch = m ? m->hdr.exchange : 0;
	enum expect_use use = EXPECT_ANY;

	if (!m)
		return;
	sa->next_peer_msgid++;
	if (exch == WIRE_EXCH_CREATE_CHILD_SA)
		use = ccs_use(m);
	if (exch == WIRE_EXCH_CREATE_CHILD_SA &&
	    (sa->state != IKE_SA_ESTABLISHED || sa->rekeyed))
		/* §2.8: nothing new on an IKE SA that is going away */
		msg_respond_notify_sk(sa, exch, WIRE_N_TEMPORARY_FAILURE,
				      msgid);
	else if (!request_ok(sa, m, use, msgid))
		; /* answered */
	else if (exch == WIRE_EXCH_IKE_AUTH)
		ike_auth_request(sa, &in, msgid);
	else if (use == EXPECT_IKE)
		rekey_ike_request(sa, m, msgid);
	else if (use == EXPECT_CHILD)
		create_child_request(sa, m, msgid);
	else
		informational_request(sa, m, msgid);
	msg_in_free(&in);
}

/* What a response without a payload it must carry does to the SA. */
static void malformed(struct ike_sa *sa, uint8_t exch, const char *why)
{
	if (exch == WIRE_EXCH_IKE_SA_INIT || exch == WIRE_EXCH_IKE_AUTH) {
		ike_sa_delete(sa, why);
		return;
	}
	if (exchange_kind(sa) == OUT_REKEY_IKE)
		ike_sa_log(sa, IKB_LOG_WARNING, "IKE SA rekey: %s", why);
	else if (exch == WIRE_EXCH_CREATE_CHILD_SA)
		create_child_malformed(sa, why);
	tasks_out_done(sa);
}

/* The peer refused our request with n (expect.c): its handler alone. */
static void refused(struct ike_sa *sa, uint8_t exch,
		    const struct wire_notify *n)
{
	enum ike_out_kind kind = exchange_kind(sa);

	if (exch == WIRE_EXCH_IKE_SA_INIT) {
		ike_sa_init_refused(sa, n);
		return;
	}
	if (exch == WIRE_EXCH_IKE_AUTH) {
		ike_auth_refused(sa, n);
		return;
	}
	if (exch == WIRE_EXCH_CREATE_CHILD_SA && kind == OUT_REKEY_IKE)
		rekey_ike_refused(sa, n);
	else if (exch == WIRE_EXCH_CREATE_CHILD_SA)
		create_child_refused(sa, n, kind == OUT_REKEY_CHILD);
	tasks_out_done(sa);
}

/*
 * Our request is answered: the handler gets the payloads the table says
 * it needs, typed and there, or the refusal handler its notify.
 */
static void on_response(struct ike_sa *sa, struct msg_in *in,
			const uint8_t *buf, size_t len)
{
	const struct wire_msg *m = in->m;
	uint8_t exch = m->hdr.exchange;
	enum ike_out_kind kind = exchange_kind(sa);
	enum expect_use use = kind == OUT_REKEY_IKE ? EXPECT_IKE : EXPECT_CHILD;
	const struct wire_notify *n;
	struct expected x;
	char why[96];
	enum expect_verdict v =
		expect_response(m, use, &x, &n, why, sizeof(why));

	if (exch == WIRE_EXCH_IKE_SA_INIT && v != EXPECT_REFUSED &&
	    !memcmp(m->hdr.spi_r, "\0\0\0\0\0\0\0\0", 8)) {
		/* only a refusal comes without SPIr (§2.6): not ours */
		log_wire_drop(&sa->path, "IKE_SA_INIT response without SPIr",
			      NULL);
		return;
	}
	switch (v) {
	case EXPECT_MALFORMED:
		malformed(sa, exch, why);
		return;
	case EXPECT_REFUSED:
		refused(sa, exch, n);
		return;
	case EXPECT_WHOLE:
		break;
	}
	if (exch == WIRE_EXCH_IKE_SA_INIT)
		ike_sa_init_response(sa, m, &x, buf, len);
	else if (exch == WIRE_EXCH_IKE_AUTH)
		ike_auth_response(sa, in, &x);
	else if (exch == WIRE_EXCH_INFORMATIONAL)
		informational_response(sa, m);
	else if (kind == OUT_REKEY_IKE ?
			 rekey_ike_response(sa, &x) :
			 create_child_response(sa, m, &x,
					       kind == OUT_REKEY_CHILD))
		tasks_out_done(sa);
}

/* IKE_SA_INIT's is plain, the others are opened; all then as above. */
static void response(struct ike_sa *sa, uint8_t exch, const uint8_t *buf,
		     size_t len)
{
	struct wire_msg *m = calloc(1, sizeof(*m));
	struct wire_error werr;
	struct msg_in in = { m, NULL };

	if (!m)
		return;
	if (exch == WIRE_EXCH_IKE_SA_INIT) {
		if (wire_parse(m, buf, len, NULL, &werr))
			log_wire_drop(&sa->path,
				      "malformed IKE_SA_INIT response", &werr);
		else
			on_response(sa, &in, buf, len);
	} else if (!msg_open_sk(sa, m, buf, len, &in.plain)) {
		rtx_done(sa); /* authentic: our request is answered */
		on_response(sa, &in, buf, len);
	} /* else unauthenticated: keep waiting, retransmitting */
	msg_in_free(&in);
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
		response(sa, h->exchange, buf, len);
	} else if (h->exchange == WIRE_EXCH_IKE_AUTH &&
		   sa->state == IKE_SA_AUTH_I) {
		response(sa, h->exchange, buf, len);
	} else if (h->exchange == WIRE_EXCH_CREATE_CHILD_SA &&
		   (exchange_kind(sa) == OUT_CHILD ||
		    exchange_kind(sa) == OUT_REKEY_CHILD ||
		    exchange_kind(sa) == OUT_REKEY_IKE)) {
		response(sa, h->exchange, buf, len);
	} else if (h->exchange == WIRE_EXCH_INFORMATIONAL &&
		   (exchange_kind(sa) == OUT_DELETE_CHILD ||
		    exchange_kind(sa) == OUT_DELETE_IKE ||
		    exchange_kind(sa) == OUT_DPD ||
		    exchange_kind(sa) == OUT_MOBIKE)) {
		response(sa, h->exchange, buf, len);
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
		/* a fragmented request again: answer its first fragment
		 * only (RFC 7383 §2.6.1), not each of them; and only an
		 * authentic one, or anyone who knows the SPIs and the last
		 * message ID makes us send a response per datagram */
		if (!frag_not_first(buf, len) &&
		    (h->exchange == WIRE_EXCH_IKE_SA_INIT ||
		     msg_check_sk(sa, buf, len)))
			rtx_replay(sa);
	} else if (h->msgid != sa->next_peer_msgid) {
		snprintf(why, sizeof(why),
			 "request message id %" PRIu32 ", expected %" PRIu32,
			 h->msgid, sa->next_peer_msgid);
		log_wire_drop(&sa->path, why, NULL);
	} else if (h->exchange == WIRE_EXCH_IKE_AUTH &&
		   sa->state == IKE_SA_INIT_R) {
		on_request(sa, buf, len);
	} else if (h->exchange == WIRE_EXCH_CREATE_CHILD_SA &&
		   (sa->state == IKE_SA_ESTABLISHED ||
		    sa->state == IKE_SA_DELETING)) {
		on_request(sa, buf, len);
	} else if (h->exchange == WIRE_EXCH_INFORMATIONAL &&
		   (sa->state == IKE_SA_ESTABLISHED ||
		    sa->state == IKE_SA_DELETING)) {
		on_request(sa, buf, len);
	} else {
		snprintf(why, sizeof(why), "unexpected %s request (%s)",
			 wire_exchange_name(h->exchange) ?: "unknown",
			 ike_sa_state_name(sa->state));
		log_wire_drop(&sa->path, why, NULL);
	}
}
