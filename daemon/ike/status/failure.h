/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engine's side of the failure records (the readers' side is in
 * ike_failure.h): where a negotiation fails, the step that knows why
 * fills a record and files it. Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_FAILURE_INT_H
#define IKB_IKE_FAILURE_INT_H

#include <ikebana/proposals.h>

#include "ike/status/ike_failure.h"

struct ike_sa;
struct ike_path;

/*
 * f zeroed, then what sa says of it: conn, serial, role, remote, auth,
 * retransmits so far; exchange as given (WIRE_EXCH_*).
 */
void failure_from_sa(struct ike_failure *f, const struct ike_sa *sa,
		     enum ike_fail_kind kind, uint8_t exchange);
/* The same without an SA (a refused IKE_SA_INIT): conn may be NULL. */
void failure_from_path(struct ike_failure *f, const char *conn,
		       const struct ike_path *p, enum ike_fail_kind kind,
		       uint8_t exchange);
/* Copy why into f->detail (NULL: nothing). */
void failure_detail(struct ike_failure *f, const char *why);
/*
 * Files f under f->conn (none: counted only), newest first, and counts
 * it. The caller has logged it already; this logs nothing.
 */
void failure_file(struct ike_engine *e, const struct ike_failure *f);
/*
 * failure_fill.c: f->peer, f->local and f->closest from the lists; the
 * transform types on which the closest pair differs, a bit (1 << type)
 * each (IKB_XF_KE alone: only the key exchange group), 0 when no pair of
 * the same protocol was there to compare.
 */
unsigned failure_proposals(struct ike_failure *f,
			   const struct ikb_proposal_list *peer,
			   const struct ikb_proposal_list *local);
/*
 * failure_ts.c: f->peer from the TSi and TSr payloads, f->local from v's
 * subnets ("TSi 10.1.0.0/24 TSr 10.2.0.0/24"), each in the exchange's
 * terms: TSi is the initiator's side, the peer's when peer_initiated.
 */
struct wire_ts_pld;
struct conn_view;
void failure_ts(struct ike_failure *f, const struct wire_ts_pld *tsi,
		const struct wire_ts_pld *tsr, const struct conn_view *v,
		bool peer_initiated);
/*
 * f->kind IKE_FAIL_ID, the ID presented as f->peer and the one sa's conn
 * expects (rightid=, else the address) as f->local.
 */
struct ike_id;
void failure_id(struct ike_failure *f, const struct ike_sa *sa,
		const struct ike_id *presented);
/* The kind an error notify says, in the exchange it answered. */
enum ike_fail_kind failure_kind_of(uint16_t notify, uint8_t exchange);
/*
 * The peer answered our request of exchange with the error notify: a
 * record of its kind, with what we offered (ours: proposals, or NULL).
 */
void failure_answered(struct ike_sa *sa, uint8_t exchange, uint16_t notify,
		      const struct ikb_proposal_list *ours, const char *why);
/* ike_engine_free() */
void failure_fini(struct ike_engine *e);

#endif
