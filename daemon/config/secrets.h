/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ikebana.secrets: libreswan's ipsec.secrets format (PSK entries). */
#ifndef IKB_CONFIG_SECRETS_H
#define IKB_CONFIG_SECRETS_H

#include <stddef.h>
#include <stdint.h>
#include "config/diag.h"

enum secret_type { SECRET_PSK };

/* A selector or an ID, parsed once for comparing (secrets_match.c). */
struct secret_key {
	uint8_t kind;
	uint8_t a[16]; /* an address's bytes */
	size_t len;
	const char
		*p; /* a name (without '@' and a trailing dot), or the text */
};

struct secret_entry {
	enum secret_type type;
	size_t nsel;
	char **selectors; /* "@id", an address, "%any"; none = any */
	struct secret_key *keys; /* selectors[i], parsed */
	uint8_t *key;	  /* wiped when freed */
	size_t keylen;
	const char *file;
	unsigned line;
};

struct secrets {
	size_t n;
	struct secret_entry *s;
	struct cfg_arena *arena;
};

/*
 * Load a secrets file (and its `include`s). A file that is group- or
 * world-readable is refused with its mode in the message.
 */
int secrets_load(const char *path, struct secrets **out, struct ikb_diag *d);
/*
 * SECRETS_MODE_WARN: a group- or world-readable file is loaded with a
 * warning naming it and its mode (libreswan's paths, which orchestrators
 * write with their umask: refusing would only break their tunnels).
 */
#define SECRETS_MODE_WARN 1u
int secrets_load_ex(const char *path, unsigned flags, struct secrets **out,
		    struct ikb_diag *d);
void secrets_free(struct secrets *s);
/* secrets_match.c: e->keys from e->selectors, in a's memory. */
struct cfg_arena;
void secret_entry_keys(struct cfg_arena *a, struct secret_entry *e);
/* libreswan's matching: both IDs beat one, one beats %any/none. */
const struct secret_entry *secrets_find_psk(const struct secrets *s,
				      const char *local_id,
				      const char *remote_id);

#endif
