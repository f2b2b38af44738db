/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test certificates made by NSS at test time, so that no private key is
 * ever committed: a fresh P-256 key signs each one.
 */
#ifndef IKB_TEST_CRYPTO_TCERT_H
#define IKB_TEST_CRYPTO_TCERT_H

#include <stddef.h>
#include <stdint.h>

#include "tutil.h"

struct tcert {
	uint8_t b[4096];
	size_t len;
};

/*
 * The DER of a subjectAltName extension from "DNS:a.example,
 * email:u@a.example, IP:192.0.2.1, IP:2001:db8::1, URI:https://a"
 * (comma separated, spaces ignored).
 */
struct tbuf tsan(const char *spec);
/*
 * An X.509v3 certificate; subject and issuer in dn_from_text's syntax,
 * san the extension's DER or NULL for none.
 */
struct tcert tcert_make(const char *subject, const char *issuer,
			const struct tbuf *san);

#endif
