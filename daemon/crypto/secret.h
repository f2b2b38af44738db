/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Key material buffers. A struct secret owns its bytes and wipes them when
 * freed, so that keys do not linger in freed heap memory. struct cbytes is
 * a borrowed, read-only view used for inputs.
 */
#ifndef IKB_CRYPTO_SECRET_H
#define IKB_CRYPTO_SECRET_H

#include <stddef.h>
#include <stdint.h>

struct secret {
	uint8_t *ptr;
	size_t len;
};

struct cbytes {
	const uint8_t *ptr;
	size_t len;
};

#define CBYTES(p, l) \
	((struct cbytes){ .ptr = (const uint8_t *)(p), .len = (l) })

/* Zero-filled allocation; len 0 gives an empty secret. 0 or -ENOMEM. */
int secret_alloc(struct secret *s, size_t len);
int secret_dup(struct secret *s, const void *p, size_t len);
/* Wipes and frees; safe on a zeroed or already-freed secret. */
void secret_free(struct secret *s);
/* Wipes in a way the compiler may not elide. */
void secret_wipe(void *p, size_t len);

static inline struct cbytes secret_view(const struct secret *s)
{
	return CBYTES(s->ptr, s->len);
}

#endif
