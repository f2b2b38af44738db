// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * child_add as Linux answers kernel-xfrm's batch (one sendmsg of UPDSA,
 * NEWSA and the NEWPOLICYs): every message is tried even after one
 * fails, and *done says what stands. So the engine's clean-up after a
 * partly refused Child SA is tested here as it runs against a kernel.
 */
#include "mem.h"

int mem_child_add(void *state, struct ikb_sa *in, struct ikb_sa *out,
		  const struct ikb_policy *pol, unsigned npol, uint32_t *done,
		  struct ikb_error *err)
{
	struct ikb_error later;
	int rc, first = 0;

	*done = 0;
	rc = mem_sa_update(state, in, err);
	if (!rc)
		*done |= 1;
	first = rc;
	rc = mem_sa_add(state, out, first ? &later : err);
	if (!rc)
		*done |= 2;
	first = first ? first : rc;
	for (unsigned i = 0; i < npol; i++) {
		rc = mem_policy_add(state, &pol[i], first ? &later : err);
		if (!rc)
			*done |= 4u << i;
		first = first ? first : rc;
	}
	return first;
}
