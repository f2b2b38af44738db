// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IKE_SA_INIT, responder side. Order matters for a cheap responder: the
 * half-open limit and the COOKIE gate come before any proposal work, and
 * no state exists until the request is acceptable as it stands.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/engine.h"
#include "ike/status/status.h"
#include "ike/auth/auth.h"
#include "ike/conn/conn.h"
#include "ike/msg/msg.h"
#include "ike/exchange/exchange.h"
#include "ike/path/path.h"
#include "log/log.h"

struct resp_out {
	struct wire_msg m;
	struct wire_sa_store store;
	struct ikb_proposal_list one;
	uint8_t src[20], dst[20];
};

/* What the request offers, checked before any SA exists. */
struct init_req {
	const struct wire_msg *m;
	const struct wire_payload *sa, *ke, *ni;
	const struct conn *conn;
	struct ikb_proposal chosen;
	uint8_t num; /* the accepted proposal's wire number */
};

static bool gates(struct ike_engine *e, const struct ike_path *p,
		  const struct wire_msg *m)
{
	uint8_t ck[IKE_COOKIE_LEN];
	const struct wire_payload *ni = wire_find(m, WIRE_PT_NONCE);

	switch (halfopen_admit(e, &p->remote)) {
	case HALFOPEN_FULL:
		log_wire_drop(p, "max-halfopen-ike reached", NULL);
		return false;
	case HALFOPEN_SOURCE_FULL:
		log_wire_drop(p, "too many half-open IKE SAs from this address",
			      NULL);
		return false;
	case HALFOPEN_OK:
		return true;
	case HALFOPEN_COOKIE:
		break;
	}
	if (cookie_valid(e, m, p))
		return true;
	if (!ni || cookie_make(e, e->cookie_version, &ni->u.nonce, &p->remote,
			       m->hdr.spi_i, ck))
		log_wire_drop(p, "no Nonce to make a COOKIE from", NULL);
	else
		msg_reply_notify(e, p, &m->hdr, WIRE_N_COOKIE, ck, sizeof(ck));
	return false;
}

/* 0, or the notify to answer with (0 after logging: drop). */
static uint16_t choose(struct ike_engine *e, const struct ike_path *p,
		       struct init_req *r)
{
	struct ikb_proposal_list *ours = calloc(1, sizeof(*ours));
	struct ikb_proposal_list *offered = calloc(1, sizeof(*offered));
	uint8_t nums[IKB_PROPOSALS_MAX];
	struct ikb_error err = { "" };
	void *st;
	const struct ikb_proposals_ops *ops = engine_proposals(e, &st);
	unsigned num = 0;
	uint16_t n = WIRE_N_NO_PROPOSAL_CHOSEN;

	if (ours && offered &&
	    !conn_proposals(r->conn, IKB_PROTO_IKE, ours, &err) &&
	    wire_sa_to_proposals(&r->sa->u.sa, offered, nums) > 0 &&
	    !ops->select(st, ours, offered, &r->chosen, &num, &err) && num &&
	    num <= offered->n && ike_prop_fits(&r->chosen, &err)) {
		r->num = nums[num - 1];
		n = 0;
	}
	if (n) {
		struct ike_failure f;

		log_warn("conn %s: IKE_SA_INIT: %s", r->conn->name,
			 err.msg[0] ? err.msg : "no acceptable proposal");
		failure_from_path(&f, r->conn->name, p, IKE_FAIL_IKE_PROPOSAL,
				  WIRE_EXCH_IKE_SA_INIT);
		if (ours && offered)
			failure_proposals(&f, offered, ours);
		f.notify_sent = n;
		failure_detail(&f, err.msg[0] ? err.msg :
						"no acceptable proposal");
		failure_file(e, &f);
	}
	free(ours);
	free(offered);
	return n;
}

static int build_response(struct ike_sa *sa, struct wbuf *out)
{
	struct resp_out *o = calloc(1, sizeof(*o));
	struct wire_payload *p;
	struct cbytes pub = ke_public(sa->init->ke);
	int rc;

	if (!o)
		return -ENOMEM;
	msg_hdr(&o->m, sa, WIRE_EXCH_IKE_SA_INIT, true, 0);
	o->one.n = 1;
	ike_prop_widen(&sa->prop, &o->one.p[0]);
	p = msg_add(&o->m, WIRE_PT_SA);
	rc = wire_sa_from_proposals(&o->store, &o->one, sa->prop_num, NULL, 0,
				    &p->u.sa);
	p = msg_add(&o->m, WIRE_PT_KE);
	p->u.ke = (struct wire_ke){ sa->ke_group, pub.ptr, pub.len };
	p = msg_add(&o->m, WIRE_PT_NONCE);
	p->u.nonce = (struct wire_opaque){ sa->nr.ptr, sa->nr.len };
	init_add_status(&o->m, sa, o->src, o->dst);
	auth_add_certreq_conn(&o->m, engine_conn(sa->e, sa->conn));
	if (!rc)
		rc = msg_emit(&o->m, out);
	free(o);
	return rc;
}

/* The key exchange is done: answer, and keep the answer for retransmits. */
static void on_keys(struct ike_sa *sa, int rc, const char *why)
{
	struct wbuf out;

	wbuf_init(&out, 0);
	if (rc) {
		ike_sa_log(sa, IKB_LOG_WARNING, "IKE_SA_INIT: %s", why);
	} else {
		rc = build_response(sa, &out);
		if (!rc)
			rc = ike_bytes_set(&sa->init->resp, out.data, out.len);
		if (!rc)
			rc = dgram_set_wrap(&out);
		if (!rc)
			rc = rtx_respond(sa, &out, 0);
	}
	ke_free(sa->init->ke);
	sa->init->ke = NULL;
	wbuf_free(&out);
	if (rc)
		ike_sa_delete(sa, "cannot answer IKE_SA_INIT");
}

