// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where IKE and ESP go once a NAT is found (RFC 7296 §2.23). The
 * initiator moves IKE to the NAT-T port right after IKE_SA_INIT; the
 * responder answers wherever the last authenticated message came from
 * (msg.c). A peer behind a NAT may appear at a new address or port when
 * its NAT forgets the mapping: an authenticated IKE message from there,
 * or the kernel's word that its ESP in UDP arrives from there
 * (XFRM_MSG_MAPPING), moves the IKE SA and every Child SA with it. Only
 * the side behind no NAT follows, and only a peer that is behind one.
 */
#include <stdio.h>

#include "ike/child/child.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/msg/msg.h"
#include "ike/path/mobike.h"
#include "ike/path/nat.h"
#include "ike/path/path.h"
#include "ike/timers.h"
#include "log/log.h"

#define IKE_PORT_STANDARD 500

void nat_float(struct ike_sa *sa, const struct wire_msg *m)
{
	uint16_t natt = sa->e->conns->natt_port;
	bool mobike = mobike_wanted(sa) &&
		      wire_find_notify(m, WIRE_N_NAT_DETECTION_SOURCE_IP);

	if ((!nat_encap(sa) && !mobike) || sa->path.lport == natt)
		return;
	sa->path.lport = natt;
	/* a peer on a port of its own (rightikeport=) has no other one */
	if (sa->path.rport == IKE_PORT_STANDARD)
		sa->path.rport = 4500;
	ike_sa_log(sa, IKB_LOG_INFO, "NAT-T: IKE moves to ports %u and %u",
		   sa->path.lport, sa->path.rport);
}

bool nat_may_move(const struct ike_sa *sa, const struct ike_path *p)
{
	return sa->nat && sa->nat->remote &&
	       p->remote.family == sa->path.remote.family &&
	       p->lport == sa->e->conns->natt_port &&
	       sa->state == IKE_SA_ESTABLISHED;
}

void nat_follow(struct ike_sa *sa, const struct ikb_addr *remote,
		uint16_t rport, const char *how)
{
	struct ike_path old = sa->path;
	char a[64], b[64];

	if (ike_addr_equal(remote, &sa->path.remote) && rport == sa->path.rport)
		return;
	sa->path.remote = *remote;
	sa->path.rport = rport;
	if (sa->nat)
		sa->nat->mappings++;
	ike_sa_log(sa, IKB_LOG_NOTICE, "peer moved from %s:%u to %s:%u (%s)",
		   addr_str(&old.remote, a, sizeof(a)), old.rport,
		   addr_str(remote, b, sizeof(b)), rport, how);
	if (nat_encap(sa))
		child_sa_move_all(sa, &old);
}

/* The kernel: ESP of our inbound SA came from elsewhere. */
void nat_mapping(struct ike_engine *e, const struct ikb_kernel_event *ev)
{
	for (struct ike_sa *sa = e->all; sa; sa = sa->next_all) {
		if (!child_by_spi_in(sa, ev->spi) ||
		    !ike_addr_equal(&ev->dst, &sa->path.local))
			continue;
		if (!sa->nat || !sa->nat->remote || !nat_encap(sa) ||
		    sa->state != IKE_SA_ESTABLISHED) {
			ike_sa_log(
				sa, IKB_LOG_WARNING,
				"kernel: ESP of SA %08x from another address or port, but the peer is behind no NAT: not followed",
				ev->spi);
			return;
		}
		nat_follow(sa, &ev->new_addr, ev->new_port,
			   "its ESP in UDP comes from there");
		task_want(sa, TASK_DPD);
		tasks_schedule(sa);
		return;
	}
	log_debug("kernel: MAPPING of SA %08x that no Child SA owns", ev->spi);
}
