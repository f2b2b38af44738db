// SPDX-License-Identifier: GPL-2.0-or-later
/* The clock that hclock.h describes: CLOCK_MONOTONIC only, in ns. */
#include <time.h>

#include "hclock.h"
#include "ike/timers.h"

#define NS 1000000000LL

static long long off_ns; /* added to the real reading */
static long long frozen_ns; /* the real reading it stands at */
static bool frozen;

int __real_clock_gettime(clockid_t id, struct timespec *ts);
int __wrap_clock_gettime(clockid_t id, struct timespec *ts);

static long long real_ns(void)
{
	struct timespec ts;

	__real_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * NS + ts.tv_nsec;
}

int __wrap_clock_gettime(clockid_t id, struct timespec *ts)
{
	long long v;

	if (id != CLOCK_MONOTONIC)
		return __real_clock_gettime(id, ts);
	v = (frozen ? frozen_ns : real_ns()) + off_ns;
	ts->tv_sec = (time_t)(v / NS);
	ts->tv_nsec = (long)(v % NS);
	return 0;
}

void hclock_skip(struct event_base *base, unsigned long long ms)
{
	off_ns += (long long)ms * 1000000;
	engine_clock_attach(base);
}

void hclock_freeze(struct event_base *base, bool on)
{
	long long now = real_ns();

	if (on && !frozen)
		frozen_ns = now;
	else if (!on && frozen)
		off_ns += frozen_ns - now; /* on from where it stood */
	frozen = on;
	engine_clock_attach(base);
}
