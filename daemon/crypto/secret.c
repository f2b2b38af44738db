// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/secret.h"

void secret_wipe(void *p, size_t len)
{
	if (p && len)
		explicit_bzero(p, len);
}

int secret_alloc(struct secret *s, size_t len)
{
	/* calloc(0) may return NULL; one spare byte keeps ptr valid. */
	s->ptr = calloc(1, len + 1);
	if (!s->ptr) {
		s->len = 0;
		return -ENOMEM;
	}
	s->len = len;
	return 0;
}

int secret_dup(struct secret *s, const void *p, size_t len)
{
	int rc = secret_alloc(s, len);

	if (rc == 0 && len)
		memcpy(s->ptr, p, len);
	return rc;
}

void secret_free(struct secret *s)
{
	if (!s || !s->ptr)
		return;
	secret_wipe(s->ptr, s->len);
	free(s->ptr);
	s->ptr = NULL;
	s->len = 0;
}
