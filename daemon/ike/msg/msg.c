// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building, protecting and opening messages: the glue between the codec
 * (which never decrypts) and crypto's SK payload. Every drop is logged
 * with the codec's or crypto's sentence naming the payload and field.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/msg/frag.h"
#include "ike/msg/msg.h"
#include "ike/path/path.h"
#include "ike/timers.h"
#include "log/log.h"

const char *addr_str(const struct ikb_addr *a, char *buf, size_t len)
{
	if (!inet_ntop(a->family, a->bytes, buf, (socklen_t)len))
		snprintf(buf, len, "%%any");
	return buf;
}

/* Anyone can send garbage: one line per datagram, but not a flood. */
static struct log_ratelimit drop_rl = { .per_sec = 50,
					.what = "dropped messages" };

void log_wire_drop_rate(unsigned per_sec)
{
	drop_rl.per_sec = per_sec;
}

void log_wire_drop(const struct ike_path *p, const char *why,
		   const struct wire_error *err)
{
	char a[64];

	if (!log_ratelimit_ok(&drop_rl))
		return;
	log_warn("dropped message from %s:%u: %s%s%s",
		 addr_str(&p->remote, a, sizeof(a)), p->rport, why,
		 err ? ": " : "", err ? err->msg : "");
}

struct wire_payload *msg_add(struct wire_msg *m, uint8_t type)
{
	struct wire_payload *p;

	if (m->n >= WIRE_MAX_PAYLOADS)
		return &m->pl[WIRE_MAX_PAYLOADS - 1]; /* emit will fail */
	p = &m->pl[m->n++];
	memset(p, 0, sizeof(*p));
	p->type = type;
	p->known = true;
	return p;
}

void msg_notify(struct wire_msg *m, uint16_t type, const void *data, size_t len)
{
	struct wire_payload *p = msg_add(m, WIRE_PT_NOTIFY);

	p->u.notify.type = type;
	p->u.notify.data = data;
	p->u.notify.len = len;
}

void msg_hdr(struct wire_msg *m, const struct ike_sa *sa, uint8_t exch,
	     bool response, uint32_t msgid)
{
	memset(&m->hdr, 0, sizeof(m->hdr));
	memcpy(m->hdr.spi_i, sa->spi_i, 8);
	memcpy(m->hdr.spi_r, sa->spi_r, 8);
	m->hdr.exchange = exch;
	m->hdr.flags = (sa->initiator ? WIRE_FLAG_I : 0) |
		       (response ? WIRE_FLAG_R : 0);
	m->hdr.msgid = msgid;
}

int msg_emit(const struct wire_msg *m, struct wbuf *out)
{
	struct wire_error werr;
	int rc = wire_emit(m, out, NULL, &werr);

	if (rc)
		log_err("cannot build %s message: %s",
			wire_exchange_name(m->hdr.exchange), werr.msg);
	return rc;
}

int msg_seal(struct ike_sa *sa, const struct wire_hdr *hdr, uint8_t first,
	     const uint8_t *pt, size_t pt_len, uint16_t num, uint16_t total,
	     struct wbuf *out)
{
	struct wire_msg *o = calloc(1, sizeof(*o));
	struct wire_emit_info info;
	struct wire_error werr;
	struct wire_payload *sk;
	struct crypto_err cerr = { 0 };
	int rc;

	if (!o)
		return -ENOMEM;
	o->hdr = *hdr;
	sk = msg_add(o, num ? WIRE_PT_SKF : WIRE_PT_SK);
	sk->u.sk.inner_type = first;
	sk->u.sk.frag_num = num;
	sk->u.sk.frag_total = total;
	sk->u.sk.body_len = sk_sealed_len(sa->sk_out, pt_len);
	rc = wire_emit(o, out, &info, &werr);
	if (rc)
		ike_sa_log(sa, IKB_LOG_ERR, "cannot build message: %s",
			   werr.msg);
	else if ((rc = sk_seal(sa->sk_out, CBYTES(out->data, info.sk_body_off),
			       /* an empty INFORMATIONAL has no payloads */
			       CBYTES(pt ? pt : (const uint8_t *)"", pt_len),
			       out->data + info.sk_body_off, info.sk_body_len,
			       &cerr)))
		ike_sa_log(sa, IKB_LOG_ERR, "cannot encrypt: %s", cerr.msg);
	free(o);
	return rc;
}

