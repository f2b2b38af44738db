// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IKE_AUTH (RFC 7296 §1.2, §2.15), the initiator; the responder is
 * exchange_ike_auth_r.c and the Child SA part child_negotiate.c. Each
 * role runs in two halves around the authentication job (auth_job.c):
 * the request goes out once our AUTH is signed, and the response is
 * acted on once the responder's certificate and signature are verified.
 * An initiator that cannot authenticate the responder deletes the SA;
 * its Child SA never reaches the kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ike/auth/auth.h"
#include "ike/status/status.h"
#include "ike/child/child.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/events.h"
#include "ike/exchange/exchange.h"
#include "ike/path/path.h"
#include "ike/msg/msg.h"
#include "ike/exchange/task.h"

struct auth_out *auth_out_new(void)
{
	struct auth_out *o = calloc(1, sizeof(*o));

	if (o && child_out_init(&o->child)) {
		free(o);
		return NULL;
	}
	return o;
}

void auth_out_free(struct auth_out *o)
{
	if (!o)
		return;
	child_out_fini(&o->child);
	free(o);
}

void ike_auth_log_up(struct ike_sa *sa)
{
	const struct peer_cert *pc = sa->peer_cert;

	if (pc)
		ike_sa_log(
			sa, IKB_LOG_NOTICE,
			"IKE SA established with %s (%s; certificate \"%s\" issued by \"%s\")",
			ike_sa_id_text(&sa->remote_id), sa->peer_auth.method,
			pc->subject, pc->issuer);
	else
		ike_sa_log(sa, IKB_LOG_NOTICE,
			   "IKE SA established with %s (%s)",
			   ike_sa_id_text(&sa->remote_id),
			   sa->peer_auth.method ? sa->peer_auth.method : "PSK");
}

/* ID, CERT (and CERTREQ in a request), AUTH: both roles' start. */
void auth_out_id_auth(struct auth_out *o, const struct ike_sa *sa,
		      const struct conn_view *v, const struct auth_job *j)
{
	struct wire_payload *p =
		msg_add(&o->m, sa->initiator ? WIRE_PT_IDI : WIRE_PT_IDR);

	p->u.id = (struct wire_typed){ sa->local_id.type,
				       ike_sa_id_data(&sa->local_id),
				       sa->local_id.len };
	auth_add_certs(&o->m, v, sa);
	if (sa->initiator)
		auth_add_certreq(&o->m, v);
	p = msg_add(&o->m, WIRE_PT_AUTH);
	p->u.auth = (struct wire_typed){ j->method, j->data, j->len };
}

static int send_request(struct ike_sa *sa, const struct auth_job *j,
			struct ikb_error *err)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct auth_out *o = auth_out_new();
	struct conn_view v;
	struct ike_id rid;
	struct ikb_error scratch;
	struct wbuf out;
	int rc = o ? 0 : -ENOMEM;

	if (!rc && !conn) {
		snprintf(err->msg, sizeof(err->msg), "conn was removed");
		rc = -ENOENT;
	}
	if (!rc)
		rc = conn_view_local(sa->e, conn, &v, err);
	if (!rc) {
		auth_out_id_auth(o, sa, &v, j);
		if (unique_initial_contact(
			    sa, id_local(&v.remote, &rid, &scratch) ? NULL :
								      rid.text))
			msg_notify(&o->m, WIRE_N_INITIAL_CONTACT, NULL, 0);
		mobike_offer(&o->m, sa, NULL);
		rc = child_offer(sa, &v, &o->m, &o->child, err);
	}
	wbuf_init(&out, 0);
	if (!rc) {
		msg_hdr(&o->m, sa, WIRE_EXCH_IKE_AUTH, false,
			sa->next_req_msgid);
		rc = msg_emit_sk(sa, &o->m, &out);
	}
	if (!rc)
		rc = rtx_request(sa, &out, sa->next_req_msgid++);
	wbuf_free(&out);
	auth_out_free(o);
	return rc;
}

/* Our AUTH is ready: the request goes out. */
static void auth_start_failed(struct ike_sa *sa, const char *why)
{
	struct ike_failure f;

	failure_from_sa(&f, sa, IKE_FAIL_AUTH, WIRE_EXCH_IKE_AUTH);
	failure_detail(&f, why);
	failure_file(sa->e, &f);
}

static void signed_request(struct ike_sa *sa, struct auth_job *j)
{
	struct ikb_error err = { "" };

	int rc = j->rc;

	if (sa && !rc && (rc = send_request(sa, j, &err)) && !err.msg[0])
		snprintf(err.msg, sizeof(err.msg), "cannot build the request");
	if (sa && j->rc)
		snprintf(err.msg, sizeof(err.msg), "%.250s", j->why);
	if (sa && rc) {
		ike_sa_log(sa, IKB_LOG_ERR, "IKE_AUTH: %s", err.msg);
		auth_start_failed(sa, err.msg);
		ike_sa_delete(sa, err.msg);
	}
	auth_job_free(j);
}

