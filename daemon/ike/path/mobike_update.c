// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MOBIKE's address update (RFC 4555 §3.5). The host's addresses or
 * routes changed (net/ifaddr.c tells once a burst is over): each MOBIKE
 * IKE SA we initiated asks the routing table for its source address to
 * the peer, and when that is not the one in use sends an INFORMATIONAL
 * with UPDATE_SA_ADDRESSES, NAT_DETECTION notifies of the new path and a
 * COOKIE2 (§3.6) from the new address. The responder moves the IKE SA and
 * its Child SAs to where the request came from and answers with its own
 * NAT_DETECTION notifies; once the answer with our COOKIE2 is in, our
 * Child SAs follow. A NAT found or gone on the new path switches the
 * Child SAs' UDP encapsulation on or off as they move.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/msg/msg.h"
#include "ike/path/mobike.h"
#include "ike/path/nat.h"
#include "ike/path/path.h"
#include "ike/timers.h"
#include "log/log.h"

void ike_engine_addresses_changed(struct ike_engine *e)
{
	for (struct ike_sa *sa = e->all; sa; sa = sa->next_all) {
		if (!mobike_on(sa) || !sa->initiator ||
		    sa->state != IKE_SA_ESTABLISHED)
			continue;
		task_want(sa, TASK_MOBIKE);
		tasks_schedule(sa);
	}
}

/* What was, for status, once an update is done. */
static void updated(struct ike_sa *sa, const struct ike_path *old)
{
	struct ike_mobike *mb = sa->mobike;
	char a[64], b[64], c[64], d[64];

	mb->updates++;
	mb->last_update_ms = mono_ms();
	mb->prev_local = old->local;
	mb->prev_remote = old->remote;
	ike_sa_log(sa, IKB_LOG_NOTICE,
		   "MOBIKE: IKE SA moved from %s:%u - %s:%u to %s:%u - %s:%u%s",
		   addr_str(&old->local, a, sizeof(a)), old->lport,
		   addr_str(&old->remote, b, sizeof(b)), old->rport,
		   addr_str(&sa->path.local, c, sizeof(c)), sa->path.lport,
		   addr_str(&sa->path.remote, d, sizeof(d)), sa->path.rport,
		   sa->children ? "; its Child SAs follow" : "");
	child_sa_move_all(sa, old);
}

struct upd_out {
	struct wire_msg m;
	uint8_t nat[40];
};

static int update_start(struct ike_sa *sa, const struct ikb_addr *local)
{
	struct exchange *x = exchange_new(sa, OUT_MOBIKE);
	struct upd_out *o = x ? calloc(1, sizeof(*o)) : NULL;
	struct crypto_err cerr;
	int rc = o ? rng_bytes(x->cookie2, sizeof(x->cookie2), &cerr) : -1;

	if (!rc) {
		x->old_path = sa->path;
		sa->path.local = *local;
		msg_notify(&o->m, WIRE_N_UPDATE_SA_ADDRESSES, NULL, 0);
		memcpy(o->m.hdr.spi_i, sa->spi_i, 8);
		memcpy(o->m.hdr.spi_r, sa->spi_r, 8);
		nat_add_notifies(&o->m, sa, o->nat, o->nat + 20);
		msg_notify(&o->m, WIRE_N_COOKIE2, x->cookie2,
			   sizeof(x->cookie2));
		rc = msg_request_sk(sa, &o->m, WIRE_EXCH_INFORMATIONAL);
		if (rc)
			sa->path = x->old_path;
	}
	if (rc)
		exchange_end(sa);
	free(o);
	return rc;
}

static int source_now(struct ike_sa *sa, struct ikb_addr *now)
{
	struct ike_engine *e = sa->e;
	char a[64];
	int rc = e->io.source_for ?
			 e->io.source_for(e->io.ctx, &sa->path.remote, now) :
			 -ENOTSUP;

	if (rc)
		ike_sa_log(
			sa, IKB_LOG_WARNING,
			"MOBIKE: no source address towards %s (%s): we wait for the next address change",
			addr_str(&sa->path.remote, a, sizeof(a)),
			strerror(-rc));
	return rc;
}

