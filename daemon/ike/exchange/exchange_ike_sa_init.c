// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IKE_SA_INIT (RFC 7296 §1.2): SA, KE, nonces, NAT detection, and the
 * stateless answers that keep a responder cheap: COOKIE (§2.6) and
 * INVALID_KE_PAYLOAD (§1.3) create no state.
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

#define MAX_COOKIE_RETRIES 3

/* RFC 7427 hash algorithms SHA2-256, SHA2-384, SHA2-512. */
static const uint8_t sig_hashes[] = { 0, 2, 0, 3, 0, 4 };

/* b's old bytes freed, room for len new ones; b->len is still 0. */
static int bytes_alloc(struct ike_bytes *b, size_t len)
{
	free(b->ptr);
	b->len = 0;
	b->ptr = malloc(len ? len : 1);
	return b->ptr ? 0 : -ENOMEM;
}

int ike_bytes_set(struct ike_bytes *b, const void *p, size_t len)
{
	int rc = bytes_alloc(b, len);

	if (!rc) {
		memcpy(b->ptr, p, len);
		b->len = len;
	}
	return rc;
}

int ike_bytes_random(struct ike_bytes *b, size_t len, struct crypto_err *err)
{
	int rc = bytes_alloc(b, len);

	if (!rc)
		rc = rng_bytes(b->ptr, len, err);
	if (!rc)
		b->len = len;
	return rc;
}

/*
 * The tail both roles send: NAT detection, RFC 7427 and, unless
 * fragmentation=no, RFC 7383 (the responder only after the initiator).
 */
void init_add_status(struct wire_msg *m, const struct ike_sa *sa,
		     uint8_t src[20], uint8_t dst[20])
{
	nat_add_notifies(m, sa, src, dst);
	msg_notify(m, WIRE_N_SIGNATURE_HASH_ALGORITHMS, sig_hashes,
		   sizeof(sig_hashes));
	if (frag_offer(sa))
		msg_notify(m, WIRE_N_IKEV2_FRAGMENTATION_SUPPORTED, NULL, 0);
}

struct init_out {
	struct wire_msg m;
	struct wire_sa_store store;
	uint8_t src[20], dst[20];
};

static int first_group(const struct ikb_proposal_list *l)
{
	const struct ikb_transform *ke =
		l->n ? prop_xf(&l->p[0], IKB_XF_KE) : NULL;

	return ke ? ke->id : -1;
}

static int build_request(struct ike_sa *sa, const struct ikb_proposal_list *l,
			 struct wbuf *out)
{
	struct init_out *o = calloc(1, sizeof(*o));
	struct wire_payload *p;
	struct cbytes pub = ke_public(sa->init->ke);
	int rc;

	if (!o)
		return -ENOMEM;
	msg_hdr(&o->m, sa, WIRE_EXCH_IKE_SA_INIT, false, 0);
	if (sa->init->cookie.ptr) /* §2.6: the COOKIE goes first */
		msg_notify(&o->m, WIRE_N_COOKIE, sa->init->cookie.ptr,
			   sa->init->cookie.len);
	p = msg_add(&o->m, WIRE_PT_SA);
	rc = wire_sa_from_proposals(&o->store, l, 1, NULL, 0, &p->u.sa);
	p = msg_add(&o->m, WIRE_PT_KE);
	p->u.ke = (struct wire_ke){ sa->ke_group, pub.ptr, pub.len };
	p = msg_add(&o->m, WIRE_PT_NONCE);
	p->u.nonce = (struct wire_opaque){ sa->ni.ptr, sa->ni.len };
	init_add_status(&o->m, sa, o->src, o->dst);
	if (oe_vid_conn(engine_conn(sa->e, sa->conn)))
		oe_vid_add(&o->m);
	if (!rc)
		rc = msg_emit(&o->m, out);
	free(o);
	return rc;
}

