// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ipsec-max-bytes= and ipsec-max-packets=: a count with libreswan's binary
 * scales (KiB .. EiB for bytes, Ki .. Ei for packets). The check and the
 * conn compiler share cfg_parse_count(), so a value the check accepts is
 * the limit the kernel gets.
 */
#include <ctype.h>
#include <stdint.h>
#include <strings.h>

#include "config/config.h"
#include "config/internal.h"
#include "config/values.h"

/* libreswan's default hard limit, and ours: past it, no limit is set */
#define COUNT_MAX (1ULL << 63)

static const char *const scales[] = { "K", "M", "G", "T", "P", "E" };

/* The power of 1024 that suffix names (with "B" for bytes), or -1. */
static int scale_of(const char *p, bool bytes)
{
	if (!*p)
		return 0;
	for (int i = 0; i < 6; i++) {
		if (strncasecmp(p, scales[i], 1) ||
		    (p[1] != 'i' && p[1] != 'I'))
			continue;
		if (!strcasecmp(p + 2, bytes ? "B" : ""))
			return i + 1;
	}
	return -1;
}

bool cfg_parse_count(const char *s, bool bytes, uint64_t *out)
{
	unsigned long long n = 0;
	const char *p = s;
	int scale;

	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		if (n > COUNT_MAX / 10)
			return false;
		n = n * 10 + (unsigned)(*p - '0');
	}
	if ((scale = scale_of(p, bytes)) < 0)
		return false;
	for (; scale > 0; scale--) {
		if (n > COUNT_MAX / 1024)
			return false;
		n *= 1024;
	}
	if (!n || n > COUNT_MAX)
		return false;
	*out = n;
	return true;
}

bool check_max_bytes(const char *v, char *why, size_t len)
{
	uint64_t n;

	if (cfg_parse_count(v, true, &n))
		return true;
	FAIL("expected a byte count from 1 to 2^63, optionally with KiB, MiB, GiB, TiB, PiB or EiB (e.g. 1GiB); leave the key out for no limit");
}

bool check_max_packets(const char *v, char *why, size_t len)
{
	uint64_t n;

	if (cfg_parse_count(v, false, &n))
		return true;
	FAIL("expected a packet count from 1 to 2^63, optionally with Ki, Mi, Gi, Ti, Pi or Ei (e.g. 10Mi); leave the key out for no limit");
}
