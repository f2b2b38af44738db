// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The payloads each exchange's messages must carry (RFC 7296 §1.2-§1.4),
 * as one table that the dispatcher checks before the exchange's handler
 * runs, so that a handler reads what it needs without checking it is
 * there. A message that refuses (an error notify, or IKE_SA_INIT's
 * COOKIE) carries its notify instead and goes to the handler as it is.
 * What a payload holds (a nonce's length, a group) stays the handler's.
 */
#include <stdio.h>

#include "ike/exchange.h"

#define PT(t) (1u << (WIRE_PT_##t - WIRE_PT_SA))

static const struct expect {
	uint8_t exchange;
	bool response;
	enum expect_use use;
	uint32_t need;
	uint16_t notify; /* the answer to a request that lacks one */
} table[] = {
	{ WIRE_EXCH_IKE_SA_INIT, false, EXPECT_ANY, PT(SA) | PT(KE) | PT(NONCE),
	  WIRE_N_INVALID_SYNTAX },
	{ WIRE_EXCH_IKE_SA_INIT, true, EXPECT_ANY, PT(SA) | PT(KE) | PT(NONCE),
	  0 },
	{ WIRE_EXCH_IKE_AUTH, false, EXPECT_ANY, PT(IDI) | PT(AUTH),
	  WIRE_N_INVALID_SYNTAX },
	{ WIRE_EXCH_IKE_AUTH, true, EXPECT_ANY, PT(IDR) | PT(AUTH), 0 },
	{ WIRE_EXCH_CREATE_CHILD_SA, false, EXPECT_CHILD, PT(SA) | PT(NONCE),
	  WIRE_N_INVALID_SYNTAX },
	{ WIRE_EXCH_CREATE_CHILD_SA, false, EXPECT_CHILD, PT(TSI) | PT(TSR),
	  WIRE_N_TS_UNACCEPTABLE },
	{ WIRE_EXCH_CREATE_CHILD_SA, true, EXPECT_CHILD,
	  PT(SA) | PT(NONCE) | PT(TSI) | PT(TSR), 0 },
	/* a KE the IKE SA rekey lacks gets INVALID_KE_PAYLOAD, its group */
	{ WIRE_EXCH_CREATE_CHILD_SA, false, EXPECT_IKE, PT(SA) | PT(NONCE),
	  WIRE_N_INVALID_SYNTAX },
	{ WIRE_EXCH_CREATE_CHILD_SA, true, EXPECT_IKE, PT(SA) | PT(NONCE), 0 },
	/* INFORMATIONAL: any of Delete, Notify, CP, or none (liveness) */
};

bool expect_refuses(const struct wire_msg *m)
{
	const struct wire_payload *p = NULL;

	while ((p = wire_next_notify(m, p)))
		if (wire_notify_is_error(p->u.notify.type) ||
		    (m->hdr.exchange == WIRE_EXCH_IKE_SA_INIT &&
		     p->u.notify.type == WIRE_N_COOKIE))
			return true;
	return false;
}

/* The first type of need that m lacks, or 0. */
static uint8_t lacks(const struct wire_msg *m, uint32_t need)
{
	for (uint8_t t = WIRE_PT_SA; need; t++, need >>= 1)
		if ((need & 1) && !wire_find(m, t))
			return t;
	return 0;
}

bool expect_ok(const struct wire_msg *m, bool response, enum expect_use use,
	       uint16_t *notify, char *why, size_t len)
{
	uint8_t exch = m->hdr.exchange, t;

	if (response && expect_refuses(m))
		return true;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct expect *x = &table[i];

		if (x->exchange != exch || x->response != response ||
		    (x->use != EXPECT_ANY && x->use != use))
			continue;
		if (!(t = lacks(m, x->need)))
			continue;
		*notify = x->notify;
		snprintf(why, len, "%s %s lacks the %s payload",
			 wire_exchange_name(exch) ?: "?",
			 response ? "response" : "request",
			 wire_payload_name(t) ?: "?");
		return false;
	}
	return true;
}