static int respond(struct ike_sa *sa, const struct init_req *r,
		   const uint8_t *buf, size_t len)
{
	struct crypto_err cerr = { 0 };
	struct ikb_error err = { "" };
	int rc;

	ike_prop_keep(&sa->prop, &r->chosen, NULL); /* choose() checked it */
	sa->prop_num = r->num;
	sa->ke_group = r->ke->u.ke.group;
	sa->next_peer_msgid = 1;
	nat_check(sa, r->m);
	auth_peer_note(sa, r->m);
	frag_note(sa, r->m);
	rc = ike_bytes_set(&sa->ni, r->ni->u.nonce.data, r->ni->u.nonce.len);
	if (!rc)
		rc = ike_bytes_random(&sa->nr, IKE_NONCE_LEN, &cerr);
	if (!rc)
		rc = ike_bytes_set(&sa->init->req, buf, len);
	if (!rc && (rc = keys_start(sa, &r->ke->u.ke, on_keys, &err)))
		ike_sa_log(sa, IKB_LOG_WARNING, "IKE_SA_INIT: %s", err.msg);
	return rc;
}

static bool payloads(const struct ike_path *p, struct init_req *r)
{
	char why[96];
	uint16_t notify;

	/* no state yet: a request that lacks one is dropped, not answered */
	if (!expect_ok(r->m, false, EXPECT_ANY, &notify, why, sizeof(why))) {
		log_wire_drop(p, why, NULL);
		return false;
	}
	r->sa = wire_find(r->m, WIRE_PT_SA);
	r->ke = wire_find(r->m, WIRE_PT_KE);
	r->ni = wire_find(r->m, WIRE_PT_NONCE);
	if (r->ni->u.nonce.len < 16 || r->ni->u.nonce.len > 256) {
		log_wire_drop(p, "Nonce payload: length is not 16..256", NULL);
		return false;
	}
	return true;
}

static void handle(struct ike_engine *e, const struct ike_path *p,
		   struct init_req *r, const uint8_t *buf, size_t len)
{
	struct conn_view v;
	struct ike_sa *sa;
	uint16_t n, g;

	if (!payloads(p, r))
		return;
	/* libreswan's drop-oppo-null: before the COOKIE gate's work */
	if (e->conns && e->conns->drop_oppo_null && oe_vid_in(r->m)) {
		log_wire_drop(p,
			      "opportunistic IKE_SA_INIT (Vendor ID \"Opportunistic IPsec\"): drop-oppo-null=yes",
			      NULL);
		return;
	}
	if (!gates(e, p, r->m))
		return;
	r->conn = conn_match_addr(e, p, &v);
	if (!r->conn) {
		log_wire_drop(p, "IKE_SA_INIT: no conn for these addresses",
			      NULL);
		msg_reply_notify(e, p, &r->m->hdr, WIRE_N_NO_PROPOSAL_CHOSEN,
				 NULL, 0);
		return;
	}
	if ((n = choose(e, p, r))) {
		msg_reply_notify(e, p, &r->m->hdr, n, NULL, 0);
		return;
	}
	if (!prop_xf(&r->chosen, IKB_XF_KE)) {
		log_wire_drop(p, "IKE_SA_INIT: chosen proposal has no KE",
			      NULL);
		msg_reply_notify(e, p, &r->m->hdr, WIRE_N_NO_PROPOSAL_CHOSEN,
				 NULL, 0);
		return;
	}
	g = prop_xf(&r->chosen, IKB_XF_KE)->id;
	if (r->ke->u.ke.group != g) {
		uint8_t data[2] = { (uint8_t)(g >> 8), (uint8_t)g };

		log_info(
			"conn %s: IKE_SA_INIT: KE group %u sent, %u chosen: INVALID_KE_PAYLOAD",
			r->conn->name, r->ke->u.ke.group, g);
		msg_reply_notify(e, p, &r->m->hdr, WIRE_N_INVALID_KE_PAYLOAD,
				 data, 2);
		return;
	}
	sa = ike_sa_new(e, r->conn->name, p, r->m->hdr.spi_i);
	if (!sa)
		return;
	conn_timing(r->conn, &sa->rtx.interval_ms, &sa->rtx.timeout_ms);
	if (respond(sa, r, buf, len))
		ike_sa_delete(sa, "cannot answer IKE_SA_INIT");
}

void ike_sa_init_request(struct ike_engine *e, const struct ike_path *p,
			 const struct ike_dgram *dg)
{
	const uint8_t *buf = dg->buf;
	size_t len = dg->len;
	struct wire_msg *m;
	struct wire_error werr;
	struct ike_sa *sa = ike_sa_find_init(e, dg->hdr.spi_i, &p->remote);
	struct init_req r = { 0 };

	if (sa) {
		/* the same request again: the same answer, no new SA */
		if (sa->job)
			log_debug(
				"IKE_SA_INIT retransmit while its key exchange runs: dropped");
		else if (sa->rtx.resp && sa->rtx.resp_msgid == 0)
			rtx_replay(sa);
		else
			log_wire_drop(p, "IKE_SA_INIT for an SA past it", NULL);
		return;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return;
	if (wire_parse_body(m, &dg->hdr, buf, len, NULL, &werr))
		log_wire_drop(p, "malformed IKE_SA_INIT request", &werr);
	else if (m->hdr.msgid != 0)
		log_wire_drop(p, "IKE_SA_INIT request with message id not 0",
			      NULL);
	else {
		r.m = m;
		handle(e, p, &r, buf, len);
	}
	free(m);
}