/* Too large for the path whole, and the peer reassembles (RFC 7383)? */
static bool fragment(const struct ike_sa *sa, size_t pt_len)
{
	size_t whole = WIRE_HDR_LEN + WIRE_GENERIC_LEN +
		       sk_sealed_len(sa->sk_out, pt_len);

	return sa->frag && whole > frag_limit(sa);
}

int msg_emit_sk(struct ike_sa *sa, const struct wire_msg *m, struct wbuf *out)
{
	struct wbuf pt;
	struct wire_error werr;
	uint8_t first = WIRE_PT_NONE;
	int rc = 0;

	wbuf_init(&pt, 0);
	if (m->n)
		rc = wire_emit_chain(m->pl, m->n, &pt, &first, &werr);
	if (rc)
		ike_sa_log(sa, IKB_LOG_ERR, "cannot build %s message: %s",
			   wire_exchange_name(m->hdr.exchange), werr.msg);
	else if (fragment(sa, pt.len))
		rc = frag_seal(sa, m, pt.data, pt.len, first, out);
	else if (!(rc = msg_seal(sa, &m->hdr, first, pt.data, pt.len, 0, 0,
				 out)))
		rc = dgram_set_wrap(out);
	if (pt.data)
		secret_wipe(pt.data, pt.cap);
	wbuf_free(&pt);
	return rc;
}

int msg_sk_decrypt(const struct ike_sa *sa, const uint8_t *buf,
		   const struct wire_payload *sk, uint8_t *plain, size_t *len,
		   struct crypto_err *cerr)
{
	/* the AAD runs from the header to the SK or SKF payload's body */
	struct cbytes aad = CBYTES(buf, sk->u.sk.msg_off + sk->u.sk.hdr_len);
	struct cbytes body = CBYTES(sk->u.sk.body, sk->u.sk.body_len);

	return sk_open(sa->sk_in, aad, body, plain, len, cerr);
}

static int open_body(struct ike_sa *sa, struct wire_msg *m, const uint8_t *buf,
		     const struct wire_payload *sk, uint8_t *plain)
{
	struct wire_error werr;
	struct crypto_err cerr = { 0 };
	size_t pt_len;

	if (msg_sk_decrypt(sa, buf, sk, plain, &pt_len, &cerr)) {
		char why[256];

		snprintf(why, sizeof(why), "SK payload: %s",
			 cerr.msg[0] ? cerr.msg : "integrity check failed");
		log_wire_drop(&sa->path, why, NULL);
		return -EBADMSG;
	}
	if (wire_parse_payloads(m, plain, pt_len, sk->u.sk.inner_type, &werr)) {
		log_wire_drop(&sa->path, "inside SK", &werr);
		return -EBADMSG;
	}
	return 0;
}

/*
 * RFC 7296 §2.11: answer from the address and port a request came to, to
 * the ones it came from; §2.23: the ports of the last authenticated message
 * are the SA's (a peer such as strongSwan with MOBIKE moves to 4500 even
 * without NAT), and so is the address of a peer behind a NAT (nat.h). Only
 * an authenticated message may move the SA, so this runs after the ICV has
 * been checked.
 */
static void adopt_path(struct ike_sa *sa)
{
	const struct ike_path *rx = &sa->rx_path;
	bool moved = !ike_addr_equal(&rx->remote, &sa->path.remote);

	if (rx->remote.family != sa->path.remote.family ||
	    (!moved && rx->lport == sa->path.lport &&
	     rx->rport == sa->path.rport))
		return;
	/* RFC 4555 §3.5: with MOBIKE only UPDATE_SA_ADDRESSES moves it */
	if (mobike_on(sa))
		return;
	/* lookup() let a new address through only for a peer behind a NAT
	 * (nat_may_move); its NAT mapped it anew: the Child SAs go along */
	if (moved || (nat_encap(sa) && rx->lport == sa->path.lport)) {
		nat_follow(sa, &rx->remote, rx->rport,
			   "an authenticated IKE message came from there");
		return;
	}
	ike_sa_log(sa, IKB_LOG_INFO,
		   "peer moved from port %u to %u (ours %u to %u)",
		   sa->path.rport, rx->rport, sa->path.lport, rx->lport);
	sa->path.lport = rx->lport;
	sa->path.rport = rx->rport;
}

