/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Moving the engine's clock in a test. A test linked with
 * -Wl,--wrap=clock_gettime (see meson.build) gets its CLOCK_MONOTONIC
 * readings through hclock.c, which adds what the test asked for. Only the
 * objects linked into the test are wrapped: the daemon's own code, which
 * reads the time through mono_ms(), and not libevent, whose timers keep
 * real time. So a lifetime that the engine checks when something arrives
 * (a fragment set, an idle instance) can be passed without waiting for it,
 * while the event loop runs as ever.
 *
 * Each call also resets the engine's clock on base (engine_clock_attach),
 * which otherwise keeps its reading while libevent's coarse time has not
 * moved. The clock never goes back: a monotonic clock may only jump
 * forward (as over a suspend) or stand still, and the next test's engines
 * start from wherever it is.
 */
#ifndef IKB_TEST_IKE_HCLOCK_H
#define IKB_TEST_IKE_HCLOCK_H

#include <stdbool.h>

struct event_base;

/* From now on the monotonic clock reads ms later (cumulative). */
void hclock_skip(struct event_base *base, unsigned long long ms);
/*
 * Stop the clock (on), so that what a test does in between takes no time
 * however slow the build, or let it run again from where it stood.
 */
void hclock_freeze(struct event_base *base, bool on);

#endif
