// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Removing a Child SA without losing packets: a rekeyed Child SA's
 * successor may still wait for its outbound SA (the responder installs
 * it only when the old one is deleted, so that it never sends before the
 * peer can receive), and the policies belong to the reqid, not to one
 * generation of SAs.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/events.h"
#include "ike/exchange/exchange.h"
#include "ike/conn/conn.h"
#include "log/log.h"

static void unlink_child(struct ike_sa *sa, struct child_sa *c)
{
	struct child_sa **pp = &sa->children;

	while (*pp && *pp != c)
		pp = &(*pp)->next;
	if (*pp)
		*pp = c->next;
	if (sa->x && sa->x->child == c)
		sa->x->child = NULL;
}

static void successors_out(struct ike_sa *sa, const struct child_sa *c)
{
	struct ikb_error err = { "" };

	for (struct child_sa *o = sa->children; o; o = o->next) {
		if (o->rekey_of != c->spi_in || o->state != CHILD_INBOUND_ONLY)
			continue;
		if (child_sa_add_out(sa, o, &err))
			ike_sa_log(sa, IKB_LOG_ERR,
				   "Child SA %08x: outbound SA: %s", o->spi_in,
				   err.msg);
		else
			ike_sa_log(sa, IKB_LOG_INFO,
				   "Child SA %08x: outbound SA %08x installed",
				   o->spi_in, o->spi_out);
		events_child_out(sa, o);
	}
}

static void hand_policies(struct ike_sa *sa, struct child_sa *c)
{
	for (struct child_sa *o = sa->children; c->npol && o; o = o->next) {
		if (o->reqid != c->reqid || o->npol)
			continue;
		child_pols_move(o, c);
	}
}

void child_remove(struct ike_sa *sa, struct child_sa *c)
{
	unlink_child(sa, c);
	successors_out(sa, c);
	hand_policies(sa, c);
	ike_sa_log(sa, IKB_LOG_NOTICE,
		   "Child SA deleted: SPIs in %08x out %08x", c->spi_in,
		   c->spi_out);
	child_sa_free(sa, c);
}