int mobike_update(struct ike_sa *sa)
{
	struct ike_mobike *mb = sa->mobike;
	struct ikb_addr now;
	char a[64];

	if (!mb || source_now(sa, &now))
		return -1;
	if (ike_addr_equal(&now, &sa->path.local)) {
		ike_sa_log(sa, IKB_LOG_DEBUG,
			   "MOBIKE: addresses changed, the path did not");
		return -1;
	}
	if (update_start(sa, &now))
		return -1;
	ike_sa_log(
		sa, IKB_LOG_INFO,
		"MOBIKE: our address to the peer is now %s: sending UPDATE_SA_ADDRESSES",
		addr_str(&now, a, sizeof(a)));
	return 0;
}

/* Why the answer does not let us move, or NULL. */
static const char *refusal(const struct exchange *x, const struct wire_msg *m)
{
	const struct wire_notify *ck = wire_find_notify(m, WIRE_N_COOKIE2);

	if (wire_find_notify(m, WIRE_N_UNACCEPTABLE_ADDRESSES))
		return "the peer refuses our new address (UNACCEPTABLE_ADDRESSES)";
	if (wire_find_notify(m, WIRE_N_UNEXPECTED_NAT_DETECTED))
		return "the peer allows no NAT (UNEXPECTED_NAT_DETECTED)";
	if (!ck || ck->len != sizeof(x->cookie2) ||
	    memcmp(ck->data, x->cookie2, sizeof(x->cookie2)))
		return "the answer does not echo our COOKIE2 (RFC 4555 §3.6)";
	return NULL;
}

bool mobike_update_response(struct ike_sa *sa, struct msg_in *in,
			    const struct expected *got)
{
	const struct wire_msg *m = in->m;
	struct exchange *x = sa->x;
	const char *why = refusal(x, m);

	if (why) {
		ike_sa_log(
			sa, IKB_LOG_ERR,
			"MOBIKE: UPDATE_SA_ADDRESSES: %s: the SAs stay where they were",
			why);
		sa->path = x->old_path;
		return true;
	}
	nat_check(sa, m);
	mobike_peer_addrs(sa, m);
	updated(sa, &x->old_path);
	return true;
}

/* The initiator's UPDATE_SA_ADDRESSES: we go where it came from. */
static void follow(struct ike_sa *sa, const struct wire_msg *m,
		   struct wire_msg *resp, uint8_t nat[40])
{
	struct ike_path old = sa->path;

	if (sa->initiator) {
		ike_sa_log(
			sa, IKB_LOG_WARNING,
			"MOBIKE: UPDATE_SA_ADDRESSES from our responder: only the initiator moves (RFC 4555 §3.5), ignored");
		return;
	}
	sa->path = sa->rx_path;
	nat_check(sa, m);
	if (wire_find_notify(m, WIRE_N_NAT_DETECTION_SOURCE_IP)) {
		memcpy(resp->hdr.spi_i, sa->spi_i, 8);
		memcpy(resp->hdr.spi_r, sa->spi_r, 8);
		nat_add_notifies(resp, sa, nat, nat + 20);
	}
	if (!ike_path_equal(&old, &sa->path))
		updated(sa, &old);
	else
		ike_sa_log(
			sa, IKB_LOG_INFO,
			"MOBIKE: UPDATE_SA_ADDRESSES from where the IKE SA is: nothing moves");
}

void mobike_request(struct ike_sa *sa, const struct wire_msg *m,
		    struct wire_msg *resp, uint8_t nat[40])
{
	const struct wire_notify *ck = wire_find_notify(m, WIRE_N_COOKIE2);

	/* §3.6: echoed in any INFORMATIONAL (address checks carry one) */
	if (ck)
		msg_notify(resp, WIRE_N_COOKIE2, ck->data, ck->len);
	if (!mobike_on(sa))
		return;
	mobike_peer_addrs(sa, m);
	if (wire_find_notify(m, WIRE_N_UPDATE_SA_ADDRESSES))
		follow(sa, m, resp, nat);
}
