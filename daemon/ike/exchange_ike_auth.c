// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IKE_AUTH with a pre-shared key (RFC 7296 §1.2, §2.15), both roles. The
 * Child SA part lives in child_negotiate.c. A responder that cannot
 * authenticate the peer answers AUTHENTICATION_FAILED and keeps the SA
 * only to resend that answer from its response cache until the
 * initiator's retransmits would have stopped; an initiator that cannot
 * authenticate the responder deletes it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ike/child_sa.h"
#include "ike/engine.h"
#include "ike/events.h"
#include "ike/conn.h"
#include "ike/msg.h"
#include "ike/exchange.h"
#include "ike/tasks.h"

#define AUTH_SHARED_KEY_MIC 2

struct auth_out {
	struct wire_msg m;
	struct child_out child;
	uint8_t auth[64];
	size_t auth_len;
};

static struct auth_out *auth_out_new(void)
{
	struct auth_out *o = calloc(1, sizeof(*o));

	if (o && child_out_init(&o->child)) {
		free(o);
		return NULL;
	}
	return o;
}

static void auth_out_free(struct auth_out *o)
{
	if (!o)
		return;
	child_out_fini(&o->child);
	free(o);
}

/* Our AUTH payload, for the ID we send. */
static int sign(struct ike_sa *sa, const char *remote_text, struct auth_out *o,
		struct ikb_error *err)
{
	const uint8_t *psk;
	size_t psk_len;

	if (psk_lookup(sa->e, sa->local_id.text, remote_text, &psk, &psk_len)) {
		snprintf(err->msg, sizeof(err->msg),
			 "no PSK in the secrets for %.100s and %.100s",
			 sa->local_id.text, remote_text ? remote_text : "%any");
		return -ENOENT;
	}
	return auth_psk_compute(sa, sa->initiator, &sa->local_id, psk, psk_len,
				o->auth, &o->auth_len, err);
}

static bool equal_ct(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint8_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

/* The peer's AUTH payload, for the peer's ID. */
static int verify(struct ike_sa *sa, const struct ike_id *peer,
		  const struct wire_typed *auth, struct ikb_error *err)
{
	uint8_t want[64];
	size_t len;
	const uint8_t *psk;
	size_t psk_len;

	if (auth->type != AUTH_SHARED_KEY_MIC) {
		snprintf(
			err->msg, sizeof(err->msg),
			"AUTH payload: method %u, only shared key (2) is supported",
			auth->type);
		return -EPERM;
	}
	if (psk_lookup(sa->e, sa->local_id.text, peer->text, &psk, &psk_len)) {
		snprintf(err->msg, sizeof(err->msg),
			 "no PSK in the secrets for %.100s and %.100s",
			 sa->local_id.text, peer->text);
		return -ENOENT;
	}
	if (auth_psk_compute(sa, !sa->initiator, peer, psk, psk_len, want, &len,
			     err))
		return -EPERM;
	if (auth->len != len || !equal_ct(want, auth->data, len)) {
		snprintf(err->msg, sizeof(err->msg),
			 "AUTH payload of %.100s does not verify (wrong PSK?)",
			 peer->text);
		return -EPERM;
	}
	return 0;
}

static void add_id_auth(struct auth_out *o, const struct ike_sa *sa,
			uint8_t id_type)
{
	struct wire_payload *p = msg_add(&o->m, id_type);

	p->u.id = (struct wire_typed){ sa->local_id.type, sa->local_id.data,
				       sa->local_id.len };
	p = msg_add(&o->m, WIRE_PT_AUTH);
	p->u.auth = (struct wire_typed){ AUTH_SHARED_KEY_MIC, o->auth,
					 o->auth_len };
}

static int send_request(struct ike_sa *sa, struct auth_out *o)
{
	struct wbuf out;
	int rc;

	wbuf_init(&out, 0);
	msg_hdr(&o->m, sa, WIRE_EXCH_IKE_AUTH, false, sa->next_req_msgid);
	rc = msg_emit_sk(sa, &o->m, &out);
	if (!rc)
		rc = rtx_request(sa, &out, sa->next_req_msgid++);
	wbuf_free(&out);
	return rc;
}

int ike_auth_start(struct ike_sa *sa)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct exchange *x = exchange_new(sa, OUT_AUTH);
	struct auth_out *o = x ? auth_out_new() : NULL;
	struct ikb_error err = { "" };
	struct conn_view v;
	struct ike_id rid;
	int rc = o && conn ? 0 : -ENOMEM;

	if (!rc)
		rc = conn_view_local(sa->e, conn, &v, &err);
	if (!rc)
		rc = id_local(&v.local, &sa->local_id, &err);
	if (!rc)
		rc = sign(sa, id_local(&v.remote, &rid, &err) ? NULL : rid.text,
			  o, &err);
	if (!rc) {
		add_id_auth(o, sa, WIRE_PT_IDI);
		if (unique_initial_contact(sa))
			msg_notify(&o->m, WIRE_N_INITIAL_CONTACT, NULL, 0);
		rc = child_offer(sa, &v, &o->m, &o->child, &err);
	}
	if (!rc)
		rc = send_request(sa, o);
	if (rc) {
		ike_sa_log(sa, IKB_LOG_ERR, "IKE_AUTH: %s",
			   err.msg[0] ? err.msg : "cannot build the request");
		exchange_end(sa);
	} else {
		ike_sa_set_state(sa, IKE_SA_AUTH_I);
	}
	auth_out_free(o);
	return rc;
}

/* Responder ------------------------------------------------------------ */

