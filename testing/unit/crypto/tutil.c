// SPDX-License-Identifier: GPL-2.0-or-later
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "crypto/nss_init.h"
#include "tutil.h"

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

struct tbuf hex(const char *s)
{
	struct tbuf t = { .len = 0 };
	int hi = -1;

	for (; *s; s++) {
		int v;

		if (*s == ' ')
			continue;
		v = nibble(*s);
		assert_true(v >= 0);
		if (hi < 0) {
			hi = v;
			continue;
		}
		assert_true(t.len < sizeof(t.b));
		t.b[t.len++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	assert_true(hi < 0);
	return t;
}

struct tbuf fill(uint8_t byte, size_t len)
{
	struct tbuf t = { .len = len };

	assert_true(len <= sizeof(t.b));
	memset(t.b, byte, len);
	return t;
}

struct tbuf text(const char *s)
{
	struct tbuf t = { .len = strlen(s) };

	assert_true(t.len <= sizeof(t.b));
	memcpy(t.b, s, t.len);
	return t;
}

int nss_setup(void **state)
{
	struct crypto_err err = { 0 };

	return crypto_init(false, &err) == 0 ? 0 : -1;
}

int nss_teardown(void **state)
{
	crypto_shutdown();
	return 0;
}
