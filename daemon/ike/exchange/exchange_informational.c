// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * INFORMATIONAL (RFC 7296 §1.4): Delete of Child SAs and of the IKE SA in
 * both directions, and the empty request of liveness checks (§2.4). A
 * Delete of Child SAs is answered with the Delete of their paired SPIs
 * (§1.4.1); a Delete of the IKE SA with an empty response, after which
 * the IKE SA and its Child SAs are gone. Our own Delete of the IKE SA
 * removes local state once answered or given up. MOBIKE's address
 * updates (RFC 4555) ride on INFORMATIONAL too: mobike_update.c.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/msg/msg.h"
#include "ike/exchange/exchange.h"
#include "ike/path/path.h"
#include "ike/timers.h"
#include "ike/exchange/task.h"
#include "log/log.h"

#define MAX_DELETE_SPIS 64

struct info_out {
	struct wire_msg m;
	uint8_t spis[MAX_DELETE_SPIS * 4];
	uint8_t nat[40]; /* MOBIKE: NAT_DETECTION data of the new path */
};

static void add_delete(struct wire_msg *m, uint8_t proto, const uint8_t *spis,
		       uint16_t n)
{
	struct wire_payload *p = msg_add(m, WIRE_PT_DELETE);

	p->u.del = (struct wire_delete){ proto, proto == IKB_PROTO_IKE ? 0 : 4,
					 n, spis };
}

/* o's message as our request of kind: 0, or -1 and nothing is out. */
static int request(struct ike_sa *sa, struct info_out *o,
		   enum ike_out_kind kind, uint32_t spi)
{
	struct exchange *x = o ? exchange_new(sa, kind) : NULL;
	int rc = x ? msg_request_sk(sa, &o->m, WIRE_EXCH_INFORMATIONAL) : -1;

	if (rc)
		exchange_end(sa);
	else
		x->spi = spi;
	free(o);
	return rc;
}

int delete_child_start(struct ike_sa *sa, struct child_sa *c)
{
	struct info_out *o = calloc(1, sizeof(*o));
	uint32_t spi = htonl(c->spi_in);
	int rc;

	if (o) {
		memcpy(o->spis, &spi, 4);
		add_delete(&o->m, IKB_PROTO_ESP, o->spis, 1);
	}
	/* child_deleting(c) from now */
	rc = request(sa, o, OUT_DELETE_CHILD, c->spi_in);
	if (!rc)
		ike_sa_log(sa, IKB_LOG_INFO, "sending Delete for Child SA %08x",
			   c->spi_in);
	return rc;
}

int delete_ike_start(struct ike_sa *sa)
{
	struct info_out *o = calloc(1, sizeof(*o));
	int rc;

	if (o)
		add_delete(&o->m, IKB_PROTO_IKE, NULL, 0);
	rc = request(sa, o, OUT_DELETE_IKE, 0);
	if (!rc) {
		ike_sa_set_state(sa, IKE_SA_DELETING);
		ike_sa_log(sa, IKB_LOG_INFO, "sending Delete for the IKE SA");
	}
	return rc;
}

/*
 * Our IKE_AUTH found the responder's AUTH or certificate bad (RFC 7296
 * §2.21.2): the responder has installed its Child SA by now, so tell it,
 * once and without waiting, with AUTHENTICATION_FAILED and a Delete of
 * the IKE SA, which every peer acts on.
 */
void auth_failed_tell(struct ike_sa *sa)
{
	struct info_out *o = calloc(1, sizeof(*o));
	struct wbuf out;

	if (!o)
		return;
	msg_notify(&o->m, WIRE_N_AUTHENTICATION_FAILED, NULL, 0);
	add_delete(&o->m, IKB_PROTO_IKE, NULL, 0);
	msg_hdr(&o->m, sa, WIRE_EXCH_INFORMATIONAL, false,
		sa->next_req_msgid++);
	wbuf_init(&out, 0);
	if (!msg_emit_sk(sa, &o->m, &out))
		dgram_set_send(sa, out.data, out.len);
	wbuf_free(&out);
	free(o);
}

