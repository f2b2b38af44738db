// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The policies of a Child SA with several selectors (leftsubnet=A,B): the
 * first pair's are c->pol, as for any Child SA; every other pair of
 * c->tsx adds its own (out, in, and fwd in tunnel mode) in c->xpol, all
 * with the Child SA's reqid, so that its one pair of SAs carries them all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ike/child/child.h"
#include "ike/engine.h"

static unsigned ndirs(const struct child_sa *c)
{
	return c->mode == IKB_MODE_TUNNEL ? 3 : 2;
}

void child_policy_pair(const struct ike_sa *ike, const struct child_sa *c,
		       unsigned pair, enum ikb_dir dir, struct ikb_policy *p)
{
	struct ikb_selector ts;

	if (!pair) {
		child_policy(ike, c, dir, p);
		return;
	}
	ts_set_pair(c->tsx, &c->ts, pair, &ts);
	child_policy_for(ike, c, &ts, dir, p);
}

int child_pols_add_extra(struct ike_sa *ike, struct child_sa *c,
			 struct ikb_error *err)
{
	static const enum ikb_dir dirs[3] = { IKB_DIR_OUT, IKB_DIR_IN,
					      IKB_DIR_FWD };
	unsigned pairs = ts_set_pairs(c->tsx), nd = ndirs(c);
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(ike->e, &st);

	if (pairs <= 1 || c->xpol)
		return 0;
	c->xpol = calloc((pairs - 1) * nd, sizeof(*c->xpol));
	if (!c->xpol)
		return ikb_error_set(err, ENOMEM, "out of memory");
	for (unsigned i = 1; i < pairs; i++)
		for (unsigned d = 0; d < nd; d++) {
			struct ikb_policy *p = &c->xpol[c->nxpol];
			int rc;

			child_policy_pair(ike, c, i, dirs[d], p);
			if ((rc = k->policy_add(st, p, err)))
				return rc;
			c->nxpol++;
		}
	return 0;
}

void child_pols_del_extra(struct ike_sa *ike, struct child_sa *c)
{
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(ike->e, &st);
	struct ikb_error err;

	while (k && c->nxpol > 0)
		k->policy_del(st, &c->xpol[--c->nxpol], &err);
	free(c->xpol);
	c->xpol = NULL;
	c->nxpol = 0;
}

int child_copy_tsx(struct child_sa *c, const struct child_sa *old,
		   struct ikb_error *err)
{
	free(c->tsx);
	c->tsx = NULL;
	if (!old->tsx)
		return 0;
	c->tsx = malloc(sizeof(*c->tsx));
	if (!c->tsx)
		return ikb_error_set(err, ENOMEM, "out of memory");
	*c->tsx = *old->tsx;
	return 0;
}

void child_pols_move(struct child_sa *to, struct child_sa *from)
{
	memcpy(to->pol, from->pol, sizeof(to->pol));
	to->npol = from->npol;
	free(to->xpol);
	to->xpol = from->xpol;
	to->nxpol = from->nxpol;
	from->npol = 0;
	from->xpol = NULL;
	from->nxpol = 0;
}