static int send_init(struct ike_sa *sa, struct ikb_error *err)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct ikb_proposal_list *l = malloc(sizeof(*l));
	struct wbuf out;
	int rc = l && conn ? 0 : -ENOENT;

	wbuf_init(&out, 0);
	if (!rc)
		rc = conn_proposals(conn, IKB_PROTO_IKE, l, err);
	if (!rc)
		rc = build_request(sa, l, &out);
	if (!rc)
		rc = ike_bytes_set(&sa->init->req, out.data, out.len);
	if (!rc)
		rc = dgram_set_wrap(&out);
	if (!rc)
		rc = rtx_request(sa, &out, 0);
	wbuf_free(&out);
	free(l);
	return rc;
}

static void on_key_pair(struct ike_sa *sa, int rc, const char *why)
{
	struct ikb_error err = { "" };

	if (rc)
		ike_sa_delete(sa, why);
	else if (send_init(sa, &err))
		ike_sa_delete(sa, err.msg[0] ? err.msg : "cannot send");
}

int ike_sa_init_start(struct ike_sa *sa, struct ikb_error *err)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct ikb_proposal_list *l = malloc(sizeof(*l));
	struct crypto_err cerr = { 0 };
	int rc = l && conn ? 0 : -ENOENT;

	if (!rc)
		rc = conn_proposals(conn, IKB_PROTO_IKE, l, err);
	if (!rc && !sa->ke_group && first_group(l) <= 0) {
		snprintf(err->msg, sizeof(err->msg), "ike= has no KE group");
		rc = -EINVAL;
	}
	if (!rc && !sa->ke_group)
		sa->ke_group = (uint16_t)first_group(l);
	if (!rc && !sa->ni.len)
		rc = ike_bytes_random(&sa->ni, IKE_NONCE_LEN, &cerr);
	free(l);
	if (rc)
		return rc;
	/* a COOKIE restart keeps the key pair, a new group needs one */
	if (sa->init->ke)
		return send_init(sa, err);
	return keys_start(sa, NULL, on_key_pair, err);
}

/* Initiator ------------------------------------------------------------ */

static void restart(struct ike_sa *sa, const char *why)
{
	struct ikb_error err = { "" };

	ike_sa_log(sa, IKB_LOG_INFO, "%s: sending IKE_SA_INIT again", why);
	if (ike_sa_init_start(sa, &err))
		ike_sa_delete(sa, err.msg[0] ? err.msg : "cannot restart");
}

static void on_invalid_ke(struct ike_sa *sa, const struct wire_notify *n,
			  const struct ikb_proposal_list *ours)
{
	char why[96];
	uint16_t g;

	if (n->len != 2) {
		ike_sa_log(
			sa, IKB_LOG_WARNING,
			"INVALID_KE_PAYLOAD without a 2-octet group: ignored");
		return;
	}
	g = (uint16_t)(n->data[0] << 8 | n->data[1]);
	if (!ke_retry(&sa->init->ke_retry, n, sa->ke_group, ours)) {
		snprintf(
			why, sizeof(why),
			"INVALID_KE_PAYLOAD asks for group %u, which we cannot use",
			g);
		failure_answered(sa, WIRE_EXCH_IKE_SA_INIT,
				 WIRE_N_INVALID_KE_PAYLOAD, ours, why);
		ike_sa_delete(sa, why);
		return;
	}
	sa->ke_group = g;
	ke_free(sa->init->ke);
	sa->init->ke = NULL;
	snprintf(why, sizeof(why), "peer wants KE group %u", g);
	restart(sa, why);
}

/* COOKIE, INVALID_KE_PAYLOAD or another error: restarted or deleted. */
static void init_refused(struct ike_sa *sa, const struct wire_notify *n,
			 const struct ikb_proposal_list *ours)
{
	char why[96], b[32];

	if (n->type == WIRE_N_COOKIE) {
		if (++sa->init->cookie_tries > MAX_COOKIE_RETRIES ||
		    ike_bytes_set(&sa->init->cookie, n->data, n->len))
			ike_sa_delete(sa, "too many COOKIE requests");
		else
			restart(sa, "responder asks for a COOKIE");
		return;
	}
	if (n->type == WIRE_N_INVALID_KE_PAYLOAD) {
		on_invalid_ke(sa, n, ours);
		return;
	}
	snprintf(why, sizeof(why), "peer answered %s",
		 wire_notify_text(n->type, b, sizeof(b)));
	failure_answered(sa, WIRE_EXCH_IKE_SA_INIT, n->type, ours, why);
	ike_sa_delete(sa, why);
}

