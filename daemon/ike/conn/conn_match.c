// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which conn an incoming IKE SA belongs to, as libreswan decides it:
 * first by addresses (our side must be the address the request reached,
 * the peer's side that address or %any; an exact peer address beats
 * %any), then, once IKE_AUTH reveals the peer's ID, by that ID among the
 * conns that match the addresses as well, preferring one that allows the
 * way the peer authenticated (a conn for anonymous peers beside one for
 * peers with certificates, say), then one that pins no other certificate
 * than the one the peer sent, and then one whose traffic selectors
 * take the peer's TSi and TSr as offered: conns between the same hosts
 * that differ in their protocol and port alone (ovs-monitor-ipsec's
 * NAME-in-N and NAME-out-N, udp/6081 at one end or the other) are told
 * apart by the TS of the request, as libreswan switches to the conn the
 * traffic selectors fit.
 */
#include <string.h>
#include <strings.h>

#include "crypto/cred.h"
#include "crypto/sig.h"
#include "ike/engine.h"
#include "config/groups.h"
#include "ike/child/ts.h"
#include "ike/conn/conn.h"

/*
 * Every IKE_SA_INIT and IKE_AUTH request looks for its conn among all of
 * them: with 1,000 conns that is 2,000 views per request, so the views
 * are the compiled ones (conn_compile.c), and a view is only compared.
 */

/* 0: no match, 1: peer %any, 2: exact. */
static int score(const struct conn *c, int side, const struct ike_path *p)
{
	const struct conn_view *v = &c->view[side];

	if (c->view_rc[side])
		return 0;
	if (!v->local.addr.family || !ike_addr_equal(&v->local.addr, &p->local))
		return 0;
	/* %any, a name not resolved yet, or an opportunistic group's */
	if (!v->remote.addr.family)
		return v->remote.host.kind == IKE_HOST_ADDR ||
		       (v->remote.host.kind == IKE_HOST_GROUP &&
			conn_group_has(c, &p->remote));
	return ike_addr_equal(&v->remote.addr, &p->remote) ? 2 : 0;
}

/* AUTHM_* that may have made an AUTH payload of this method. */
static unsigned authm_of(uint8_t method)
{
	switch (method) {
	case AUTH_PSK:
		return AUTHM_PSK;
	case AUTH_NULL:
		return AUTHM_NULL;
	case AUTH_RSA_SIG:
		return AUTHM_RSA;
	case AUTH_ECDSA_256:
	case AUTH_ECDSA_384:
	case AUTH_ECDSA_521:
		return AUTHM_ECDSA;
	default:
		return AUTHM_SIG; /* 14: the certificate's key says */
	}
}

/* Whether name is c's, or of one of its instances (GROUP#ADDRESS). */
static bool is_or_has(const struct conn *c, const char *name)
{
	size_t n = strlen(c->name);

	return !strncmp(name, c->name, n) &&
	       (!name[n] || (name[n] == '#' && c->grp_side >= 0));
}

/* The longest of c's group networks that holds a; -1: none, or no group. */
static int group_plen(const struct conn *c, const struct ikb_addr *a)
{
	int best = -1;

	for (unsigned i = 0; c->grp_side >= 0 && i < c->ngrp; i++)
		if (c->grp[i].plen > best &&
		    cfg_prefix_has(&c->grp[i].a, c->grp[i].plen, a))
			best = c->grp[i].plen;
	return best;
}

/*
 * Between two conns that score alike, the group with the more specific
 * network for the peer, as libreswan (and the kernel's traps: the
 * longer prefix has the lower priority number) choose.
 */
static bool more_specific(const struct conn *c, const struct conn *than,
			  const struct ikb_addr *peer)
{
	return than && than->grp_side >= 0 &&
	       group_plen(c, peer) > group_plen(than, peer);
}

struct pick {
	const struct ike_path *p;
	const struct conn_match_req *q; /* NULL: by the addresses alone */
	const struct conn *found;
	int top, at;
};

