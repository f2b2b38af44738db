// SPDX-License-Identifier: GPL-2.0-or-later
/* The engine's counters, for the metrics: see ike_stats.h. */
#include "ike/engine.h"
#include "ike/status/ike_stats.h"

void ike_engine_stats(const struct ike_engine *e, struct ike_stats *out)
{
	*out = (struct ike_stats){ 0 };
	if (!e)
		return;
	*out = e->stats;
	out->halfopen = e->halfopen;
}
