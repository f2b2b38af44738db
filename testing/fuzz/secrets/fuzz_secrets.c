// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana.secrets and the files it includes (files.h): the loader, then
 * libreswan's PSK matching for each entry's own selectors and a few IDs,
 * as the engine looks a PSK up for an IKE_AUTH.
 */
#include "config/diag.h"
#include "config/secrets.h"
#include "files.h"
#include "fuzz.h"

static const char *const ids[] = { "@west",	"@east",
				   "192.0.2.1", "west@example.org",
				   "%any",	NULL };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_files_write(data, size, "ikebana.secrets");
	struct secrets *s = NULL;
	struct ikb_diag d;

	if (!path)
		return 0;
	diag_init(&d);
	if (!secrets_load(path, &s, &d) && s) {
		for (size_t i = 0; i < s->n; i++) {
			const struct secret_entry *e = &s->s[i];

			if (e->nsel)
				(void)secrets_find_psk(
					s, e->selectors[0],
					e->selectors[e->nsel - 1]);
		}
		for (unsigned i = 0; ids[i]; i++)
			for (unsigned j = 0; ids[j]; j++)
				(void)secrets_find_psk(s, ids[i], ids[j]);
	}
	diag_free(&d);
	secrets_free(s);
	return 0;
}
