// SPDX-License-Identifier: GPL-2.0-or-later
/* Interned keys to indexes: open addressing on the pointer (keyset.h). */
#include <stdint.h>
#include <stdlib.h>

#include "config/keyset.h"

static size_t slot_of(const struct keyset *ks, const char *key)
{
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;
	size_t j = (size_t)(h >> 32) & (ks->cap - 1);

	while (ks->key[j] && ks->key[j] != key)
		j = (j + 1) & (ks->cap - 1);
	return j;
}

bool keyset_get(const struct keyset *ks, const char *key, size_t *at)
{
	if (!ks->cap)
		return false;
	size_t j = slot_of(ks, key);

	if (!ks->key[j])
		return false;
	if (at)
		*at = ks->at[j];
	return true;
}

static void grow(struct keyset *ks)
{
	struct keyset big = { .cap = ks->cap ? ks->cap * 2 : 16 };

	big.key = calloc(big.cap, sizeof(*big.key));
	big.at = malloc(big.cap * sizeof(*big.at));
	if (!big.key || !big.at)
		abort();
	for (size_t i = 0; i < ks->cap; i++) {
		if (!ks->key[i])
			continue;
		size_t j = slot_of(&big, ks->key[i]);

		big.key[j] = ks->key[i];
		big.at[j] = ks->at[i];
	}
	big.n = ks->n;
	keyset_free(ks);
	*ks = big;
}

bool keyset_put(struct keyset *ks, const char *key, size_t *at)
{
	if (2 * (ks->n + 1) > ks->cap)
		grow(ks);
	size_t j = slot_of(ks, key);

	if (ks->key[j]) {
		*at = ks->at[j];
		return false;
	}
	ks->key[j] = key;
	ks->at[j] = *at;
	ks->n++;
	return true;
}

void keyset_free(struct keyset *ks)
{
	free(ks->key);
	free(ks->at);
	*ks = (struct keyset){ 0 };
}
