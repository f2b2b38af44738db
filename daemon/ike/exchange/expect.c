// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The payloads each exchange's messages must carry (RFC 7296 §1.2-§1.4),
 * as the exchange table's rows say (exchange_table.c), checked before the
 * exchange's handler runs, so that a handler reads what it needs without
 * checking it is there. A response that refuses (an error notify, or IKE_SA_INIT's
 * COOKIE) goes to the exchange's refusal handler with that notify only,
 * never to the response handler (exchange.h). What a payload holds (a
 * nonce's length, a group) stays the handler's.
 */
#include <stdio.h>
#include <string.h>

#include "ike/exchange/exchange.h"

/* RFC 7296 §1.2: an IKE_AUTH response may refuse only its Child SA. */
static bool child_error(uint16_t type)
{
	switch (type) {
	case WIRE_N_NO_PROPOSAL_CHOSEN:
	case WIRE_N_TS_UNACCEPTABLE:
	case WIRE_N_SINGLE_PAIR_REQUIRED:
	case WIRE_N_INTERNAL_ADDRESS_FAILURE:
	case WIRE_N_FAILED_CP_REQUIRED:
		return true;
	default:
		return false;
	}
}

/* The first type of need that m lacks, or 0. */
static uint8_t lacks(const struct wire_msg *m, uint32_t need)
{
	for (uint8_t t = WIRE_PT_SA; need; t++, need >>= 1)
		if ((need & 1) && !wire_find(m, t))
			return t;
	return 0;
}

static void say_lacks(const struct wire_msg *m, bool response, uint8_t t,
		      char *why, size_t len)
{
	snprintf(why, len, "%s %s lacks the %s payload",
		 wire_exchange_name(m->hdr.exchange) ?: "?",
		 response ? "response" : "request",
		 wire_payload_name(t) ?: "?");
}

bool expect_request_row(const struct wire_msg *m, const struct exchange_row *r,
			uint16_t *notify, char *why, size_t len)
{
	uint8_t t = 0;

	for (size_t i = 0; r && !t && i < 2; i++)
		if ((t = lacks(m, r->req_need[i].payloads)))
			*notify = r->req_need[i].notify;
	if (!t)
		return true;
	say_lacks(m, false, t, why, len);
	return false;
}

bool expect_ok(const struct wire_msg *m, bool response, enum expect_use use,
	       uint16_t *notify, char *why, size_t len)
{
	const struct exchange_row *r =
		exchange_row_find(m->hdr.exchange, use, response);
	uint8_t t;

	if (!response)
		return expect_request_row(m, r, notify, why, len);
	if (!r || !(t = lacks(m, r->resp_need)))
		return true;
	say_lacks(m, true, t, why, len);
	return false;
}

/* The notify that refuses the exchange, or NULL; whole: nothing lacks. */
static const struct wire_notify *
refusing(const struct wire_msg *m, const struct exchange_row *r, bool whole)
{
	enum expect_keep keep = r ? r->keep : KEEP_NONE;
	const struct wire_payload *p = NULL;

	while ((p = wire_next_notify(m, p))) {
		uint16_t type = p->u.notify.type;

		if (m->hdr.exchange == WIRE_EXCH_IKE_SA_INIT &&
		    type == WIRE_N_COOKIE)
			return &p->u.notify;
		if (!wire_notify_is_error(type) || keep == KEEP_ALL ||
		    (whole && keep == KEEP_CHILD && child_error(type)))
			continue;
		return &p->u.notify;
	}
	return NULL;
}

#define FOUND(m, t, f)                                           \
	({                                                       \
		const struct wire_payload *p_ = wire_find(m, t); \
		p_ ? &p_->u.f : NULL;                            \
	})

enum expect_verdict expect_response(const struct wire_msg *m,
				    enum expect_use use, struct expected *got,
				    const struct wire_notify **refusal,
				    char *why, size_t len)
{
	return expect_response_row(
		m, exchange_row_find(m->hdr.exchange, use, true), got, refusal,
		why, len);
}

enum expect_verdict expect_response_row(const struct wire_msg *m,
					const struct exchange_row *r,
					struct expected *got,
					const struct wire_notify **refusal,
					char *why, size_t len)
{
	uint8_t t = r ? lacks(m, r->resp_need) : 0;

	memset(got, 0, sizeof(*got));
	*refusal = refusing(m, r, !t);
	if (*refusal)
		return EXPECT_REFUSED;
	if (t) {
		say_lacks(m, true, t, why, len);
		return EXPECT_MALFORMED;
	}
	got->sa = FOUND(m, WIRE_PT_SA, sa);
	got->ke = FOUND(m, WIRE_PT_KE, ke);
	got->nonce = FOUND(m, WIRE_PT_NONCE, nonce);
	got->idr = FOUND(m, WIRE_PT_IDR, id);
	got->auth = FOUND(m, WIRE_PT_AUTH, auth);
	got->tsi = FOUND(m, WIRE_PT_TSI, ts);
	got->tsr = FOUND(m, WIRE_PT_TSR, ts);
	return EXPECT_WHOLE;
}
