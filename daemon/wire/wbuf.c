// SPDX-License-Identifier: GPL-2.0-or-later
/* A growable byte buffer with sticky errors, for the emitters. */
#include <stdlib.h>
#include <string.h>

#include "wire/internal.h"

void wbuf_init(struct wbuf *b, size_t max)
{
	memset(b, 0, sizeof(*b));
	b->max = max;
}

void wbuf_free(struct wbuf *b)
{
	free(b->data);
	wbuf_init(b, b->max);
}

void wbuf_reset(struct wbuf *b)
{
	b->len = 0;
	b->err = 0;
}

static bool grow(struct wbuf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->err)
		return false;
	if (n > SIZE_MAX - b->len || (b->max && b->len + n > b->max)) {
		b->err = -EMSGSIZE;
		return false;
	}
	if (b->len + n <= b->cap)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n)
		cap = cap > SIZE_MAX / 2 ? b->len + n : cap * 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->err = -ENOMEM;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

size_t wbuf_reserve(struct wbuf *b, size_t n)
{
	size_t off = b->len;

	if (!grow(b, n))
		return off;
	if (n)
		memset(b->data + off, 0, n);
	b->len += n;
	return off;
}

void wbuf_put(struct wbuf *b, const void *p, size_t n)
{
	if (n == 0 || !grow(b, n))
		return;
	if (p)
		memcpy(b->data + b->len, p, n);
	else
		memset(b->data + b->len, 0, n);
	b->len += n;
}

void wbuf_u8(struct wbuf *b, uint8_t v)
{
	wbuf_put(b, &v, 1);
}

void wbuf_u16(struct wbuf *b, uint16_t v)
{
	uint8_t x[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	wbuf_put(b, x, sizeof(x));
}

void wbuf_u32(struct wbuf *b, uint32_t v)
{
	uint8_t x[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16),
			 (uint8_t)(v >> 8), (uint8_t)v };

	wbuf_put(b, x, sizeof(x));
}

/* Patching never grows: an offset past the end is a caller bug, ignored. */
void wbuf_set_u8(struct wbuf *b, size_t off, uint8_t v)
{
	if (!b->err && off < b->len)
		b->data[off] = v;
}

void wbuf_set_u16(struct wbuf *b, size_t off, uint16_t v)
{
	if (!b->err && off <= b->len && b->len - off >= 2) {
		b->data[off] = (uint8_t)(v >> 8);
		b->data[off + 1] = (uint8_t)v;
	}
}

void wbuf_set_u32(struct wbuf *b, size_t off, uint32_t v)
{
	if (!b->err && off <= b->len && b->len - off >= 4) {
		b->data[off] = (uint8_t)(v >> 24);
		b->data[off + 1] = (uint8_t)(v >> 16);
		b->data[off + 2] = (uint8_t)(v >> 8);
		b->data[off + 3] = (uint8_t)v;
	}
}