/* Our IKE proposals, or NULL: the SA is deleted. Caller frees. */
static struct ikb_proposal_list *our_proposals(struct ike_sa *sa)
{
	struct ikb_proposal_list *ours = calloc(1, sizeof(*ours));
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct ikb_error err = { "" };

	if (ours && conn && !conn_proposals(conn, IKB_PROTO_IKE, ours, &err))
		return ours;
	ike_sa_delete(sa, !conn	     ? "conn was removed" :
			  err.msg[0] ? err.msg :
				       "out of memory");
	free(ours);
	return NULL;
}

/* Tried again, or the IKE SA is gone: never over as an exchange. */
bool ike_sa_init_refused(struct ike_sa *sa, const struct wire_notify *n)
{
	struct ikb_proposal_list *ours = our_proposals(sa);

	if (ours)
		init_refused(sa, n, ours);
	free(ours);
	return false;
}

static int accept_response(struct ike_sa *sa, const struct wire_msg *m,
			   const struct expected *x,
			   const struct ikb_proposal_list *ours,
			   struct ikb_error *err)
{
	struct ikb_proposal_list *got = calloc(1, sizeof(*got));
	uint8_t nums[IKB_PROPOSALS_MAX];
	void *st;
	const struct ikb_proposals_ops *ops = engine_proposals(sa->e, &st);
	struct ikb_proposal chosen;
	unsigned num;
	int rc = -EBADMSG;

	if (!got)
		return -ENOMEM;
	if (x->nonce->len < 16 || x->nonce->len > 256)
		snprintf(err->msg, sizeof(err->msg),
			 "Nonce payload: length %zu is not 16..256",
			 x->nonce->len);
	else if (x->ke->group != sa->ke_group)
		snprintf(err->msg, sizeof(err->msg),
			 "KE payload: group %u, we sent %u", x->ke->group,
			 sa->ke_group);
	else if (wire_sa_to_proposals(x->sa, got, nums) <= 0 || got->n != 1 ||
		 ops->select(st, ours, got, &chosen, &num, err) ||
		 ike_prop_keep(&sa->prop, &chosen, NULL))
		snprintf(
			err->msg, sizeof(err->msg),
			"SA payload: the responder chose a proposal we did not offer");
	else
		rc = 0;
	if (!rc && ike_bytes_set(&sa->nr, x->nonce->data, x->nonce->len)) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		rc = -ENOMEM;
	}
	if (!rc)
		memcpy(sa->spi_r, m->hdr.spi_r, 8);
	free(got);
	return rc;
}

static void on_keys(struct ike_sa *sa, int rc, const char *why)
{
	ke_free(sa->init->ke); /* the ephemeral key pair has done its job */
	sa->init->ke = NULL;
	if (rc)
		ike_sa_delete(sa, why);
	else if (ike_auth_start(sa))
		ike_sa_delete(sa, "cannot start IKE_AUTH");
}

/* IKE_AUTH follows, or the IKE SA is gone: never over as an exchange. */
bool ike_sa_init_response(struct ike_sa *sa, struct msg_in *in,
			  const struct expected *x)
{
	const struct wire_msg *m = in->m;
	struct ikb_proposal_list *ours = our_proposals(sa);
	struct ikb_error err = { "" };

	if (!ours) {
		/* deleted */
	} else if (accept_response(sa, m, x, ours, &err)) {
		ike_sa_delete(sa, err.msg);
	} else {
		rtx_done(sa);
		sa->next_req_msgid = 1;
		nat_check(sa, m);
		nat_float(sa, m);
		auth_peer_note(sa, m);
		frag_note(sa, m);
		if (ike_bytes_set(&sa->init->resp, in->raw, in->raw_len) ||
		    keys_start(sa, x->ke, on_keys, &err))
			ike_sa_delete(sa, err.msg[0] ? err.msg :
						       "cannot derive keys");
	}
	free(ours);
	return false;
}