/* A message whose integrity was checked: it may move the SA. */
static void authentic(struct ike_sa *sa)
{
	sa->last_recv_ms = mono_ms(); /* the peer is alive */
	adopt_path(sa);
}

/* An SKF payload: kept, or the last one of its message (RFC 7383). */
static int open_fragment(struct ike_sa *sa, struct wire_msg *m,
			 const uint8_t *buf, const struct wire_payload *skf,
			 uint8_t **plain)
{
	struct wire_error werr;
	uint8_t first;
	size_t len;
	int rc = frag_collect(sa, m, buf, skf, plain, &len, &first);

	if (rc != -EBADMSG && rc != -ENOMEM)
		authentic(sa); /* this fragment was */
	if (rc)
		return rc;
	if (wire_parse_payloads(m, *plain, len, first, &werr)) {
		log_wire_drop(&sa->path, "inside SKF (reassembled)", &werr);
		free(*plain);
		*plain = NULL;
		return -EBADMSG;
	}
	return 0;
}

bool msg_check_sk(struct ike_sa *sa, const struct ike_dgram *dg)
{
	const uint8_t *buf = dg->buf;
	struct wire_opts o = { sa->iv_len, sa->icv_len, sa->block_len };
	struct wire_msg *m = calloc(1, sizeof(*m));
	struct crypto_err cerr = { 0 };
	const struct wire_payload *sk;
	struct wire_error werr;
	uint8_t *pt = NULL;
	size_t pt_len;
	bool ok = false;

	if (!m || !sa->sk_in ||
	    wire_parse_body(m, &dg->hdr, buf, dg->len, &o, &werr)) {
		log_wire_drop(&sa->path, "retransmitted request: malformed",
			      m && sa->sk_in ? &werr : NULL);
		free(m);
		return false;
	}
	sk = wire_find(m, WIRE_PT_SK);
	if (!sk)
		sk = wire_find(m, WIRE_PT_SKF);
	if (sk)
		pt = malloc(sk->u.sk.body_len ? sk->u.sk.body_len : 1);
	if (pt)
		ok = !msg_sk_decrypt(sa, buf, sk, pt, &pt_len, &cerr);
	if (pt && !ok) {
		char why[320];

		snprintf(why, sizeof(why),
			 "retransmitted request: SK payload: %s",
			 cerr.msg[0] ? cerr.msg : "integrity check failed");
		log_wire_drop(&sa->path, why, NULL);
	} else if (!sk) {
		log_wire_drop(&sa->path,
			      "retransmitted request without an SK payload",
			      NULL);
	}
	if (pt && ok)
		explicit_bzero(pt, pt_len);
	free(pt);
	free(m);
	return ok;
}

int msg_open_sk(struct ike_sa *sa, struct wire_msg *m,
		const struct ike_dgram *dg, uint8_t **plain)
{
	const uint8_t *buf = dg->buf;
	struct wire_opts o = { sa->iv_len, sa->icv_len, sa->block_len };
	const struct wire_payload *sk;
	struct wire_error werr;

	*plain = NULL;
	if (!sa->sk_in) {
		log_wire_drop(&sa->path, "no keys yet for an encrypted message",
			      NULL);
		return -EBADMSG;
	}
	if (wire_parse_body(m, &dg->hdr, buf, dg->len, &o, &werr)) {
		log_wire_drop(&sa->path, "malformed", &werr);
		return -EBADMSG;
	}
	sk = wire_find(m, WIRE_PT_SK);
	if (!sk && (sk = wire_find(m, WIRE_PT_SKF)))
		return open_fragment(sa, m, buf, sk, plain);
	if (!sk) {
		log_wire_drop(&sa->path,
			      "no SK payload in an encrypted exchange", NULL);
		return -EBADMSG;
	}
	*plain = malloc(sk->u.sk.body_len);
	if (!*plain)
		return -ENOMEM;
	if (open_body(sa, m, buf, sk, *plain)) {
		free(*plain);
		*plain = NULL;
		return -EBADMSG;
	}
	authentic(sa);
	return 0;
}