int dpd_start(struct ike_sa *sa)
{
	const struct conn *c = engine_conn(sa->e, sa->conn);
	int rc;

	/* dpdtimeout= bounds this exchange, retransmit-timeout= the others */
	if (c && c->dpd_timeout_ms)
		sa->rtx.timeout_ms = c->dpd_timeout_ms;
	rc = request(sa, calloc(1, sizeof(struct info_out)), OUT_DPD, 0);
	if (!rc)
		ike_sa_log(sa, IKB_LOG_INFO,
			   "peer idle: sending a liveness check");
	return rc;
}

/* Initiator ------------------------------------------------------------ */

bool delete_ike_response(struct ike_sa *sa, struct msg_in *in,
			 const struct expected *x)
{
	ike_sa_delete(sa, "Delete answered");
	return false;
}

bool delete_child_response(struct ike_sa *sa, struct msg_in *in,
			   const struct expected *x)
{
	/* the old inbound SA stayed until now for in-flight packets */
	struct child_sa *c = child_by_spi_in(sa, sa->x->spi);

	if (c)
		child_remove(sa, c);
	return true;
}

bool dpd_response(struct ike_sa *sa, struct msg_in *in,
		  const struct expected *x)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);

	ike_sa_log(sa, IKB_LOG_DEBUG, "peer is alive");
	/* dpdtimeout= bounded the check: the conn's timing again */
	conn_timing(conn, &sa->rtx.interval_ms, &sa->rtx.timeout_ms);
	return true;
}

/* Responder ------------------------------------------------------------ */

/* The Child SAs the peer deletes; their paired SPIs into o. */
static uint16_t delete_children(struct ike_sa *sa, const struct wire_delete *d,
				struct info_out *o, uint16_t n)
{
	for (unsigned i = 0; i < d->n_spi; i++) {
		struct child_sa *c;
		uint32_t spi;

		memcpy(&spi, d->spis + 4 * i, 4);
		c = child_by_spi_out(sa, ntohl(spi));
		if (!c) {
			ike_sa_log(
				sa, IKB_LOG_INFO,
				"peer deletes Child SA %08x, which we do not have",
				ntohl(spi));
			continue;
		}
		/* §1.4.1: both sides deleting: no pair in the answer */
		if (!child_deleting(c) && n < MAX_DELETE_SPIS) {
			uint32_t ours = htonl(c->spi_in);

			memcpy(o->spis + 4 * n++, &ours, 4);
		}
		child_remove(sa, c);
	}
	return n;
}

void informational_request(struct ike_sa *sa, struct msg_in *in, uint32_t msgid)
{
	const struct wire_msg *m = in->m;
	struct info_out *o = calloc(1, sizeof(*o));
	const struct wire_payload *p = NULL;
	bool del_ike = false;
	uint16_t n = 0;

	if (!o) {
		ike_sa_log(sa, IKB_LOG_ERR, "INFORMATIONAL: out of memory");
		return;
	}
	while ((p = wire_next(m, p, WIRE_PT_DELETE))) {
		if (p->u.del.protocol == IKB_PROTO_IKE)
			del_ike = true;
		else if (p->u.del.protocol == IKB_PROTO_ESP)
			n = delete_children(sa, &p->u.del, o, n);
	}
	if (n && !del_ike)
		add_delete(&o->m, IKB_PROTO_ESP, o->spis, n);
	if (!del_ike)
		mobike_request(sa, m, &o->m, o->nat);
	if (!del_ike && !wire_find(m, WIRE_PT_DELETE) &&
	    !wire_find_notify(m, WIRE_N_UPDATE_SA_ADDRESSES))
		ike_sa_log(sa, IKB_LOG_DEBUG, "answering a liveness check");
	msg_respond_sk(sa, &o->m, WIRE_EXCH_INFORMATIONAL, msgid);
	free(o);
	if (del_ike)
		ike_sa_delete(sa, "the peer deleted it");
}
