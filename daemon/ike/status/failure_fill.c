// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filling a failure record: what the IKE SA knows of itself, and for
 * proposals both lists and the pair that came closest. "Closest" is the
 * pair (one offered proposal, one of ours, same protocol) that agrees on
 * the most transform types; a type agrees when the two share one
 * transform (id and key length) or both have none. What differs is what
 * the operator changes, so that is what the record names.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/msg/msg.h"
#include "ike/status/failure.h"
#include "wire/wire.h"

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

static void remote_of(struct ike_failure *f, const struct ike_path *p)
{
	char a[64];

	if (!p || !p->remote.family)
		return;
	addr_str(&p->remote, a, sizeof(a));
	/* an IPv6 address with its port fits; cut, it would still say */
	if (snprintf(f->remote, sizeof(f->remote), "%s:%u", a, p->rport) < 0)
		f->remote[0] = '\0';
}

void failure_from_path(struct ike_failure *f, const char *conn,
		       const struct ike_path *p, enum ike_fail_kind kind,
		       uint8_t exchange)
{
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->when = time(NULL);
	f->exchange = exchange;
	copy(f->conn, sizeof(f->conn), conn);
	remote_of(f, p);
}

void failure_from_sa(struct ike_failure *f, const struct ike_sa *sa,
		     enum ike_fail_kind kind, uint8_t exchange)
{
	failure_from_path(f, sa->conn, &sa->path, kind, exchange);
	f->serial = sa->serial;
	f->initiator = sa->initiator;
	f->retransmits = sa->rtx.tries;
	copy(f->auth, sizeof(f->auth), sa->peer_auth.method);
}

void failure_detail(struct ike_failure *f, const char *why)
{
	copy(f->detail, sizeof(f->detail), why);
}

/* Appends "sep" and s to buf (of len), truncating. */
static void cat(char *buf, size_t len, const char *sep, const char *s)
{
	size_t off = strlen(buf);

	/* a cut list still names its first proposals */
	if (off < len &&
	    snprintf(buf + off, len - off, "%s%s", off ? sep : "", s) < 0)
		buf[off] = '\0';
}

static bool xf_none(const struct ikb_transform *x);
static void of_type(const struct ikb_proposal *p, uint8_t type, char *buf,
		    size_t len);

/*
 * One proposal by transform type (ENCR, PRF, INTEG, KE, ESN), whatever
 * order the peer sent them in, so that two sides read alike.
 */
static void render_one(const struct ikb_proposal *p, char *buf, size_t len)
{
	char t[IKE_FAIL_TEXT];

	buf[0] = '\0';
	for (uint8_t type = IKB_XF_ENCR; type <= IKB_XF_ESN; type++) {
		bool any = false;

		for (unsigned i = 0; i < p->n; i++)
			any |= p->xf[i].type == type && !xf_none(&p->xf[i]);
		if (!any)
			continue;
		of_type(p, type, t, sizeof(t));
		cat(buf, len, "-", t);
	}
}

static void render_list(const struct ikb_proposal_list *l, char *buf,
			size_t len)
{
	char one[IKE_FAIL_TEXT];

	buf[0] = '\0';
	for (unsigned i = 0; l && i < l->n; i++) {
		render_one(&l->p[i], one, sizeof(one));
		cat(buf, len, "|", one);
	}
}

static bool xf_none(const struct ikb_transform *x)
{
	return x->type == IKB_XF_INTEG && x->id == 0;
}

static bool has(const struct ikb_proposal *p, const struct ikb_transform *x)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->xf[i].type == x->type && p->xf[i].id == x->id &&
		    p->xf[i].key_bits == x->key_bits)
			return true;
	return false;
}

/* Whether p has a transform of type other than "none". */
static bool has_type(const struct ikb_proposal *p, uint8_t type)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->xf[i].type == type && !xf_none(&p->xf[i]))
			return true;
	return false;
}

static bool type_agrees(const struct ikb_proposal *a,
			const struct ikb_proposal *b, uint8_t type)
{
	if (!has_type(a, type) && !has_type(b, type))
		return true;
	for (unsigned i = 0; i < a->n; i++)
		if (a->xf[i].type == type && !xf_none(&a->xf[i]) &&
		    has(b, &a->xf[i]))
			return true;
	return false;
}

