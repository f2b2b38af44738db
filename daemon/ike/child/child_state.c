// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A Child SA's state and what our exchange in flight does to it. The
 * window is one request (RFC 7296 §2.3), so "our rekey of c is out" and
 * "our Delete of c is out" are the exchange object's (exchange.c), not
 * flags that could outlive it.
 */
#include "ike/child/child.h"
#include "ike/exchange/exchange.h"
#include "ike/ike_sa.h"
#include "log/log.h"

static const char *const names[] = {
	[CHILD_NEGOTIATING] = "negotiating",
	[CHILD_INSTALLED] = "installed",
	[CHILD_INBOUND_ONLY] = "inbound only",
	[CHILD_REPLACED] = "replaced",
	[CHILD_REDUNDANT] = "redundant",
	[CHILD_FAILED] = "failed, deleting",
};

const char *child_state_name(enum child_state st)
{
	return (unsigned)st < sizeof(names) / sizeof(names[0]) && names[st] ?
		       names[st] :
		       "?";
}

void child_set_state(struct ike_sa *sa, struct child_sa *c, enum child_state st)
{
	if (c->state == st)
		return;
	ike_sa_log(sa, IKB_LOG_DEBUG, "Child SA %08x: %s -> %s", c->spi_in,
		   child_state_name(c->state), child_state_name(st));
	c->state = st;
}

static bool out_is(const struct child_sa *c, enum ike_out_kind kind)
{
	return c->ike && exchange_kind(c->ike) == kind &&
	       c->ike->x->spi == c->spi_in;
}

bool child_rekeying(const struct child_sa *c)
{
	return out_is(c, OUT_REKEY_CHILD);
}

bool child_deleting(const struct child_sa *c)
{
	return out_is(c, OUT_DELETE_CHILD);
}
