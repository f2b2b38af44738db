/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * leftupdown=: libreswan's updown scripts, run as libreswan runs them.
 * A listener on the engine's bus turns a reqid's first Child SA into
 * prepare-, route- and up-client (or -host), and its last one leaving
 * into down- and unroute-, with libreswan's PLUTO_* environment; a rekey
 * runs nothing, as in libreswan 5. Scripts run off the event loop, one at
 * a time per conn and in order, each with a time limit.
 */
#ifndef IKB_UPDOWN_H
#define IKB_UPDOWN_H

#include <stdint.h>

#include "ike/ike.h"

struct event_base;
struct updown;

struct updown_opts {
	unsigned timeout_ms; /* then SIGTERM; 0: 30 s */
	unsigned kill_ms; /* after SIGTERM, then SIGKILL; 0: 5 s */
	/*
	 * The byte counters of c's SAs for PLUTO_INBYTES and PLUTO_OUTBYTES
	 * at down: 0, or -errno and they are left out. NULL: left out.
	 */
	int (*counters)(void *ctx, const struct ike_child_info *c, uint64_t *in,
			uint64_t *out);
	void *ctx;
};

/* Listens on e from now on. NULL on allocation failure (logged). */
struct updown *updown_new(struct event_base *base, struct ike_engine *e,
			  const struct updown_opts *o);
/*
 * The daemon stops: stop listening, run down and unroute for each
 * tunnel up (its environment as it came up, without byte counts), as
 * libreswan does when it shuts down, and run the loop until they are
 * done or ms pass. Then updown_free().
 */
void updown_stop(struct updown *u, unsigned ms);
/*
 * Stops listening; scripts still running are killed (SIGKILL) and
 * reaped, those queued are dropped. Before the engine is freed.
 */
void updown_free(struct updown *u);
/* Scripts queued or running, for tests and the stop path. */
unsigned updown_pending(const struct updown *u);

#endif
