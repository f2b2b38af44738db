/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engine's side of the failure records (the readers' side is in
 * ike_failure.h): where a negotiation fails, the step that knows why
 * fills a record and files it. Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_FAILURE_INT_H
#define IKB_IKE_FAILURE_INT_H

#include <ikebana/proposals.h>

#include "ike/ike_failure.h"

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
/* ike_engine_free() */
void failure_fini(struct ike_engine *e);

#endif
