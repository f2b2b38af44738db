// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IKE fragmentation's negotiation and size (RFC 7383 §2.3, §2.5.1). Each
 * end says IKEV2_FRAGMENTATION_SUPPORTED in IKE_SA_INIT (the responder
 * only when the initiator did); with both, an encrypted message that the
 * path would not carry whole goes as fragments: an IP datagram of config
 * setup's ike-fragment-size=, else of the path MTU the kernel knows
 * (the route's, or what ICMP taught it), and at least RFC 7383's minimum
 * paths, 576 octets for IPv4 and 1280 for IPv6. IP fragments of IKE are what firewalls and
 * NATs drop, which is the point.
 */
#include <stdlib.h>
#include <string.h>

#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/msg/frag.h"

static bool conn_frag(const struct ike_sa *sa)
{
	const struct conn *c = engine_conn(sa->e, sa->conn);

	return c && c->frag;
}

bool frag_offer(const struct ike_sa *sa)
{
	return conn_frag(sa) && (sa->initiator || sa->frag);
}

void frag_note(struct ike_sa *sa, const struct wire_msg *m)
{
	if (sa->frag || !conn_frag(sa) ||
	    !wire_find_notify(m, WIRE_N_IKEV2_FRAGMENTATION_SUPPORTED))
		return;
	sa->frag = calloc(1, sizeof(*sa->frag));
	if (!sa->frag) /* then whole messages, as without it */
		ike_sa_log(sa, IKB_LOG_WARNING,
			   "IKE fragmentation: out of memory, not using it");
}

/* Asked once per IKE SA, when a message is larger than the minimum. */
static unsigned path_mtu(const struct ike_sa *sa)
{
	const struct ike_io *io = &sa->e->io;

	if (sa->frag->path_mtu == 0)
		sa->frag->path_mtu =
			io->path_mtu ? io->path_mtu(io->ctx, &sa->path) : -1;
	if (sa->frag->path_mtu == 0)
		sa->frag->path_mtu = -1;
	return sa->frag->path_mtu > 0 ? (unsigned)sa->frag->path_mtu : 0;
}

size_t frag_limit(const struct ike_sa *sa)
{
	bool v6 = sa->path.remote.family == AF_INET6;
	unsigned ip = v6 ? 1280 : 576, mtu;
	size_t hdrs = (v6 ? 40 : 20) + 8; /* IP and UDP */

	/* NAT-T's non-ESP marker on port 4500 (RFC 3948) */
	if (sa->path.lport == 4500 || sa->path.rport == 4500)
		hdrs += 4;
	if (sa->e->conns && sa->e->conns->frag_size)
		ip = sa->e->conns->frag_size;
	else if (sa->frag && (mtu = path_mtu(sa)) > ip)
		ip = mtu;
	return ip > hdrs ? ip - hdrs : 0;
}

void frag_inherit(struct ike_sa *sa, const struct ike_sa *old)
{
	if (old->frag && !sa->frag)
		sa->frag = calloc(1, sizeof(*sa->frag));
}

void frag_free(struct ike_sa *sa)
{
	if (!sa->frag)
		return;
	for (int i = 0; i < 2; i++)
		frag_in_free(sa->frag->in[i]);
	free(sa->frag);
	sa->frag = NULL;
}
