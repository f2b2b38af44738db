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
#include "ike/exchange/exchange.h"
#include "ike/exchange/task.h"
#include "ike/msg/msg.h"

/*
 * The message is ours to handle: decrypted, and the payloads its exchange
 * needs checked (expect.c) before the handler runs. NULL: dropped (not
 * authentic: the SA stays as it was) or answered here.
 */
static struct wire_msg *open_msg(struct ike_sa *sa, const struct ike_dgram *dg,
				 uint8_t **plain)
{
	struct wire_msg *m = calloc(1, sizeof(*m));

	if (m && !msg_open_sk(sa, m, dg, plain))
		return m;
	free(m);
	return NULL;
}

/* A request that lacks a payload is answered, and not handled. */
static bool request_ok(struct ike_sa *sa, const struct wire_msg *m,
		       const struct exchange_row *r, uint32_t msgid)
{
	char why[96];
	uint16_t n;

	/* the row on_request() found: no second search of the table */
	if (expect_request_row(m, r, &n, why, sizeof(why)))
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

	if (m->hdr.exchange != WIRE_EXCH_CREATE_CHILD_SA)
		return EXPECT_ANY;
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
	to->raw = NULL; /* the datagram is the caller's */
	to->raw_len = 0;
	in->m = NULL;
	in->plain = NULL;
}

/* The peer's request of row r (dispatch_request() found it). */
static void on_request(struct ike_sa *sa, const struct exchange_row *r,
		       const struct ike_dgram *dg)
{
	uint8_t *plain = NULL;
	struct wire_msg *m = open_msg(sa, dg, &plain);
	struct msg_in in = { m, plain, dg->buf, dg->len };
	uint32_t msgid = sa->next_peer_msgid;
	enum expect_use use;

	if (!m)
		return;
	sa->next_peer_msgid++;
	use = ccs_use(m);
	/* the SA payload decides the row of a CREATE_CHILD_SA */
	if (use != r->use && r->use != EXPECT_ANY)
		r = exchange_row_peer(sa, m->hdr.exchange, use);
	if (r && r->live_only &&
	    (sa->state != IKE_SA_ESTABLISHED || sa->rekeyed))
		/* §2.8: nothing new on an IKE SA that is going away */
		msg_respond_notify_sk(sa, m->hdr.exchange,
				      WIRE_N_TEMPORARY_FAILURE, msgid);
	else if (!r)
		log_wire_drop(&sa->path, "a request no exchange takes", NULL);
	else if (request_ok(sa, m, r, msgid))
		r->request(sa, &in, msgid);
	msg_in_free(&in);
}

/*
 * Our request is answered: the handler gets the payloads the row says it
 * needs, typed and there, or the refusal handler its notify, or the
 * malformed handler why; the exchange ends when the one called says so.
 */
static void on_response(struct ike_sa *sa, const struct exchange_row *r,
			struct msg_in *in)
{
	const struct wire_msg *m = in->m;
	const struct wire_notify *n;
	struct expected x;
	char why[96];
	enum expect_verdict v =
		expect_response_row(m, r, &x, &n, why, sizeof(why));
	bool over;

	if (r->kind == OUT_INIT && v != EXPECT_REFUSED &&
	    !memcmp(m->hdr.spi_r, "\0\0\0\0\0\0\0\0", 8)) {
		/* only a refusal comes without SPIr (§2.6): not ours */
		log_wire_drop(&sa->path, "IKE_SA_INIT response without SPIr",
			      NULL);
		return;
	}
	switch (v) {
	case EXPECT_MALFORMED:
		over = r->malformed ? r->malformed(sa, why) : true;
		break;
	case EXPECT_REFUSED:
		over = r->refused ? r->refused(sa, n) : true;
		break;
	case EXPECT_WHOLE:
	default:
		over = r->response(sa, in, &x);
		break;
	}
	if (over)
		tasks_out_done(sa);
}

/* IKE_SA_INIT's is plain, the others are opened; all then as above. */
static void response(struct ike_sa *sa, const struct exchange_row *r,
		     const struct ike_dgram *dg)
{
	struct wire_msg *m = calloc(1, sizeof(*m));
	struct wire_error werr;
	struct msg_in in = { m, NULL, dg->buf, dg->len };

	if (!m)
		return;
	if (r->kind == OUT_INIT) {
		if (wire_parse_body(m, &dg->hdr, dg->buf, dg->len, NULL, &werr))
			log_wire_drop(&sa->path,
				      "malformed IKE_SA_INIT response", &werr);
		else
			on_response(sa, r, &in);
	} else if (!msg_open_sk(sa, m, dg, &in.plain)) {
		rtx_done(sa); /* authentic: our request is answered */
		on_response(sa, r, &in);
	} /* else unauthenticated: keep waiting, retransmitting */
	msg_in_free(&in);
}

void dispatch_response(struct ike_sa *sa, const struct ike_dgram *dg)
{
	const struct wire_hdr *h = &dg->hdr;
	const struct exchange_row *r = exchange_row_ours(sa);
	char why[96];

	if (!sa->rtx.req) {
		log_wire_drop(&sa->path, "response without a request", NULL);
	} else if (h->msgid != sa->rtx.req_msgid) {
		snprintf(why, sizeof(why),
			 "response message id %" PRIu32 ", expected %" PRIu32,
			 h->msgid, sa->rtx.req_msgid);
		log_wire_drop(&sa->path, why, NULL);
	} else if (r && r->exchange == h->exchange) {
		response(sa, r, dg);
	} else {
		snprintf(why, sizeof(why), "unexpected %s response (%s)",
			 wire_exchange_name(h->exchange) ?: "unknown",
			 ike_sa_phase(sa));
		log_wire_drop(&sa->path, why, NULL);
	}
}

void dispatch_request(struct ike_sa *sa, const struct ike_dgram *dg)
{
	const struct wire_hdr *h = &dg->hdr;
	const struct exchange_row *r;
	char why[96];

	if (sa->rtx.resp && h->msgid == sa->rtx.resp_msgid &&
	    h->msgid + 1 == sa->next_peer_msgid) {
		/* a fragmented request again: answer its first fragment
		 * only (RFC 7383 §2.6.1), not each of them; and only an
		 * authentic one, or anyone who knows the SPIs and the last
		 * message ID makes us send a response per datagram */
		if (!frag_not_first(dg->buf, dg->len) &&
		    (h->exchange == WIRE_EXCH_IKE_SA_INIT ||
		     msg_check_sk(sa, dg)))
			rtx_replay(sa);
	} else if (h->msgid != sa->next_peer_msgid) {
		snprintf(why, sizeof(why),
			 "request message id %" PRIu32 ", expected %" PRIu32,
			 h->msgid, sa->next_peer_msgid);
		log_wire_drop(&sa->path, why, NULL);
	} else if ((r = exchange_row_peer(sa, h->exchange, EXPECT_ANY))) {
		on_request(sa, r, dg);
	} else {
		snprintf(why, sizeof(why), "unexpected %s request (%s)",
			 wire_exchange_name(h->exchange) ?: "unknown",
			 ike_sa_phase(sa));
		log_wire_drop(&sa->path, why, NULL);
	}
}
