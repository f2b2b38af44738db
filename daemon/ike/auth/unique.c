// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One IKE SA per peer (uniqueids=, and INITIAL_CONTACT, RFC 7296 §2.4).
 *
 * A peer that restarted has lost its SAs, but ours still hold the conn's
 * policies: its new Child SA could not be installed (the kernel takes one
 * policy per selector) until our DPD gave the old IKE SA up, and without
 * dpddelay= never. So when a peer authenticates a new IKE SA as we
 * respond, the old ones go:
 * - with INITIAL_CONTACT, every IKE SA between the same two identities,
 *   of any conn, silently: the peer says it has none of them;
 * - with uniqueids=yes (the default, as in libreswan and strongSwan), the
 *   established IKE SAs of the same conn between the same identities,
 *   with a Delete, for a peer that re-authenticated and still has them.
 * uniqueids=no turns both off, for peers that share one identity.
 *
 * Both ends may also initiate the same conn at once (auto=start on both):
 * each IKE SA then finds the other established when it completes, on
 * each end in another order. "The newer wins" would keep a different one
 * on each end, and both Child SAs would be lost. So an IKE SA that was
 * established after the new one started crossed it, and the pair is
 * settled as RFC 7296 2.8.1 settles a simultaneous rekey: the one with
 * the lowest of the four nonces goes, the same one on both ends. Both
 * roles apply these rules, the initiator when the IKE_AUTH answer comes.
 * Before the nonces, the one that has a Child SA stays if the other has
 * none: a peer may refuse the Child SA of one of the two (libreswan does
 * when its own is under way), and keeping that IKE SA would leave the
 * conn up with no Child SA and nothing to ask for one. Both ends know
 * which one has it, so they still keep the same one.
 *
 * The old IKE SAs are only marked before the new Child SA is installed.
 * The Child SA takes over the reqid and policies of the old Child SA it
 * replaces (unique_takeover()), as a rekeyed Child SA does, so that the
 * selector is never without a policy (traffic would leave in clear) and
 * the new SAs carry the traffic from the moment they are in.
 *
 * Every SA these rules touch has the new SA's remote ID, so they walk
 * only the SAs of that ID (ike_sa_first_peer()), not all of them: with
 * 10,000 IKE SAs, five walks of every SA per new one were a third of
 * the time to bring them up.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "crypto/cert_id.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/exchange/exchange.h"
#include "ike/auth/auth.h"
#include "plugin/conf_load.h"

static bool uniqueids(const struct ike_engine *e)
{
	return !e->conns || e->conns->uniqueids;
}

/*
 * ID_NULL (RFC 7619) names nobody: every anonymous peer sends it. Such a
 * peer is the same one only from the same address, as after a restart.
 */
static bool same_peer(const struct ike_sa *a, const struct ike_sa *b)
{
	if ((a->remote_id.type == IKEV2_ID_NULL ||
	     b->remote_id.type == IKEV2_ID_NULL) &&
	    !ike_addr_equal(&a->path.remote, &b->path.remote))
		return false;
	return !strcmp(ike_sa_id_text(&a->local_id),
		       ike_sa_id_text(&b->local_id)) &&
	       !strcmp(ike_sa_id_text(&a->remote_id),
		       ike_sa_id_text(&b->remote_id));
}

static bool has_child(const struct ike_sa *sa)
{
	for (const struct child_sa *c = sa->children; c; c = c->next)
		if (c->state == CHILD_INSTALLED)
			return true;
	return false;
}

/*
 * Of two crossed SAs, one without a Child SA goes if the other has one;
 * else, as in RFC 7296 2.8.1, the one with the lowest nonce.
 */
static bool loses_to(const struct ike_sa *sa, bool with_child,
		     const struct ike_sa *o)
{
	if (with_child != has_child(o))
		return !with_child;
	struct nonce_pair a = { sa->ni.ptr, sa->ni.len, sa->nr.ptr,
				sa->nr.len };
	struct nonce_pair b = { o->ni.ptr, o->ni.len, o->nr.ptr, o->nr.len };

	return nonce_pair_lower(&a, &b);
}

/* The SAs that may have sa's peer: the others are never sa's to mark. */
static struct ike_sa *peers_of(const struct ike_sa *sa)
{
	return ike_sa_first_peer(sa->e, ike_sa_id_text(&sa->remote_id));
}

static void unmark(struct ike_sa *sa)
{
	for (struct ike_sa *o = peers_of(sa); o; o = o->next_peer)
		if (o->replaced_by == sa)
			o->replaced_by = NULL;
}

/*
 * The SAs sa replaces: IKE_AUTH authenticated the peer, nothing else ran.
 * NULL, or the crossed IKE SA that stays instead of sa: then sa goes.
 */
struct ike_sa *unique_mark(struct ike_sa *sa, bool initial_contact,
			   bool with_child)
{
	if (!uniqueids(sa->e))
		return NULL;
	for (struct ike_sa *o = peers_of(sa); o; o = o->next_peer) {
		bool gone = o->state == IKE_SA_ESTABLISHED ||
			    o->state == IKE_SA_DELETING;

		if (o == sa || !gone || o->replaced_by || o->rekeyed ||
		    !same_peer(o, sa))
			continue;
		if (!initial_contact && strcmp(o->conn, sa->conn))
			continue;
		bool crossed = !initial_contact &&
			       o->state == IKE_SA_ESTABLISHED &&
			       o->est_serial >= sa->serial;

		if (crossed && loses_to(sa, with_child, o)) {
			unmark(sa);
			return o;
		}
		o->replaced_by = sa;
		o->replaced_how = initial_contact ? REPLACED_RESTART :
				  !crossed	  ? REPLACED_UNIQUE :
				  with_child != has_child(o) ?
					     REPLACED_CROSSED_CHILD :
					     REPLACED_CROSSED;
	}
	return NULL;
}

