/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time: the loop's clock, lifetimes and rekey timers, liveness checks
 * and keyingtries= retries.
 * Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_TIMERS_H
#define IKB_IKE_TIMERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <ikebana/plugin.h>

struct ike_engine;
struct ike_sa;
struct child_sa;

/* retry.c: keyingtries= for auto=start conns. */
void retry_after_failure(struct ike_sa *sa, const char *why);
/* conn NULL: all; returns how many were cancelled */
unsigned retry_cancel(struct ike_engine *e, const char *conn);
/* The conn's auto=start: initiate again once its IKE SA is gone. */
void engine_reinit(struct ike_engine *e, const char *conn);

struct event_base;
/* clock.c: the time as of this wake-up of the event loop (see there). */
void engine_clock_attach(struct event_base *base);
void engine_clock_detach(struct event_base *base);
unsigned long long mono_ms(void); /* CLOCK_MONOTONIC, ms */
time_t wall_s(void); /* the time of day, s */

/* lifetime.c: lifetimes and rekey timers. */
/*
 * Lifetimes into life and c's times; arms nothing. initiator: we began
 * c's exchange (the soft byte and packet limits depend on it).
 */
void child_lifetime(struct ike_sa *sa, struct child_sa *c, bool initiator,
		    struct ikb_lifetime *life);
void child_timer_arm(struct ike_sa *sa, struct child_sa *c);
/* Retry a rekey the peer refused for now, in 1..2 s. */
void child_timer_retry(struct ike_sa *sa, struct child_sa *c);
void ike_timer_arm(struct ike_sa *sa);
void ike_timer_retry(struct ike_sa *sa);
/* conn's rekey= (default yes). */
bool conn_rekey(const struct ike_engine *e, const char *conn);

/* liveness.c: dpddelay= */
void dpd_arm(struct ike_sa *sa);

#endif
