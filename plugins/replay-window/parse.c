// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rw.h"

int rw_parse_window(const char *s, unsigned long limit, uint32_t *out)
{
	size_t n = strlen(s);
	unsigned long v;

	/* strtoul alone would take " 12", "+12", "-1" and "0x80". */
	if (n == 0 || n > 9 || strspn(s, "0123456789") != n)
		return -1;
	v = strtoul(s, NULL, 10);
	if (v > limit)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

uint32_t rw_conn_window(const struct rw_state *st,
			const struct ikb_section *conn)
{
	const struct ikb_value *v = st->host->get(conn, "replay-window");
	uint32_t w;

	return v && rw_parse_window(v->value, RW_MAX, &w) == 0 ? w : RW_DEFAULT;
}

/*
 * libreswan 4.10's esn= values, in any case; it refuses true, on and the
 * other boolean spellings. The ESN offer (offer.c) knows only
 * these three too: anything else would quietly mean "no".
 */
int rw_parse_esn(const char *s, enum rw_esn *out)
{
	static const struct {
		const char *name;
		enum rw_esn v;
	} names[] = {
		{ "yes", RW_ESN_YES },
		{ "no", RW_ESN_NO },
		{ "either", RW_ESN_EITHER },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcasecmp(s, names[i].name) == 0) {
			*out = names[i].v;
			return 0;
		}
	}
	return -1;
}
