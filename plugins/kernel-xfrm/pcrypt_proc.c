// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether the kernel has a pcrypt instance of an AEAD already, read from
 * /proc/crypto. This is asked before, and instead of, a second
 * CRYPTO_MSG_NEWALG: the kernel matches NEWALG's driver name
 * "pcrypt(rfc4106(gcm(aes)))" exactly against its instances' driver
 * names, which are built from the inner drivers ("pcrypt(rfc4106(gcm_base(
 * ctr(aes-lib),ghash-lib)))"), so it never answers EEXIST: it wraps the
 * highest-priority instance, pcrypt itself, once more. Each daemon start
 * would nest pcrypt one level deeper, until the driver names exceed the
 * crypto API's 128 bytes and every new SA with that AEAD fails.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "xfrm.h"

/* the crypto API's CRYPTO_MAX_ALG_NAME */
#define ALG_NAME 128

struct entry {
	char name[ALG_NAME], driver[ALG_NAME], test[32];
};

/* "key : value" into e when key is one we keep. */
static void field(struct entry *e, const char *line)
{
	static const struct {
		const char *key;
		size_t off, len;
	} keys[] = {
		{ "name", offsetof(struct entry, name), ALG_NAME },
		{ "driver", offsetof(struct entry, driver), ALG_NAME },
		{ "selftest", offsetof(struct entry, test), 32 },
	};
	const char *colon = strchr(line, ':');
	size_t klen;

	if (!colon)
		return;
	klen = strcspn(line, " \t:");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (klen == strlen(keys[i].key) &&
		    !strncmp(line, keys[i].key, klen)) {
			char *to = (char *)e + keys[i].off;
			const char *v = colon + 1 + strspn(colon + 1, " \t");

			snprintf(to, keys[i].len, "%.*s",
				 (int)strcspn(v, "\r\n"), v);
		}
}

/* What the entry is to inner: a pcrypt instance of it, tested or not. */
static enum xfrm_pcrypt_listing judge(const struct entry *e, const char *inner)
{
	if (strcmp(e->name, inner) || strncmp(e->driver, "pcrypt(", 7))
		return XFRM_PCRYPT_NONE;
	/* "unknown": a kernel built without self-tests */
	return strcmp(e->test, "passed") && strcmp(e->test, "unknown") &&
			       e->test[0] ?
		       XFRM_PCRYPT_TESTING :
		       XFRM_PCRYPT_READY;
}

enum xfrm_pcrypt_listing xfrm_pcrypt_listed(const char *proc, const char *inner)
{
	enum xfrm_pcrypt_listing best = XFRM_PCRYPT_NONE, j;
	struct entry e;
	char line[256];
	FILE *f = fopen(proc, "re");

	if (!f)
		return XFRM_PCRYPT_UNREADABLE;
	memset(&e, 0, sizeof(e));
	for (;;) {
		bool end = !fgets(line, sizeof(line), f);

		if (end || line[strspn(line, " \t\r\n")] == '\0') {
			j = judge(&e, inner);
			if (j > best)
				best = j;
			memset(&e, 0, sizeof(e));
			if (end)
				break;
			continue;
		}
		field(&e, line);
	}
	fclose(f);
	return best;
}
