// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exchanges as data (exchange.h): one row per kind, for both roles,
 * with the payloads each message must carry (RFC 7296 §1.2-§1.4) and the
 * handlers. dispatch.c routes by these rows alone and expect.c checks
 * their payloads, so that adding an exchange is a file with its handlers
 * and a row here.
 */
#include <stddef.h>

#include "ike/exchange/exchange.h"
#include "ike/path/path.h"

#define PT EXPECT_PT
#define ST EXPECT_STATE
#define LIVE (ST(IKE_SA_ESTABLISHED) | ST(IKE_SA_DELETING))
#define SYNTAX WIRE_N_INVALID_SYNTAX

/* IKE_SA_INIT and IKE_AUTH: a response we cannot use ends the IKE SA. */
static bool ike_sa_fails(struct ike_sa *sa, const char *why)
{
	ike_sa_delete(sa, why);
	return false;
}

static const struct exchange_row rows[] = {
	{ .name = "IKE_SA_INIT",
	  .kind = OUT_INIT,
	  .exchange = WIRE_EXCH_IKE_SA_INIT,
	  .req_need = { { PT(SA) | PT(KE) | PT(NONCE), SYNTAX } },
	  .resp_need = PT(SA) | PT(KE) | PT(NONCE),
	  .response = ike_sa_init_response,
	  .refused = ike_sa_init_refused,
	  .malformed = ike_sa_fails },
	{ .name = "IKE_AUTH",
	  .kind = OUT_AUTH,
	  .exchange = WIRE_EXCH_IKE_AUTH,
	  .peer_states = ST(IKE_SA_INIT_R),
	  .req_need = { { PT(IDI) | PT(AUTH), SYNTAX } },
	  .request = ike_auth_request,
	  .resp_need = PT(IDR) | PT(AUTH),
	  .keep = KEEP_CHILD,
	  .response = ike_auth_response,
	  .refused = ike_auth_refused,
	  .malformed = ike_sa_fails },
	{ .name = "CREATE_CHILD_SA",
	  .kind = OUT_CHILD,
	  .exchange = WIRE_EXCH_CREATE_CHILD_SA,
	  .use = EXPECT_CHILD,
	  .peer_states = LIVE,
	  .live_only = true,
	  .req_need = { { PT(SA) | PT(NONCE), SYNTAX },
			{ PT(TSI) | PT(TSR), WIRE_N_TS_UNACCEPTABLE } },
	  .request = create_child_request,
	  .resp_need = PT(SA) | PT(NONCE) | PT(TSI) | PT(TSR),
	  .response = create_child_response,
	  .refused = create_child_refused,
	  .malformed = create_child_malformed },
	{ .name = "CREATE_CHILD_SA (Child SA rekey)",
	  .kind = OUT_REKEY_CHILD,
	  .exchange = WIRE_EXCH_CREATE_CHILD_SA,
	  .use = EXPECT_CHILD,
	  .resp_need = PT(SA) | PT(NONCE) | PT(TSI) | PT(TSR),
	  .response = create_child_response,
	  .refused = create_child_refused,
	  .malformed = create_child_malformed },
	/* a KE the IKE SA rekey lacks gets INVALID_KE_PAYLOAD, its group */
	{ .name = "CREATE_CHILD_SA (IKE SA rekey)",
	  .kind = OUT_REKEY_IKE,
	  .exchange = WIRE_EXCH_CREATE_CHILD_SA,
	  .use = EXPECT_IKE,
	  .peer_states = LIVE,
	  .live_only = true,
	  .req_need = { { PT(SA) | PT(NONCE), SYNTAX } },
	  .request = rekey_ike_request,
	  .resp_need = PT(SA) | PT(NONCE),
	  .response = rekey_ike_response,
	  .refused = rekey_ike_refused,
	  .malformed = rekey_ike_malformed },
	/* INFORMATIONAL: any of Delete, Notify, CP, or none (liveness) */
	{ .name = "INFORMATIONAL (Delete of a Child SA)",
	  .kind = OUT_DELETE_CHILD,
	  .exchange = WIRE_EXCH_INFORMATIONAL,
	  .peer_states = LIVE,
	  .request = informational_request,
	  .keep = KEEP_ALL,
	  .response = delete_child_response },
	{ .name = "INFORMATIONAL (Delete of the IKE SA)",
	  .kind = OUT_DELETE_IKE,
	  .exchange = WIRE_EXCH_INFORMATIONAL,
	  .keep = KEEP_ALL,
	  .response = delete_ike_response },
	{ .name = "INFORMATIONAL (liveness)",
	  .kind = OUT_DPD,
	  .exchange = WIRE_EXCH_INFORMATIONAL,
	  .keep = KEEP_ALL,
	  .response = dpd_response },
	{ .name = "INFORMATIONAL (MOBIKE address update)",
	  .kind = OUT_MOBIKE,
	  .exchange = WIRE_EXCH_INFORMATIONAL,
	  .keep = KEEP_ALL,
	  .response = mobike_update_response },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

static const struct exchange_row *extra;
static size_t nextra;

void exchange_rows_extra(const struct exchange_row *r, size_t n)
{
	extra = r;
	nextra = r ? n : 0;
}

/* The i-th row, the table's then the extra ones; NULL past the last. */
static const struct exchange_row *row(size_t i)
{
	if (i < NROWS)
		return &rows[i];
	return i - NROWS < nextra ? &extra[i - NROWS] : NULL;
}

static bool use_matches(const struct exchange_row *r, enum expect_use use)
{
	return r->use == EXPECT_ANY || r->use == use;
}

const struct exchange_row *exchange_row_peer(const struct ike_sa *sa,
					     uint8_t exchange,
					     enum expect_use use)
{
	const struct exchange_row *r;

	/* before the message is opened its use is not known: any */
	for (size_t i = 0; (r = row(i)); i++)
		if (r->exchange == exchange && r->request &&
		    (use == EXPECT_ANY || use_matches(r, use)) &&
		    (r->peer_states & ST(sa->state)))
			return r;
	return NULL;
}

const struct exchange_row *exchange_row_ours(const struct ike_sa *sa)
{
	enum ike_out_kind kind = exchange_kind(sa);
	const struct exchange_row *r;

	if (kind == OUT_NONE)
		return NULL;
	for (size_t i = 0; (r = row(i)); i++)
		if (r->kind == kind)
			return r;
	return NULL;
}

const struct exchange_row *exchange_row_find(uint8_t exchange,
					     enum expect_use use, bool response)
{
	const struct exchange_row *r;

	for (size_t i = 0; (r = row(i)); i++)
		if (r->exchange == exchange && use_matches(r, use) &&
		    (response ? r->response != NULL :
				r->req_need[0].payloads != 0))
			return r;
	return NULL;
}