/*
 * A crossed IKE SA that goes. As its initiator we tell the peer, which
 * has completed it. As its responder we cannot know that our IKE_AUTH
 * answer arrived: the SA stays a while to answer the peer's retransmits
 * from its response cache, without a Delete, and the peer, completing it,
 * settles the pair the same way and deletes it. Its Child SA's SAs (the
 * policies are the winner's now) stay that long for packets in flight.
 */
static void crossed_goes(struct ike_sa *sa, const char *why)
{
	if (sa->initiator) {
		ike_sa_goodbye(sa);
		ike_sa_delete(sa, why);
		return;
	}
	ike_sa_log(sa, IKB_LOG_NOTICE,
		   "%s; kept %llu ms to answer the peer's retransmits", why,
		   sa->rtx.timeout_ms);
	ike_sa_linger(sa, sa->rtx.timeout_ms);
}

static const char *const crossed_why[] = {
	[false] = "has the higher nonces and stays (RFC 7296 2.8.1)",
	[true] = "has the conn's Child SA and stays",
};

void unique_crossed(struct ike_sa *sa, bool with_child,
		    const struct ike_sa *stays)
{
	char why[160];

	snprintf(why, sizeof(why),
		 "crossed IKE SA #%lu of the same conn, which %s",
		 stays->serial, crossed_why[with_child != has_child(stays)]);
	crossed_goes(sa, why);
}

static bool same_path(const struct ike_sa *a, const struct ike_sa *b)
{
	return ike_addr_equal(&a->path.local, &b->path.local) &&
	       ike_addr_equal(&a->path.remote, &b->path.remote);
}

/*
 * c, about to be installed under sa, replaces a Child SA of an IKE SA that
 * sa replaces, if one has the same selectors, mode and endpoints (the
 * policies' templates name them). c then uses its reqid; the caller asks
 * for the SPI after this, and child_sa_install() moves the policies.
 */
void unique_takeover(struct ike_sa *sa, struct child_sa *c)
{
	for (struct ike_sa *o = peers_of(sa); o; o = o->next_peer) {
		if (o->replaced_by != sa || !same_path(o, sa))
			continue;
		for (struct child_sa *old = o->children; old; old = old->next) {
			if (!old->npol || old->mode != c->mode ||
			    old->cpu >= 0 || !ike_sel_equal(&old->ts, &c->ts))
				continue;
			c->reqid = old->reqid;
			c->takeover = old;
			return;
		}
	}
}

static const char *const replaced_why[] = {
	[REPLACED_UNIQUE] = "uniqueids: replaced by",
	[REPLACED_CROSSED] = "crossed IKE SA",
	[REPLACED_CROSSED_CHILD] = "crossed IKE SA",
	[REPLACED_RESTART] = "INITIAL_CONTACT: the peer restarted, replaced by",
};

/* After the answer went out: the marked SAs go. */
void unique_sweep(struct ike_sa *sa)
{
	struct ike_sa *o, *next;
	char why[300];
	bool crossed;

	for (o = peers_of(sa); o; o = next) {
		next = o->next_peer;
		if (o->replaced_by != sa)
			continue;
		crossed = o->replaced_how == REPLACED_CROSSED ||
			  o->replaced_how == REPLACED_CROSSED_CHILD;
		snprintf(why, sizeof(why), "%s #%lu of %.100s%s%s",
			 replaced_why[o->replaced_how], sa->serial,
			 ike_sa_id_text(&sa->remote_id),
			 crossed ? ", which " : "",
			 crossed ? crossed_why[o->replaced_how ==
					       REPLACED_CROSSED_CHILD] :
				   "");
		o->replaced_by = NULL;
		if (crossed) {
			crossed_goes(o, why);
		} else {
			/* a peer that restarted has lost the SA: no Delete */
			if (o->replaced_how != REPLACED_RESTART)
				ike_sa_goodbye(o);
			ike_sa_delete(o, why);
		}
		/* the Delete may have freed what next pointed to: restart */
		next = peers_of(sa);
	}
}

/*
 * RFC 7296 §2.4: sent when this is our only IKE SA to that peer. The
 * peer is its address, and its ID: strongSwan deletes every IKE SA
 * between the two IDs on INITIAL_CONTACT, whatever the addresses (one
 * host certificate, several address pairs). rid NULL: not known yet.
 */
bool unique_initial_contact(const struct ike_sa *sa, const char *rid)
{
	const struct ike_sa *o;

	if (!uniqueids(sa->e))
		return false;
	/* the address: every SA, established or not (one compare each) */
	for (o = sa->e->all; o; o = o->next_all)
		if (o != sa &&
		    ike_addr_equal(&o->path.remote, &sa->path.remote))
			return false;
	for (o = rid ? ike_sa_first_peer(sa->e, rid) : NULL; o;
	     o = o->next_peer)
		if (o != sa && ike_sa_id_text(&o->remote_id)[0] &&
		    !strcmp(ike_sa_id_text(&o->remote_id), rid) &&
		    !strcmp(ike_sa_id_text(&o->local_id),
			    ike_sa_id_text(&sa->local_id)))
			return false;
	return true;
}
