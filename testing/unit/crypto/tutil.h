/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the crypto unit tests. */
#ifndef IKB_TEST_CRYPTO_TUTIL_H
#define IKB_TEST_CRYPTO_TUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/secret.h"

struct tbuf {
	uint8_t b[1024];
	size_t len;
};

/* Hex to bytes; spaces are ignored, a bad digit fails the test. */
struct tbuf hex(const char *s);
struct tbuf fill(uint8_t byte, size_t len);
struct tbuf text(const char *s);
static inline struct cbytes tb(const struct tbuf *t)
{
	return CBYTES(t->b, t->len);
}

/* cmocka group setup/teardown: NSS without FIPS. */
int nss_setup(void **state);
int nss_teardown(void **state);

#endif