/* Authenticate the initiator; 0, or a notify with err filled. */
static uint16_t authenticate(struct ike_sa *sa, const struct wire_msg *m,
			     struct conn_view *v, struct ikb_error *err)
{
	const struct wire_payload *idi = wire_find(m, WIRE_PT_IDI);
	const struct wire_payload *auth = wire_find(m, WIRE_PT_AUTH);
	const struct conn *conn;
	struct ike_id peer;

	/* there: expect.c */
	id_from_wire(&idi->u.id, &peer);
	conn = conn_match_id(sa->e, &sa->path, &peer, sa->conn, v);
	if (!conn) {
		snprintf(err->msg, sizeof(err->msg),
			 "no conn accepts peer ID %.100s", peer.text);
		return WIRE_N_AUTHENTICATION_FAILED;
	}
	if (strcmp(conn->name, sa->conn))
		ike_sa_set_conn(sa, conn->name);
	if (id_local(&v->local, &sa->local_id, err) ||
	    verify(sa, &peer, &auth->u.auth, err))
		return WIRE_N_AUTHENTICATION_FAILED;
	sa->remote_id = peer;
	return 0;
}

void ike_auth_request(struct ike_sa *sa, const struct wire_msg *m,
		      uint32_t msgid)
{
	struct auth_out *o = auth_out_new();
	struct ikb_error err = { "" };
	struct conn_view v;
	struct ike_sa *stays;
	uint16_t n;

	if (!o) {
		ike_sa_log(sa, IKB_LOG_ERR, "IKE_AUTH: out of memory");
		return;
	}
	n = authenticate(sa, m, &v, &err);
	if (!n && sign(sa, sa->remote_id.text, o, &err))
		n = WIRE_N_AUTHENTICATION_FAILED;
	if (n) {
		ike_sa_log(sa, IKB_LOG_WARNING, "IKE_AUTH: %s: answering %s",
			   err.msg, wire_notify_name(n));
		msg_notify(&o->m, n, NULL, 0);
		msg_respond_sk(sa, &o->m, WIRE_EXCH_IKE_AUTH, msgid);
		ike_sa_linger(sa, sa->rtx.timeout_ms);
		goto out;
	}
	ike_sa_set_state(sa, IKE_SA_ESTABLISHED);
	ike_sa_log(sa, IKB_LOG_NOTICE, "IKE SA established with %s (%s)",
		   sa->remote_id.text, "PSK");
	/* the old SAs go once the new Child SA has their policies */
	stays = unique_mark(sa, wire_find_notify(m, WIRE_N_INITIAL_CONTACT));
	add_id_auth(o, sa, WIRE_PT_IDR);
	if (stays && wire_find(m, WIRE_PT_SA))
		msg_notify(&o->m, WIRE_N_NO_ADDITIONAL_SAS, NULL, 0);
	else if (!stays)
		child_respond(sa, &v, m, &o->m, &o->child);
	msg_respond_sk(sa, &o->m, WIRE_EXCH_IKE_AUTH, msgid);
	if (stays) {
		unique_crossed(sa, stays);
		goto out;
	}
	unique_sweep(sa);
	events_ike_up(sa, sa->children, NULL);
	ike_sa_established(sa);
out:
	auth_out_free(o);
}

/* Initiator ------------------------------------------------------------ */

static int check_response(struct ike_sa *sa, const struct wire_msg *m,
			  struct ikb_error *err)
{
	const struct wire_payload *idr = wire_find(m, WIRE_PT_IDR);
	const struct wire_payload *auth = wire_find(m, WIRE_PT_AUTH);
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct conn_view v;
	struct ike_id peer;

	if (wire_find_notify(m, WIRE_N_AUTHENTICATION_FAILED)) {
		snprintf(err->msg, sizeof(err->msg),
			 "peer answered AUTHENTICATION_FAILED");
		return -EPERM;
	}
	/* IDr and AUTH are there: expect.c */
	id_from_wire(&idr->u.id, &peer);
	if (!conn || conn_view_local(sa->e, conn, &v, err))
		return -ENOENT;
	if (!id_accepts(&v.remote, &peer)) {
		snprintf(err->msg, sizeof(err->msg),
			 "peer's ID %.100s is not the rightid= of the conn",
			 peer.text);
		return -EPERM;
	}
	if (verify(sa, &peer, &auth->u.auth, err))
		return -EPERM;
	sa->remote_id = peer;
	return 0;
}

void ike_auth_response(struct ike_sa *sa, const struct wire_msg *m)
{
	struct child_sa *c = NULL;
	struct ike_sa *stays;
	struct ikb_error err = { "" };

	/* the exchange ends here; its Child SA is ours to settle */
	c = exchange_take_child(sa);
	exchange_end(sa);
	if (check_response(sa, m, &err)) {
		if (c)
			child_sa_free(sa, c);
		ike_sa_delete(sa, err.msg);
		return;
	}
	ike_sa_set_state(sa, IKE_SA_ESTABLISHED);
	ike_sa_log(sa, IKB_LOG_NOTICE, "IKE SA established with %s (%s)",
		   sa->remote_id.text, "PSK");
	stays = unique_mark(sa, false);
	if (stays) {
		/* the conn is up, through the IKE SA that stays */
		engine_outcome(sa, 0, NULL, stays->children);
		if (c)
			child_sa_free(sa, c);
		unique_crossed(sa, stays);
		return;
	}
	child_accept(sa, c, m);
	unique_sweep(sa);
	ike_sa_established(sa);
}