/*
 * Whether the view's rightcert=, if any, is the certificate the peer
 * sent: ovs-monitor-ipsec leaves a conn that pins a peer's self-signed
 * certificate beside a new one for the same peer and IDs that takes its
 * CA-signed one (rightca=), and the pin must not take that peer.
 */
static bool cert_fits(const struct conn *c, int side, const struct pick *k)
{
	const struct cred *pin = c->view[side].remote.auth.cred;

	return !pin || !k->q->cert ||
	       (pin->nchain && pin->chain[0].len == k->q->cert_len &&
		!memcmp(pin->chain[0].ptr, k->q->cert, k->q->cert_len));
}

/*
 * Whether one of the Child SAs the view plans takes the request's TSi and
 * TSr exactly as offered (our side is TSr's). A view with several
 * subnets per side is not compared: it only scores as before.
 */
static bool ts_fit(const struct conn *c, int side, const struct pick *k)
{
	const struct conn_plan *plan = &c->plan[side];
	struct ikb_selector out;

	if (c->plan_rc[side] || c->view[side].local.nnets > 1 ||
	    c->view[side].remote.nnets > 1)
		return false;
	for (unsigned i = 0; i < plan->n; i++) {
		struct ikb_selector ours = plan->c[i].ts;

		ts_fill_dynamic(&ours, k->p);
		if (!ts_select(&ours, k->q->tsr, k->q->tsi, true, &out))
			return true;
	}
	return false;
}

/* One view, against the best so far. */
static void try_view(struct pick *k, const struct conn *c, int side)
{
	int sc;

	if (c->ignored || c->shunt != IKB_POLICY_IPSEC)
		return; /* a shunt is never negotiated */
	const struct conn_match_req *q = k->q;

	sc = score(c, side, k->p);
	if (!sc || !q)
		goto scored;
	if (!id_accepts(&c->view[side].remote, q->peer))
		sc = 0;
	/* the conn chosen at IKE_SA_INIT wins a tie */
	if (sc && q->current && is_or_has(c, q->current))
		sc += 2;
	/* over that, one whose selectors take the request's as offered */
	if (sc && q->tsi && q->tsr && ts_fit(c, side, k))
		sc += 4;
	/* over those, one whose pinned certificate is not another one */
	if (sc && cert_fits(c, side, k))
		sc += 8;
	/* over all, a conn that takes the peer's AUTH */
	if (sc && q->auth_method &&
	    (c->view[side].remote.auth.methods & authm_of(q->auth_method)))
		sc += 16;
scored:
	if (sc > k->top ||
	    (sc && sc == k->top && more_specific(c, k->found, &k->p->remote))) {
		k->top = sc;
		k->found = c;
		k->at = side;
	}
}

/* The best address match, and with q, the best for what q tells. */
static const struct conn *best(const struct ike_engine *e,
			       const struct ike_path *p,
			       const struct conn_match_req *q,
			       struct conn_view *out)
{
	const struct conn_set *set = e->conns;
	struct pick k = { p, q, NULL, 0, 0 };
	const struct conn_index_ent *x;
	const struct conn *found;
	size_t n;

	/* the views of conns in order, left as local first, as they were
	 * always tried: only those that may have p's local address */
	if (set && set->by_local) {
		x = conn_index_find(set, &p->local, &n);
		for (size_t i = 0; i < n; i++)
			try_view(&k, &set->conns[x[i].conn], x[i].side);
	} else if (set) {
		for (size_t i = 0; i < set->n; i++)
			for (int side = 1; side >= 0; side--)
				try_view(&k, &set->conns[i], side);
	}
	found = k.found;

	/* a group's peer is its instance, GROUP#ADDRESS */
	if (found && found->grp_side >= 0)
		found = conn_instance(e, found, &p->remote);
	if (found)
		*out = found->view[k.at];
	return found;
}

const struct conn *conn_match_addr(const struct ike_engine *e,
				   const struct ike_path *p,
				   struct conn_view *v)
{
	return best(e, p, NULL, v);
}

const struct conn *conn_match_id(const struct ike_engine *e,
				 const struct ike_path *p,
				 const struct conn_match_req *q,
				 struct conn_view *v)
{
	return best(e, p, q, v);
}
