// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/arena.h"

/*
 * Chunks double from CHUNK_FIRST to CHUNK_MAX: most configurations are a
 * few KiB, and a first chunk of 64 KiB, zeroed, cost more than their
 * parse (`ikebana checkconfig`, the config fuzzer: 15 % of its time).
 */
#define CHUNK_FIRST (4 * 1024)
#define CHUNK_MAX (64 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, size;
	max_align_t data[];
};

struct cfg_arena {
	struct chunk *chunks;
	/* open-addressing set of interned strings */
	const char **set;
	size_t nset, capset;
};

unsigned long cfg_hash(const char *s, size_t len)
{
	unsigned long h = 2166136261u;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static void *xcalloc(size_t n, size_t len)
{
	void *p = calloc(n, len);

	if (!p) {
		fprintf(stderr, "ikebana: out of memory\n");
		abort();
	}
	return p;
}

struct cfg_arena *arena_new(void)
{
	return xcalloc(1, sizeof(struct cfg_arena));
}

void arena_free(struct cfg_arena *a)
{
	if (!a)
		return;
	for (struct chunk *c = a->chunks, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(a->set);
	free(a);
}

/* The size of the chunk after c (NULL: the first). */
static size_t next_size(const struct chunk *c)
{
	if (!c)
		return CHUNK_FIRST;
	return c->size < CHUNK_MAX / 2 ? c->size * 2 : CHUNK_MAX;
}

void *arena_alloc(struct cfg_arena *a, size_t len)
{
	const size_t align = sizeof(max_align_t);
	struct chunk *c = a->chunks;

	len = (len + align - 1) / align * align;
	if (!c || c->size - c->used < len) {
		size_t size = next_size(c);

		if (size < len)
			size = len;

		c = xcalloc(1, sizeof(*c) + size);
		c->size = size;
		c->next = a->chunks;
		a->chunks = c;
	}
	void *p = (char *)c->data + c->used;

	c->used += len;
	return p;
}

void *arena_grow(struct cfg_arena *a, void *old, size_t oldlen, size_t newlen)
{
	void *p = arena_alloc(a, newlen);

	if (old && oldlen)
		memcpy(p, old, oldlen < newlen ? oldlen : newlen);
	return p;
}

char *arena_strndup(struct cfg_arena *a, const char *s, size_t len)
{
	char *p = arena_alloc(a, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *arena_strdup(struct cfg_arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

static void set_rehash(struct cfg_arena *a)
{
	size_t cap = a->capset ? a->capset * 2 : 256;
	const char **set = xcalloc(cap, sizeof(*set));

	for (size_t i = 0; i < a->capset; i++) {
		const char *s = a->set[i];

		if (!s)
			continue;
		size_t j = cfg_hash(s, strlen(s)) & (cap - 1);

		while (set[j])
			j = (j + 1) & (cap - 1);
		set[j] = s;
	}
	free(a->set);
	a->set = set;
	a->capset = cap;
}

const char *arena_intern_n(struct cfg_arena *a, const char *s, size_t len)
{
	if ((a->nset + 1) * 2 > a->capset)
		set_rehash(a);
	size_t j = cfg_hash(s, len) & (a->capset - 1);

	while (a->set[j]) {
		const char *t = a->set[j];

		if (strncmp(t, s, len) == 0 && t[len] == '\0')
			return t;
		j = (j + 1) & (a->capset - 1);
	}
	a->set[j] = arena_strndup(a, s, len);
	a->nset++;
	return a->set[j];
}

const char *arena_intern(struct cfg_arena *a, const char *s)
{
	return arena_intern_n(a, s, strlen(s));
}