/* Bit per transform type (1 << type) on which a and b differ. */
static unsigned differs(const struct ikb_proposal *a,
			const struct ikb_proposal *b)
{
	unsigned d = 0;

	for (uint8_t t = IKB_XF_ENCR; t <= IKB_XF_ESN; t++)
		if (!type_agrees(a, b, t))
			d |= 1u << t;
	return d;
}

/* The transforms of p of type, "A/B", or "none". */
static void of_type(const struct ikb_proposal *p, uint8_t type, char *buf,
		    size_t len)
{
	buf[0] = '\0';
	for (unsigned i = 0; i < p->n; i++) {
		const struct ikb_transform *x = &p->xf[i];
		const char *n = wire_xform_id_name(x->type, x->id);
		char one[48];

		if (x->type != type || xf_none(x))
			continue;
		if (x->key_bits)
			snprintf(one, sizeof(one), "%s_%u", n ? n : "?",
				 x->key_bits);
		else
			snprintf(one, sizeof(one), "%s", n ? n : "?");
		cat(buf, len, "/", one);
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

static unsigned popcount(unsigned v)
{
	return (unsigned)__builtin_popcount(v);
}

unsigned failure_proposals(struct ike_failure *f,
			   const struct ikb_proposal_list *peer,
			   const struct ikb_proposal_list *local)
{
	unsigned best = ~0u, bi = 0, bj = 0;

	render_list(peer, f->peer, sizeof(f->peer));
	render_list(local, f->local, sizeof(f->local));
	for (unsigned i = 0; peer && local && i < peer->n; i++)
		for (unsigned j = 0; j < local->n; j++) {
			unsigned d;

			if (peer->p[i].protocol != local->p[j].protocol)
				continue;
			d = differs(&peer->p[i], &local->p[j]);
			if (best == ~0u || popcount(d) < popcount(best)) {
				best = d;
				bi = i;
				bj = j;
			}
		}
	f->closest[0] = '\0';
	if (best == ~0u)
		return 0;
	for (uint8_t t = IKB_XF_ENCR; t <= IKB_XF_ESN; t++) {
		char a[128], b[128], line[300];

		if (!(best & (1u << t)))
			continue;
		of_type(&peer->p[bi], t, a, sizeof(a));
		of_type(&local->p[bj], t, b, sizeof(b));
		snprintf(line, sizeof(line), "%s: peer %s, here %s",
			 wire_xform_type_name(t), a, b);
		cat(f->closest, sizeof(f->closest), "; ", line);
	}
	return best;
}

void failure_id(struct ike_failure *f, const struct ike_sa *sa,
		const struct ike_id *presented)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct ikb_error err = { "" };
	struct conn_view v;

	f->kind = IKE_FAIL_ID;
	copy(f->peer, sizeof(f->peer), presented->text);
	if (!conn || conn_view_local(sa->e, conn, &v, &err))
		return;
	if (v.remote.id)
		copy(f->local, sizeof(f->local), v.remote.id);
	else if (v.remote.addr.family)
		addr_str(&v.remote.addr, f->local, sizeof(f->local));
	else
		copy(f->local, sizeof(f->local), "%any");
}

enum ike_fail_kind failure_kind_of(uint16_t notify, uint8_t exchange)
{
	switch (notify) {
	case WIRE_N_NO_PROPOSAL_CHOSEN:
		return exchange == WIRE_EXCH_IKE_SA_INIT ?
			       IKE_FAIL_IKE_PROPOSAL :
			       IKE_FAIL_ESP_PROPOSAL;
	case WIRE_N_INVALID_KE_PAYLOAD:
		return exchange == WIRE_EXCH_IKE_SA_INIT ?
			       IKE_FAIL_IKE_PROPOSAL :
			       IKE_FAIL_PFS_GROUP;
	case WIRE_N_TS_UNACCEPTABLE:
		return IKE_FAIL_TS;
	case WIRE_N_AUTHENTICATION_FAILED:
		return IKE_FAIL_PEER_AUTH;
	default:
		return IKE_FAIL_NOTIFY;
	}
}

void failure_answered(struct ike_sa *sa, uint8_t exchange, uint16_t notify,
		      const struct ikb_proposal_list *ours, const char *why)
{
	struct ike_failure f;

	failure_from_sa(&f, sa, failure_kind_of(notify, exchange), exchange);
	f.notify_received = notify;
	if (ours)
		failure_proposals(&f, NULL, ours);
	failure_detail(&f, why);
	failure_file(sa->e, &f);
}