int ike_auth_start(struct ike_sa *sa)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct exchange *x = exchange_new(sa, OUT_AUTH);
	struct auth_job *j = x ? auth_job_new() : NULL;
	struct ikb_error err = { "" };
	struct conn_view v;
	struct ike_id rid;
	int rc = j && conn ? 0 : -ENOMEM;

	if (!rc)
		rc = conn_view_local(sa->e, conn, &v, &err);
	if (!rc)
		rc = ike_sa_set_local_id(sa, &v.local, &err);
	if (!rc)
		rc = auth_job_sign(j, sa, &v,
				   id_local(&v.remote, &rid, &err) ? NULL :
								     rid.text,
				   &err);
	if (rc) {
		ike_sa_log(sa, IKB_LOG_ERR, "IKE_AUTH: %s",
			   err.msg[0] ? err.msg : "cannot build the request");
		/* our own side cannot authenticate: a PSK or key missing */
		auth_start_failed(sa, err.msg[0] ? err.msg :
						   "cannot build the request");
		exchange_end(sa);
		auth_job_free(j);
		return rc;
	}
	/* IKE_AUTH is under way: recorded by its exchange (OUT_AUTH) */
	auth_job_start(sa, j, signed_request);
	return 0;
}

/* The responder is authenticated: the Child SA goes into the kernel. */
static void established(struct ike_sa *sa, struct auth_job *j)
{
	struct child_sa *c = exchange_take_child(sa);
	struct ike_sa *stays;
	bool with_child;

	exchange_end(sa);
	sa->peer_cert = j->pc;
	j->pc = NULL;
	sa->peer_auth.method = j->peer_how;
	ike_sa_set_state(sa, IKE_SA_ESTABLISHED);
	ike_auth_log_up(sa);
	mobike_note(sa, j->in.m);
	/* the peer's answer brings the Child SA, or an error for it */
	with_child = c && wire_find(j->in.m, WIRE_PT_SA) &&
		     !wire_first_error(j->in.m);
	stays = unique_mark(sa, false, with_child);
	if (stays) {
		/* the conn is up, through the IKE SA that stays */
		engine_outcome(sa, 0, NULL, stays->children);
		if (c)
			child_sa_free(sa, c);
		unique_crossed(sa, with_child, stays);
		return;
	}
	child_accept(sa, c, j->in.m);
	unique_sweep(sa);
	ike_sa_established(sa);
}

static void checked_response(struct ike_sa *sa, struct auth_job *j)
{
	if (sa && j->rc) {
		struct ike_failure f;

		failure_from_sa(&f, sa,
				j->fail_kind == IKE_FAIL_CERT ? IKE_FAIL_CERT :
								IKE_FAIL_AUTH,
				WIRE_EXCH_IKE_AUTH);
		failure_detail(&f, j->why);
		failure_file(sa->e, &f);
		exchange_end(sa); /* its Child SA was never installed */
		auth_failed_tell(sa);
		ike_sa_delete(sa, j->why);
	} else if (sa)
		established(sa, j);
	auth_job_free(j);
}

static int check_response(struct ike_sa *sa, const struct wire_msg *m,
			  const struct expected *x, struct auth_job *j,
			  struct ike_failure *f, struct ikb_error *err)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct conn_view v;
	struct ike_id peer;

	id_from_wire(x->idr, &peer);
	if (!conn || conn_view_local(sa->e, conn, &v, err))
		return -ENOENT;
	if (!id_accepts(&v.remote, &peer)) {
		snprintf(err->msg, sizeof(err->msg),
			 "peer's ID %.100s is not the rightid= of the conn",
			 peer.text);
		failure_id(f, sa, &peer);
		return -EPERM;
	}
	f->kind = IKE_FAIL_AUTH;
	if (auth_job_check(j, sa, &v, m, x->auth, &peer, err))
		return -EPERM;
	if (ike_sa_set_remote_id(sa, &peer)) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* IKE_AUTH failed at the responder, or ours at checking its answer. */
static void auth_failed(struct ike_sa *sa, struct ike_failure *f,
			const char *why)
{
	failure_detail(f, why);
	failure_file(sa->e, f);
	ike_sa_delete(sa, why);
}

/*
 * The responder refused the IKE SA (§2.21.2): AUTHENTICATION_FAILED, or
 * any other error that is not about the Child SA alone (expect.c), an
 * unknown one too (§3.10.1: the request failed entirely).
 */
bool ike_auth_refused(struct ike_sa *sa, const struct wire_notify *n)
{
	char why[96], b[32];

	snprintf(why, sizeof(why), "peer answered %s",
		 wire_notify_text(n->type, b, sizeof(b)));
	failure_answered(sa, WIRE_EXCH_IKE_AUTH, n->type, NULL, why);
	ike_sa_delete(sa, why);
	return false;
}

/* The signature job ends the exchange (or the IKE SA): false. */
bool ike_auth_response(struct ike_sa *sa, struct msg_in *in,
		       const struct expected *x)
{
	struct auth_job *j = auth_job_new();
	struct ikb_error err = { "" };
	struct ike_failure f;

	if (!j) {
		ike_sa_delete(sa, "out of memory");
		return false;
	}
	auth_peer_note(sa, in->m);
	failure_from_sa(&f, sa, IKE_FAIL_OTHER, WIRE_EXCH_IKE_AUTH);
	if (check_response(sa, in->m, x, j, &f, &err)) {
		auth_failed(sa, &f,
			    err.msg[0] ? err.msg : "cannot check IKE_AUTH");
		auth_job_free(j);
		return false;
	}
	/* the exchange, with its Child SA, stays until the job is done */
	msg_in_take(&j->in, in);
	auth_job_start(sa, j, checked_response);
	return false;
}
