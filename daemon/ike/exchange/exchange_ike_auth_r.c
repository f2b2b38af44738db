// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IKE_AUTH, the responder. The request picks the conn by the peer's ID;
 * the authentication job then verifies the peer (certificate chain, ID
 * in the certificate, signature) and signs our AUTH, and only then does
 * the Child SA get negotiated and installed. A responder that cannot
 * authenticate the peer answers AUTHENTICATION_FAILED and keeps the SA
 * only to resend that answer from its response cache until the
 * initiator's retransmits would have stopped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ike/auth/auth.h"
#include "ike/child/child.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/events.h"
#include "ike/exchange/exchange.h"
#include "ike/exchange/task.h"
#include "ike/msg/msg.h"
#include "ike/path/path.h"
#include "ike/status/status.h"

/* f: the failure as far as the caller knows it, NULL: kind alone */
static void refuse_why(struct ike_sa *sa, struct ike_failure *f,
		       enum ike_fail_kind kind, uint16_t n, const char *why,
		       uint32_t msgid)
{
	struct wire_msg *m = calloc(1, sizeof(*m));
	struct ike_failure mine;

	ike_sa_log(sa, IKB_LOG_WARNING, "IKE_AUTH: %s: answering %s", why,
		   wire_notify_name(n));
	if (!f) {
		f = &mine;
		failure_from_sa(f, sa, kind, WIRE_EXCH_IKE_AUTH);
	}
	f->notify_sent = n;
	failure_detail(f, why);
	failure_file(sa->e, f);
	if (m) {
		msg_notify(m, n, NULL, 0);
		msg_respond_sk(sa, m, WIRE_EXCH_IKE_AUTH, msgid);
		free(m);
	}
	ike_sa_linger(sa, sa->rtx.timeout_ms);
}

static void refuse(struct ike_sa *sa, uint16_t n, const char *why,
		   uint32_t msgid)
{
	refuse_why(sa, NULL, IKE_FAIL_OTHER, n, why, msgid);
}

/* The initiator's conn by its ID, and its AUTH checked or made a job. */
static int authenticate(struct ike_sa *sa, const struct wire_msg *m,
			struct conn_view *v, struct auth_job *j,
			struct ike_failure *f, struct ikb_error *err)
{
	const struct wire_payload *idi = wire_find(m, WIRE_PT_IDI);
	const struct wire_payload *auth = wire_find(m, WIRE_PT_AUTH);
	const struct wire_payload *tsi = wire_find(m, WIRE_PT_TSI);
	const struct wire_payload *tsr = wire_find(m, WIRE_PT_TSR);
	const struct wire_payload *cert = wire_find(m, WIRE_PT_CERT);
	const struct conn *conn;
	struct ike_id peer;
	struct conn_match_req q = {
		.peer = &peer,
		.auth_method = auth->u.auth.type,
		.current = sa->conn,
		.tsi = tsi && tsr ? &tsi->u.ts : NULL,
		.tsr = tsi && tsr ? &tsr->u.ts : NULL,
	};

	/* there: request_ok() answered a request without them */
	id_from_wire(&idi->u.id, &peer);
	/* the first CERT payload is the peer's own (RFC 7296 §3.6) */
	if (cert && cert->u.cert.type == 4) {
		q.cert = cert->u.cert.data;
		q.cert_len = cert->u.cert.len;
	}
	conn = conn_match_id(sa->e, &sa->path, &q, v);
	if (!conn) {
		snprintf(err->msg, sizeof(err->msg),
			 "no conn accepts peer ID %.100s", peer.text);
		failure_id(f, sa, &peer);
		return -EPERM;
	}
	if (strcmp(conn->name, sa->conn))
		ike_sa_set_conn(sa, conn->name);
	f->kind = IKE_FAIL_AUTH;
	/* before the check: its PSK lookup is by both IDs */
	if (ike_sa_set_local_id(sa, &v->local, err) ||
	    auth_job_check(j, sa, v, m, &auth->u.auth, &peer, err))
		return -EPERM;
	if (ike_sa_set_remote_id(sa, &peer)) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -ENOMEM;
	}
	return 0;
}

static void answer(struct ike_sa *sa, const struct conn_view *v,
		   struct auth_job *j)
{
	const struct wire_msg *m = j->in.m;
	struct auth_out *o = auth_out_new();
	struct ike_sa *stays;

	if (!o) {
		refuse(sa, WIRE_N_AUTHENTICATION_FAILED, "out of memory",
		       j->msgid);
		return;
	}
	sa->peer_cert = j->pc;
	j->pc = NULL;
	sa->peer_auth.method = j->peer_how;
	ike_sa_set_state(sa, IKE_SA_ESTABLISHED);
	ike_auth_log_up(sa);
	/* the old SAs go once the new Child SA has their policies */
	stays = unique_mark(sa, wire_find_notify(m, WIRE_N_INITIAL_CONTACT),
			    wire_find(m, WIRE_PT_SA));
	auth_out_id_auth(o, sa, v, j);
	mobike_note(sa, m);
	mobike_offer(&o->m, sa, m);
	if (stays && wire_find(m, WIRE_PT_SA))
		msg_notify(&o->m, WIRE_N_NO_ADDITIONAL_SAS, NULL, 0);
	else if (!stays)
		child_respond(sa, v, m, &o->m, &o->child);
	msg_respond_sk(sa, &o->m, WIRE_EXCH_IKE_AUTH, j->msgid);
	auth_out_free(o);
	if (stays) {
		unique_crossed(sa, wire_find(m, WIRE_PT_SA), stays);
		return;
	}
	unique_sweep(sa);
	events_ike_up(sa, sa->children, NULL);
	ike_sa_established(sa);
}

/* The peer is authenticated and our AUTH is made (or one failed). */
static void authenticated(struct ike_sa *sa, struct auth_job *j)
{
	const struct conn *conn = sa ? engine_conn(sa->e, sa->conn) : NULL;

	if (!sa) {
		auth_job_free(j);
		return;
	}
	if (j->rc)
		refuse_why(sa, NULL,
			   j->fail_kind == IKE_FAIL_CERT ? IKE_FAIL_CERT :
							   IKE_FAIL_AUTH,
			   WIRE_N_AUTHENTICATION_FAILED, j->why, j->msgid);
	else if (!conn || conn->view_rc[j->left_is_local])
		refuse(sa, WIRE_N_AUTHENTICATION_FAILED,
		       "the conn changed while the peer was authenticated",
		       j->msgid);
	else
		answer(sa, &conn->view[j->left_is_local], j);
	auth_job_free(j);
}

void ike_auth_request(struct ike_sa *sa, struct msg_in *in, uint32_t msgid)
{
	struct auth_job *j = auth_job_new();
	struct ikb_error err = { "" };
	struct ike_failure f;
	struct conn_view v;

	if (!j) {
		ike_sa_log(sa, IKB_LOG_ERR, "IKE_AUTH: out of memory");
		return;
	}
	auth_peer_note(sa, in->m);
	failure_from_sa(&f, sa, IKE_FAIL_OTHER, WIRE_EXCH_IKE_AUTH);
	if (authenticate(sa, in->m, &v, j, &f, &err) ||
	    auth_job_sign(j, sa, &v, ike_sa_id_text(&sa->remote_id), &err)) {
		refuse_why(sa, &f, f.kind, WIRE_N_AUTHENTICATION_FAILED,
			   err.msg, msgid);
		auth_job_free(j);
		return;
	}
	j->msgid = msgid;
	j->left_is_local = v.left_is_local;
	msg_in_take(&j->in, in);
	auth_job_start(sa, j, authenticated);
}
