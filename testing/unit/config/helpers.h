/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the config unit tests: parse text, collect messages as text. */
#ifndef IKB_TEST_CONFIG_HELPERS_H
#define IKB_TEST_CONFIG_HELPERS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "config/diag.h"

/* Every message, one "FILE:LINE: sev: text" line each. */
static inline char *diag_text(const struct ikb_diag *d)
{
	char *out = NULL, line[2048];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	for (size_t i = 0; i < d->n; i++)
		fprintf(f, "%s\n", diag_format(d, i, line, sizeof(line)));
	fclose(f);
	return out;
}

/* Parse `text` as t.conf and compare every message with `want`. */
static inline struct cfg *parse_expect(const char *text, const char *want)
{
	struct ikb_diag d;
	struct cfg *c = NULL;

	diag_init(&d);
	cfg_parse_buffer("t.conf", text, strlen(text), &c, &d);
	char *got = diag_text(&d);

	assert_string_equal(got, want);
	free(got);
	diag_free(&d);
	return c;
}

static inline void parse_check(const char *text, const char *want)
{
	cfg_free(parse_expect(text, want));
}

/* Parse, then run the core value checks; compare all messages. */
static inline void core_expect(const char *text, const char *want)
{
	struct ikb_diag d;
	struct cfg *c = NULL;

	diag_init(&d);
	cfg_parse_buffer("t.conf", text, strlen(text), &c, &d);
	cfg_check_core(c, &d);
	char *got = diag_text(&d);

	assert_string_equal(got, want);
	free(got);
	diag_free(&d);
	cfg_free(c);
}

static inline const char *value_of(const struct ikb_section *s, const char *key)
{
	const struct ikb_value *v = cfg_get(s, key);

	return v ? v->value : NULL;
}

#endif
