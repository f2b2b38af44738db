/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * halfopen.c: responder IKE SAs before IKE_AUTH completes, counted,
 * bounded and expired. Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_HALFOPEN_H
#define IKB_IKE_HALFOPEN_H

#include <ikebana/types.h>

#include "config/setup.h"

struct ike_engine;
struct ike_sa;

/*
 * ddos-ike-threshold='s default: half-open SAs before COOKIEs (libreswan:
 * 25000). Each half-open SA costs a key exchange, so libreswan's value
 * lets a flood queue 25000 of them ahead of a real peer: one that came
 * during a 30,000-request flood waited 13-24 s for its SA, and 0.7 s
 * with 100. A COOKIE costs a real initiator one round trip, nothing more.
 */
#define DDOS_IKE_THRESHOLD CFG_DDOS_IKE_THRESHOLD
/* how long one waits for IKE_AUTH, ms (engine's halfopen_ms) */
#define HALFOPEN_MS 30000
/*
 * One source address past this many half-open SAs must answer a COOKIE
 * (it costs it a round trip, us nothing); past HALFOPEN_PER_SOURCE it is
 * refused, so that one sender that answers COOKIEs cannot take every
 * slot of max-halfopen-ike.
 */
#define HALFOPEN_COOKIE_SOURCE 5
#define HALFOPEN_PER_SOURCE 25

enum halfopen_verdict {
	HALFOPEN_OK, /* make the SA */
	HALFOPEN_COOKIE, /* only with a valid COOKIE */
	HALFOPEN_FULL, /* max-halfopen-ike reached */
	HALFOPEN_SOURCE_FULL, /* HALFOPEN_PER_SOURCE reached */
};

int halfopen_init(struct ike_engine *e);
void halfopen_fini(struct ike_engine *e);
/* sa, a new responder SA, counts; it stops on any state change or
 * deletion (halfopen_drop, idempotent) */
void halfopen_add(struct ike_sa *sa);
void halfopen_drop(struct ike_sa *sa);
enum halfopen_verdict halfopen_admit(struct ike_engine *e,
				     const struct ikb_addr *src);

#endif
