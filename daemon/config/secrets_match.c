// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which PSK of ikebana.secrets two IDs use, as libreswan chooses it.
 *
 * Every IKE_AUTH looks its PSK up among all entries. Comparing a
 * selector with an ID meant parsing both as addresses (inet_pton, up to
 * four calls) and comparing names without case, for every entry: with
 * 10,000 entries that was milliseconds per lookup, a lookup per IKE SA
 * on each end. So each selector is parsed once as the file is read
 * (secret_entry_keys()), each ID once per lookup, and an entry costs a
 * few byte comparisons.
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <string.h>

#include "config/arena.h"
#include "config/secrets.h"

enum {
	KEY_NONE, /* no ID */
	KEY_ANY, /* %any, %any4, %any6, 0.0.0.0, :: (selectors only) */
	KEY_IPV4,
	KEY_IPV6,
	KEY_NAME, /* @name, compared without case and a trailing dot */
	KEY_TEXT, /* anything else, @[...] and @#..., compared as it is */
};

/* libreswan's match bits (programs/pluto/secrets.c): higher is better. */
enum {
	MATCH_DEFAULT = 01,
	MATCH_ANY = 02,
	MATCH_HIM = 04,
	MATCH_ME = 010,
};

static bool is_wildcard(const char *sel)
{
	return !strcmp(sel, "%any") || !strcmp(sel, "%any4") ||
	       !strcmp(sel, "%any6") || !strcmp(sel, "0.0.0.0") ||
	       !strcmp(sel, "::");
}

/* k for an ID or (selector true) a selector; s NUL-terminated. */
static void key_of(const char *s, bool selector, struct secret_key *k)
{
	memset(k, 0, sizeof(*k));
	if (!s) {
		k->kind = KEY_NONE;
	} else if (selector && is_wildcard(s)) {
		k->kind = KEY_ANY;
	} else if (inet_pton(AF_INET, s, k->a) == 1) {
		k->kind = KEY_IPV4;
	} else if (inet_pton(AF_INET6, s, k->a) == 1) {
		k->kind = KEY_IPV6;
	} else if (s[0] == '@' && s[1] != '[' && s[1] != '#') {
		k->kind = KEY_NAME;
		k->p = s + 1;
		k->len = strlen(k->p);
		if (k->len && k->p[k->len - 1] == '.')
			k->len--;
	} else {
		k->kind = KEY_TEXT;
		k->p = s;
		k->len = strlen(s);
	}
}

void secret_entry_keys(struct cfg_arena *a, struct secret_entry *e)
{
	e->keys = arena_alloc(a, (e->nsel + 1) * sizeof(e->keys[0]));
	for (size_t i = 0; i < e->nsel; i++)
		key_of(e->selectors[i], true, &e->keys[i]);
}

static bool same_case(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];

		if (x >= 'A' && x <= 'Z')
			x += 'a' - 'A';
		if (y >= 'A' && y <= 'Z')
			y += 'a' - 'A';
		if (x != y)
			return false;
	}
	return true;
}

/* Whether selector sel names id: the same address, name or text. */
static bool same_id(const struct secret_key *sel, const struct secret_key *id)
{
	if (sel->kind != id->kind)
		return false;
	switch (sel->kind) {
	case KEY_IPV4:
		return !memcmp(sel->a, id->a, 4);
	case KEY_IPV6:
		return !memcmp(sel->a, id->a, 16);
	case KEY_NAME:
		return sel->len == id->len && same_case(sel->p, id->p, id->len);
	case KEY_TEXT:
		return sel->len == id->len && !memcmp(sel->p, id->p, id->len);
	default:
		return false;
	}
}

static unsigned match_of(const struct secret_entry *e,
			 const struct secret_key *me,
			 const struct secret_key *him)
{
	unsigned m = 0;

	if (e->nsel == 0)
		return MATCH_DEFAULT;
	for (size_t i = 0; i < e->nsel; i++) {
		const struct secret_key *sel = &e->keys[i];

		if (sel->kind == KEY_ANY) {
			m |= MATCH_ANY;
			continue;
		}
		if (same_id(sel, me))
			m |= MATCH_ME;
		if (same_id(sel, him))
			m |= MATCH_HIM;
	}
	/* our id as the only selector: any peer, unless a better match */
	if (m == MATCH_ME && e->nsel == 1)
		m |= MATCH_DEFAULT;
	return m;
}

const struct secret_entry *secrets_find_psk(const struct secrets *s,
					    const char *local_id,
					    const char *remote_id)
{
	const struct secret_entry *best = NULL;
	unsigned best_match = 0;
	struct secret_key me, him;

	key_of(local_id, false, &me);
	key_of(remote_id, false, &him);
	for (size_t i = 0; s && i < s->n; i++) {
		const struct secret_entry *e = &s->s[i];
		unsigned m = match_of(e, &me, &him);

		switch (m) {
		case MATCH_DEFAULT:
		case MATCH_ANY:
		case MATCH_ME | MATCH_DEFAULT:
		case MATCH_ME | MATCH_ANY:
		case MATCH_HIM | MATCH_ANY:
		case MATCH_ME | MATCH_HIM:
			/* equal matches: the first in the file wins */
			if (m > best_match) {
				best_match = m;
				best = e;
			}
			break;
		default:
			break;
		}
	}
	return best;
}
