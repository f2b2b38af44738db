// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a CREATE_CHILD_SA does beyond creating when it rekeys a Child SA
 * (RFC 7296 §2.8): the REKEY_SA notify, the old Child SA it names, the
 * refusals that only a rekey has, and the simultaneous rekey (§2.8.1).
 * The exchange itself is exchange_create_child_sa.c's.
 */
#include <arpa/inet.h>
#include <string.h>

#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/msg/msg.h"
#include "ike/timers.h"

void child_rekey_notify(struct wire_msg *m, uint32_t spi)
{
	struct wire_payload *p = msg_add(m, WIRE_PT_NOTIFY);
	uint32_t n = htonl(spi);

	p->u.notify.type = WIRE_N_REKEY_SA;
	p->u.notify.protocol = IKB_PROTO_ESP;
	p->u.notify.spi_size = 4;
	memcpy(p->u.notify.spi, &n, 4);
}

/* Responder: the Child SA a REKEY_SA names; 0 or the notify to answer. */
uint16_t child_rekey_old(struct ike_sa *sa, const struct wire_notify *rekey,
			 struct child_sa **old)
{
	uint32_t spi;

	*old = NULL;
	if (!rekey)
		return 0;
	if (rekey->protocol != IKB_PROTO_ESP || rekey->spi_size != 4)
		return WIRE_N_CHILD_SA_NOT_FOUND;
	memcpy(&spi, rekey->spi, 4);
	*old = child_by_spi_out(sa, ntohl(spi));
	if (!*old)
		return WIRE_N_CHILD_SA_NOT_FOUND;
	if ((*old)->state == CHILD_REPLACED ||
	    (*old)->state == CHILD_REDUNDANT || child_deleting(*old))
		return WIRE_N_TEMPORARY_FAILURE;
	return 0;
}

/* Initiator: a refusal only a rekey has; true when it was one. */
bool child_rekey_refused(struct ike_sa *sa, const struct wire_notify *n,
			 struct child_sa *old)
{
	if (n->type == WIRE_N_TEMPORARY_FAILURE) {
		ike_sa_log(sa, IKB_LOG_INFO,
			   "rekey of Child SA %08x: TEMPORARY_FAILURE: later",
			   old->spi_in);
		child_timer_retry(sa, old);
		return true;
	}
	if (n->type == WIRE_N_CHILD_SA_NOT_FOUND) {
		ike_sa_log(sa, IKB_LOG_WARNING,
			   "rekey of Child SA %08x: the peer has no such SA",
			   old->spi_in);
		child_remove(sa, old);
		return true;
	}
	return false;
}

/* §2.8.1: both ends rekeyed old; the lowest nonce's pair goes. */
void child_rekey_resolve(struct ike_sa *sa, struct child_sa *c,
			 struct child_sa *old)
{
	struct child_sa *b = sa->children;

	while (b && (b == c || !b->peer_created ||
		     b->state == CHILD_REDUNDANT || b->rekey_of != old->spi_in))
		b = b->next;
	if (b && child_nonce_lower(c, b)) {
		ike_sa_log(
			sa, IKB_LOG_NOTICE,
			"simultaneous rekey of %08x: ours %08x has the lowest nonce: deleting it",
			old->spi_in, c->spi_in);
		child_set_state(sa, c, CHILD_REDUNDANT);
		task_want_child(sa, c, TASK_DELETE_CHILD);
		return;
	}
	if (b) {
		ike_sa_log(
			sa, IKB_LOG_NOTICE,
			"simultaneous rekey of %08x: the peer's %08x has the lowest nonce: the peer deletes it",
			old->spi_in, b->spi_in);
		child_set_state(sa, b, CHILD_REDUNDANT);
	}
	child_sa_del_out(sa, old); /* c's outbound SA is in place */
	child_set_state(sa, old, CHILD_REPLACED);
	task_want_child(sa, old, TASK_DELETE_CHILD);
}
