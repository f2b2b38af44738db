// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Deletes the peer hears of at once, without waiting for an answer: when
 * the daemon stops, and when a peer's new IKE SA replaces an old one
 * (unique.c). Without them the peer keeps its SAs, and the policies that
 * send its traffic into them, until its DPD or the SA's lifetime ends.
 * libreswan and strongSwan send the same Delete when they stop.
 */
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "log/log.h"

bool ike_sa_goodbye(struct ike_sa *sa)
{
	/* window 1: a request of ours is outstanding, the peer would drop
	 * a second one; and before IKE_AUTH it has nothing to delete */
	if (sa->state != IKE_SA_ESTABLISHED || sa->x || sa->rtx.req)
		return false;
	return delete_ike_start(sa) == 0;
}

void ike_engine_farewell(struct ike_engine *e)
{
	unsigned n = 0, all = 0;

	for (struct ike_sa *sa = e->all; sa; sa = sa->next_all) {
		all += sa->state == IKE_SA_ESTABLISHED;
		n += ike_sa_goodbye(sa);
	}
	if (all)
		log_notice("stopping: Delete sent for %u of %u IKE SAs", n,
			   all);
}
