/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Encrypted (SK) payload body, RFC 7296 §3.14 and RFC 5282:
 *	IV | E(payloads | padding | pad length) | ICV
 * The caller owns the message layout. aad is the message from the IKE
 * header up to and including the SK payload's generic header; its length
 * fields must already hold their final values (sk_sealed_len() gives the
 * body length), because they are authenticated.
 */
#ifndef IKB_CRYPTO_SK_H
#define IKB_CRYPTO_SK_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "crypto/secret.h"

struct sk_ctx;

/*
 * One direction of an IKE SA. encr_keymat is SK_e (key | salt), integ_key
 * is SK_a (empty for AEAD, when integ_id must be 0). key_bits 0 means the
 * cipher's default.
 */
int sk_ctx_new(struct sk_ctx **out, uint16_t encr_id, unsigned key_bits,
	       uint16_t integ_id, struct cbytes encr_keymat,
	       struct cbytes integ_key, struct crypto_err *err);
void sk_ctx_free(struct sk_ctx *ctx);

/* Body length for pt_len bytes of inner payloads. */
size_t sk_sealed_len(const struct sk_ctx *ctx, size_t pt_len);
/* Smallest body that sk_open() can accept. */
size_t sk_min_len(const struct sk_ctx *ctx);

/* Writes exactly sk_sealed_len(ctx, pt.len) bytes to out. */
int sk_seal(struct sk_ctx *ctx, struct cbytes aad, struct cbytes pt,
	    uint8_t *out, size_t out_len, struct crypto_err *err);

/*
 * Authenticates and decrypts body; pt must hold body.len bytes. On success
 * *pt_len is the length of the inner payloads (padding removed). A bad
 * ICV or padding gives -EBADMSG.
 */
int sk_open(const struct sk_ctx *ctx, struct cbytes aad, struct cbytes body,
	    uint8_t *pt, size_t *pt_len, struct crypto_err *err);

#endif
