/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A set of interned keys (arena.h: equal strings are equal pointers), each
 * with an index: where a section has it. What a key is already set to is
 * then found in constant time, not by a walk over the section's keys,
 * which made a section of 100,000 keys take minutes to parse.
 */
#ifndef IKB_CONFIG_KEYSET_H
#define IKB_CONFIG_KEYSET_H

#include <stdbool.h>
#include <stddef.h>

struct keyset {
	size_t cap, n; /* cap: 0 or a power of two */
	const char **key;
	size_t *at;
};

/* Whether key is there; if so *at (when not NULL) is its index. */
bool keyset_get(const struct keyset *ks, const char *key, size_t *at);
/* Add key with index at; false, with *at the old index, if it is there. */
bool keyset_put(struct keyset *ks, const char *key, size_t *at);
void keyset_free(struct keyset *ks);

#endif
