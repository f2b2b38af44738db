// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine's clock: at most one read of CLOCK_MONOTONIC per wake-up of
 * the event loop, not one per use.
 *
 * An IKE SA read the clock about nine times on each side (its birth, its
 * Child SA's, timers, liveness); where the clock is a system call (UML has
 * no vDSO: about 30 us each) that was a sixth of the daemon's calls per SA.
 * libevent reads its (coarse) clock once per wake-up and hands out that
 * instant through event_base_gettimeofday_cached(). While that instant has
 * not moved, the monotonic reading taken since it last moved is reused; so
 * a value is never older than one tick of the coarse clock (1-10 ms) plus
 * the current callback, and within one callback all uses agree, as
 * libevent's own timers do. Outside the loop (start-up, unit tests)
 * libevent returns the real time of day, which moves on every call, so
 * each call reads the clock afresh.
 *
 * For the event-loop thread only: the helper threads never ask the time.
 */
#include <time.h>
#include <event2/event.h>

#include "ike/engine.h"
#include "ike/timers.h"

static struct event_base *clock_base;
static struct timeval clock_key;
static unsigned long long clock_ms;
#define WALL_SYNC_MS 5000
static time_t wall_off;
static unsigned long long wall_next_ms;

void engine_clock_attach(struct event_base *base)
{
	clock_base = base;
	clock_key = (struct timeval){ 0 };
	wall_next_ms = 0;
}

void engine_clock_detach(struct event_base *base)
{
	if (clock_base == base)
		engine_clock_attach(NULL);
}

static unsigned long long read_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000 +
	       (unsigned long long)ts.tv_nsec / 1000000;
}

unsigned long long mono_ms(void)
{
	struct timeval now;

	if (!clock_base || event_base_gettimeofday_cached(clock_base, &now))
		return read_mono_ms();
	if (now.tv_sec != clock_key.tv_sec ||
	    now.tv_usec != clock_key.tv_usec) {
		clock_key = now;
		clock_ms = read_mono_ms();
	}
	return clock_ms;
}

/*
 * The time of day as the monotonic clock's offset, read afresh every 5 s
 * (as libevent syncs its own). Not libevent's cached time of day: until
 * its monotonic clock passes 5 s (a daemon started right after boot, as
 * systemd and UML start it) that is the monotonic time itself, and SAs
 * were born in 1970.
 */
time_t wall_s(void)
{
	unsigned long long m;

	if (!clock_base)
		return time(NULL);
	m = mono_ms();
	if (m >= wall_next_ms) {
		wall_off = time(NULL) - (time_t)(m / 1000);
		wall_next_ms = m + WALL_SYNC_MS;
	}
	return wall_off + (time_t)(m / 1000);
}
