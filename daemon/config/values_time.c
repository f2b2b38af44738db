// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of durations and lifetimes, in libreswan's syntax. As values.c's:
 * false with what was expected in `why`.
 */
#include <ctype.h>
#include <strings.h>

#include "config/internal.h"
#include "config/values.h"

/*
 * libreswan's duration (lib/libswan/ttodeltatime.c): a decimal number
 * and an optional unit us, ms, s, m, h, d or w.
 */
static bool duration(const char *s, unsigned long long unit_us,
		     unsigned long long *us)
{
	static const struct {
		const char *suffix;
		unsigned long long us;
	} units[] = {
		{ "us", 1ULL },		  { "ms", 1000ULL },
		{ "s", 1000000ULL },	  { "m", 60000000ULL },
		{ "h", 3600000000ULL },	  { "d", 86400000000ULL },
		{ "w", 604800000000ULL },
	};
	const char *p = s;
	unsigned long long whole = 0, frac = 0, div = 1;

	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		if (whole > 1000000000ULL)
			return false;
		whole = whole * 10 + (unsigned)(*p - '0');
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++) {
			if (div < 1000000ULL) {
				frac = frac * 10 + (unsigned)(*p - '0');
				div *= 10;
			}
		}
	}
	unsigned long long scale = unit_us;

	if (*p) {
		size_t i;

		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcasecmp(p, units[i].suffix))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return false;
		scale = units[i].us;
	}
	*us = whole * scale + frac * scale / div;
	return true;
}

bool cfg_parse_duration_ms(const char *s, unsigned long long *ms)
{
	unsigned long long us;

	if (!duration(s, 1000000ULL, &us))
		return false;
	*ms = us / 1000;
	return true;
}

bool check_duration(const char *v, char *why, size_t len)
{
	unsigned long long ms;

	if (cfg_parse_duration_ms(v, &ms))
		return true;
	FAIL("expected a duration: seconds, or a number with s, m, h, d or w (e.g. 30s, 8h)");
}

bool cfg_parse_duration_ms_plain(const char *s, unsigned long long *ms)
{
	unsigned long long us;

	if (!duration(s, 1000ULL, &us))
		return false;
	*ms = us / 1000;
	return true;
}

/*
 * retransmit-interval=: the first wait, doubled per try; the engine
 * takes 1 ms up to a minute (retransmit-timeout= bounds the whole).
 */
bool check_retransmit_interval(const char *v, char *why, size_t len)
{
	unsigned long long ms;

	if (!cfg_parse_duration_ms_plain(v, &ms))
		FAIL("expected a duration: milliseconds, or a number with ms, s or m (e.g. 500ms, 2s)");
	if (ms < 1 || ms >= 60000)
		FAIL("expected 1ms up to 59s: the first wait before a retransmission");
	return true;
}

bool check_retransmit_timeout(const char *v, char *why, size_t len)
{
	unsigned long long ms;

	if (!cfg_parse_duration_ms(v, &ms))
		FAIL("expected a duration: seconds, or a number with s, m, h, d or w (e.g. 30s, 8h)");
	if (ms < 1)
		FAIL("expected a duration above 0: how long an exchange is tried");
	return true;
}

bool check_metrics_interval(const char *v, char *why, size_t len)
{
	unsigned long long ms;

	if (!cfg_parse_duration_ms(v, &ms))
		FAIL("expected a duration: seconds, or a number with s, m or h (e.g. 15, 1m)");
	if (ms < 1000)
		FAIL("expected at least 1 second");
	return true;
}

/* libreswan's IKE_SA_LIFETIME_MAXIMUM and IPSEC_SA_LIFETIME_MAXIMUM: 1 day */
bool check_lifetime(const char *v, char *why, size_t len)
{
	unsigned long long ms;

	if (!cfg_parse_duration_ms(v, &ms))
		FAIL("expected a duration: seconds, or a number with s, m, h or d (e.g. 8h)");
	if (ms == 0)
		FAIL("expected a lifetime above 0");
	if (ms > 24ULL * 3600 * 1000)
		FAIL("expected at most 24h (libreswan's maximum)");
	return true;
}
