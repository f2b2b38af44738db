/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One bump allocator per loaded configuration: every string and array of a
 * struct cfg lives here, so freeing a configuration is one call, and keys
 * and file names are interned so that comparing them is comparing pointers.
 */
#ifndef IKB_CONFIG_ARENA_H
#define IKB_CONFIG_ARENA_H

#include <stddef.h>

struct cfg_arena;

struct cfg_arena *arena_new(void);
void arena_free(struct cfg_arena *a);
/* Never NULL: allocation failure aborts (a config cannot be half-built). */
void *arena_alloc(struct cfg_arena *a, size_t len);
char *arena_strndup(struct cfg_arena *a, const char *s, size_t len);
char *arena_strdup(struct cfg_arena *a, const char *s);
/* The same pointer for equal strings. */
const char *arena_intern(struct cfg_arena *a, const char *s);
const char *arena_intern_n(struct cfg_arena *a, const char *s, size_t len);
/* Grow an array allocated with arena_alloc (old contents copied). */
void *arena_grow(struct cfg_arena *a, void *old, size_t oldlen, size_t newlen);

/* FNV-1a, shared by the interning table and the conn lookup table. */
unsigned long cfg_hash(const char *s, size_t len);

#endif
