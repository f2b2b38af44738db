// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PSK look-up lives alone because config/secrets.h and crypto/secret.h
 * both define struct secret_entry: no file can include both.
 */
#include <errno.h>

#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/auth/auth.h"
#include "plugin/conf_load.h"

int psk_lookup(const struct ike_engine *e, const char *local_id,
	       const char *remote_id, const uint8_t **key, size_t *len)
{
	const struct secret_entry *s =
		secrets_find_psk(e->lc->secrets, local_id, remote_id);

	if (!s || s->type != SECRET_PSK)
		return -ENOENT;
	*key = s->key;
	*len = s->keylen;
	return 0;
}
