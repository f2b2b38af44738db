// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RFC 7296 §2.8.1: of two exchanges that crossed, the one whose lowest
 * nonce is the lower loses. Nonces compare as octet strings, a prefix
 * the lower. IKE SAs (unique.c) and Child SAs (child_rekey.c) use it.
 */
#include <string.h>

#include "ike/exchange/exchange.h"

int nonce_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	int d = memcmp(a, b, alen < blen ? alen : blen);

	if (d)
		return d;
	return alen < blen ? -1 : alen > blen;
}

static const uint8_t *lowest(const struct nonce_pair *p, size_t *len)
{
	bool i = nonce_cmp(p->ni, p->ni_len, p->nr, p->nr_len) < 0;

	*len = i ? p->ni_len : p->nr_len;
	return i ? p->ni : p->nr;
}

bool nonce_pair_lower(const struct nonce_pair *x, const struct nonce_pair *y)
{
	size_t xl, yl;
	const uint8_t *xn = lowest(x, &xl), *yn = lowest(y, &yl);

	return nonce_cmp(xn, xl, yn, yl) < 0;
}
