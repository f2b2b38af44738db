// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NAT detection (RFC 7296 §2.23) and what it decides: whether the IKE SA
 * gets a NAT object (nat.h), and whether its Child SAs are ESP in UDP.
 * encapsulation=no sends no NAT_DETECTION notifies and ignores the peer's;
 * encapsulation=yes sends a SOURCE hash that matches no address, so that
 * the peer sees a NAT and encapsulates too, as libreswan does.
 */
#include <arpa/inet.h>
#include <event2/event.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/msg/msg.h"
#include "ike/path/nat.h"

int nat_hash(const uint8_t spi_i[8], const uint8_t spi_r[8],
	     const struct ikb_addr *a, uint16_t port, uint8_t out[20])
{
	uint8_t in[8 + 8 + 16 + 2];
	size_t alen = a->family == AF_INET ? 4 : 16;
	uint16_t nport = htons(port);

	memcpy(in, spi_i, 8);
	memcpy(in + 8, spi_r, 8);
	memcpy(in + 16, a->bytes, alen);
	memcpy(in + 16 + alen, &nport, 2);
	return hash_sha1(CBYTES(in, 16 + alen + 2), out, NULL);
}

static enum conn_encap encap_of(const struct ike_sa *sa)
{
	const struct conn *c = engine_conn(sa->e, sa->conn);

	return c ? c->encap : ENCAP_AUTO;
}

void nat_add_notifies(struct wire_msg *m, const struct ike_sa *sa,
		      uint8_t src[20], uint8_t dst[20])
{
	enum conn_encap how = encap_of(sa);

	if (how == ENCAP_NO)
		return;
	nat_hash(m->hdr.spi_i, m->hdr.spi_r, &sa->path.local, sa->path.lport,
		 src);
	/* no address hashes to the SPIs' hash with port 0 in practice */
	if (how == ENCAP_YES)
		src[0] ^= 0xff;
	nat_hash(m->hdr.spi_i, m->hdr.spi_r, &sa->path.remote, sa->path.rport,
		 dst);
	msg_notify(m, WIRE_N_NAT_DETECTION_SOURCE_IP, src, 20);
	msg_notify(m, WIRE_N_NAT_DETECTION_DESTINATION_IP, dst, 20);
}

/* Whether a notify of type came, and whether one's data equals want. */
static bool any_equal(const struct wire_msg *m, uint16_t type,
		      const uint8_t want[20], bool *seen)
{
	const struct wire_payload *p = NULL;
	bool eq = false;

	while ((p = wire_next_notify(m, p))) {
		if (p->u.notify.type != type)
			continue;
		*seen = true;
		if (p->u.notify.len == 20 &&
		    !memcmp(p->u.notify.data, want, 20))
			eq = true;
	}
	return eq;
}

static void log_found(const struct ike_sa *sa, const struct ike_nat *n)
{
	const char *where = n->local && n->remote ? "both ends are" :
			    n->local		  ? "we are" :
						    "the peer is";

	if (n->forced && !n->remote)
		ike_sa_log(sa, IKB_LOG_NOTICE,
			   "encapsulation=yes: ESP goes in UDP on port %u",
			   sa->e->conns->natt_port);
	else if (n->encap)
		ike_sa_log(
			sa, IKB_LOG_NOTICE,
			"NAT detected: %s behind a NAT; IKE and ESP in UDP on port %u",
			where, sa->e->conns->natt_port);
	else
		ike_sa_log(
			sa, IKB_LOG_WARNING,
			"NAT detected: %s behind a NAT, but encapsulation=no: ESP goes bare and the NAT may drop it",
			where);
}

/* MOBIKE moved the IKE SA to a path without a NAT (IKE_SA_INIT has none). */
static void nat_gone(struct ike_sa *sa)
{
	if (!sa->nat)
		return;
	ike_sa_log(sa, IKB_LOG_NOTICE,
		   "no NAT on the new path: ESP goes bare again");
	nat_free(sa);
}

/*
 * The peer's DESTINATION hash is of where it sent to (our address), its
 * SOURCE hash of where it sent from. A mismatch means a NAT rewrote it.
 * A peer that sends neither hash does no NAT-T: nothing is found.
 */
void nat_check(struct ike_sa *sa, const struct wire_msg *m)
{
	enum conn_encap how = encap_of(sa);
	bool seen_dst = false, seen_src = false, local = false, remote = false;
	uint8_t h[20];

	if (how == ENCAP_NO && !sa->nat)
		return;
	if (!nat_hash(m->hdr.spi_i, m->hdr.spi_r, &sa->path.local,
		      sa->path.lport, h))
		local = !any_equal(m, WIRE_N_NAT_DETECTION_DESTINATION_IP, h,
				   &seen_dst);
	if (!nat_hash(m->hdr.spi_i, m->hdr.spi_r, &sa->path.remote,
		      sa->path.rport, h))
		remote = !any_equal(m, WIRE_N_NAT_DETECTION_SOURCE_IP, h,
				    &seen_src);
	local = local && seen_dst;
	remote = remote && seen_src;
	if (!local && !remote && !(how == ENCAP_YES && seen_src)) {
		nat_gone(sa);
		return;
	}
	if (!sa->nat && !(sa->nat = calloc(1, sizeof(*sa->nat)))) {
		ike_sa_log(sa, IKB_LOG_ERR,
			   "NAT detected, but out of memory: no NAT-T");
		return;
	}
	sa->nat->local = local;
	sa->nat->remote = remote;
	sa->nat->forced = how == ENCAP_YES;
	sa->nat->encap = how != ENCAP_NO;
	log_found(sa, sa->nat);
	nat_keepalive_arm(sa);
}

bool nat_encap(const struct ike_sa *sa)
{
	return sa->nat && sa->nat->encap;
}

void nat_free(struct ike_sa *sa)
{
	if (!sa->nat)
		return;
	if (sa->nat->keepalive)
		event_free(sa->nat->keepalive);
	free(sa->nat);
	sa->nat = NULL;
}

void nat_inherit(struct ike_sa *sa, const struct ike_sa *old)
{
	if (!old->nat || !(sa->nat = calloc(1, sizeof(*sa->nat))))
		return;
	*sa->nat = *old->nat;
	sa->nat->keepalive = NULL;
	nat_keepalive_arm(sa);
}
