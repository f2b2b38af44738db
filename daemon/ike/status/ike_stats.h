/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the engine counts for the metrics (issue 20): one struct in the
 * engine, each field bumped by one line where the thing happens, read
 * here by the daemon. Counters only grow; they survive reloads.
 */
#ifndef IKB_IKE_STATS_H
#define IKB_IKE_STATS_H

#include "ike/status/ike_failure.h"

struct ike_engine;

struct ike_stats {
	/* IKE SAs made to negotiate: by us, by a peer's IKE_SA_INIT */
	unsigned long started_initiator, started_responder;
	unsigned long established; /* IKE_AUTH done, either role */
	unsigned long retransmits; /* requests sent again */
	unsigned long cookies_sent; /* COOKIE notifies (§2.6) */
	unsigned long ike_rekeys, child_rekeys; /* that completed */
	unsigned long dpd_deaths; /* established SAs whose peer went silent */
	/* failed negotiations, either role, by kind (failure.c) */
	unsigned long failed[IKE_FAIL_KINDS];
	/* a gauge, filled by ike_engine_stats(): responder SAs before IKE_AUTH */
	unsigned long halfopen;
};

/* *out = the engine's counters; e NULL gives zeros. */
void ike_engine_stats(const struct ike_engine *e, struct ike_stats *out);

#endif
