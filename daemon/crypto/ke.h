/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Key exchange (the KE payload): MODP 14/15/16, ECP 19/20/21 and
 * Curve25519 (31) through PK11. Public values use the IKE wire format:
 * MODP big-endian padded to the prime's size (RFC 7296 §3.4), ECP x | y
 * each padded to the field size (RFC 5903 §7), X25519 the 32-byte
 * little-endian u coordinate (RFC 8031 §2).
 */
#ifndef IKB_CRYPTO_KE_H
#define IKB_CRYPTO_KE_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "crypto/secret.h"

struct ke;

/* A fresh ephemeral key pair for group (IANA Transform Type 4 id). */
int ke_generate(struct ke **out, uint16_t group, struct crypto_err *err);

/*
 * A key pair from a given private value, for known-answer tests: ECP
 * (big-endian scalar, field size) and Curve25519 (RFC 7748 scalar) only.
 * pub is the matching wire-format public value; NSS needs it to import.
 */
int ke_import(struct ke **out, uint16_t group, struct cbytes priv,
	      struct cbytes pub, struct crypto_err *err);

uint16_t ke_group(const struct ke *ke);
/* The local public value, wire format. */
struct cbytes ke_public(const struct ke *ke);

/*
 * g^ir from the peer's KE payload data. The peer value is validated first:
 * exact length, 1 < y < p-1 for MODP, on the curve for ECP (NSS checks),
 * and a non-zero result for Curve25519. Errors name the field.
 */
int ke_derive(const struct ke *ke, struct cbytes peer, struct secret *gir,
	      struct crypto_err *err);

void ke_free(struct ke *ke);

#endif
