// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exchange in flight: one object per request of ours, freed when it
 * ends, so that nothing of a finished exchange is left on the IKE SA.
 */
#include <stdlib.h>

#include "crypto/crypto.h"
#include "crypto/secret.h"
#include "ike/child/child.h"
#include "ike/exchange/exchange.h"

struct exchange *exchange_new(struct ike_sa *sa, enum ike_out_kind kind)
{
	struct exchange *x;

	if (sa->x) {
		ike_sa_log(sa, IKB_LOG_ERR,
			   "a request is already out: not starting another");
		return NULL;
	}
	x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->kind = kind;
	x->cpu = -1;
	sa->x = x;
	return x;
}

void exchange_end(struct ike_sa *sa)
{
	struct exchange *x = sa->x;

	if (!x)
		return;
	sa->x = NULL;
	if (x->child)
		child_sa_free(sa, x->child);
	ke_free(x->ke);
	secret_wipe(x, sizeof(*x));
	free(x);
}

enum ike_out_kind exchange_kind(const struct ike_sa *sa)
{
	if (sa->x)
		return sa->x->kind;
	return sa->state == IKE_SA_OPENING_I ? OUT_INIT : OUT_NONE;
}

struct child_sa *exchange_take_child(struct ike_sa *sa)
{
	struct child_sa *c = sa->x ? sa->x->child : NULL;

	if (c)
		sa->x->child = NULL;
	return c;
}