int engine_send(struct ike_engine *e, const struct ike_path *p,
		const uint8_t *buf, size_t len)
{
	char a[64];
	int rc = e->io.send(e->io.ctx, p, buf, len);

	if (rc)
		log_warn("cannot send %zu bytes to %s:%u: %s", len,
			 addr_str(&p->remote, a, sizeof(a)), p->rport,
			 strerror(-rc));
	return rc;
}

int engine_keepalive(struct ike_engine *e, const struct ike_path *p)
{
	char a[64];
	int rc = e->io.keepalive ? e->io.keepalive(e->io.ctx, p) : -ENOTSUP;

	if (rc)
		log_warn("cannot send a NAT-keepalive to %s:%u: %s",
			 addr_str(&p->remote, a, sizeof(a)), p->rport,
			 strerror(-rc));
	return rc;
}

void msg_reply_notify(struct ike_engine *e, const struct ike_path *p,
		      const struct wire_hdr *req, uint16_t type,
		      const void *data, size_t len)
{
	struct wire_msg *m = calloc(1, sizeof(*m));
	struct wbuf out;

	if (!m)
		return;
	wbuf_init(&out, 0);
	memcpy(m->hdr.spi_i, req->spi_i, 8);
	m->hdr.exchange = req->exchange;
	m->hdr.flags = WIRE_FLAG_R;
	m->hdr.msgid = req->msgid;
	msg_notify(m, type, data, len);
	e->stats.cookies_sent += type == WIRE_N_COOKIE; /* gates() only */
	if (!msg_emit(m, &out))
		engine_send(e, p, out.data, out.len);
	wbuf_free(&out);
	free(m);
}

/* Encrypted requests and responses after IKE_AUTH. */
int msg_nonce(struct ike_sa *sa)
{
	return rng_bytes(sa->x->nonce, IKE_SA_NONCE_LEN, NULL);
}

int msg_request_sk(struct ike_sa *sa, struct wire_msg *m, uint8_t exch)
{
	struct wbuf out;
	int rc;

	wbuf_init(&out, 0);
	msg_hdr(m, sa, exch, false, sa->next_req_msgid);
	rc = msg_emit_sk(sa, m, &out);
	if (!rc)
		rc = rtx_request(sa, &out, sa->next_req_msgid++);
	wbuf_free(&out);
	return rc;
}

void msg_respond_sk(struct ike_sa *sa, struct wire_msg *m, uint8_t exch,
		    uint32_t msgid)
{
	struct wbuf out;

	wbuf_init(&out, 0);
	msg_hdr(m, sa, exch, true, msgid);
	if (!msg_emit_sk(sa, m, &out))
		rtx_respond(sa, &out, msgid);
	wbuf_free(&out);
}

void msg_respond_notify_sk(struct ike_sa *sa, uint8_t exch, uint16_t type,
			   uint32_t msgid)
{
	struct wire_msg *m = calloc(1, sizeof(*m));

	if (!m)
		return;
	msg_notify(m, type, NULL, 0);
	msg_respond_sk(sa, m, exch, msgid);
	free(m);
}

void msg_add_nonce_ke(struct wire_msg *m, const uint8_t *nonce,
		      const struct ke *ke)
{
	struct wire_payload *p = msg_add(m, WIRE_PT_NONCE);

	p->u.nonce = (struct wire_opaque){ nonce, IKE_SA_NONCE_LEN };
	if (ke) {
		struct cbytes pub = ke_public(ke);

		p = msg_add(m, WIRE_PT_KE);
		p->u.ke = (struct wire_ke){ ke_group(ke), pub.ptr, pub.len };
	}
}
