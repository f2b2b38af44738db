// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The octets an AUTH payload covers (RFC 7296 §2.15), for a PSK and for
 * a signature alike:
 *   SignedOctets = RealMessage | Nonce of the other side | prf(SK_px, IDx')
 * where RealMessage is the sender's own IKE_SA_INIT message and IDx' the
 * ID payload body from the ID Type on. One buffer: a signature job owns
 * it on a helper thread.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/auth/auth.h"

int auth_octets(const struct ike_sa *sa, bool for_initiator,
		const struct ike_id *id, struct auth_octets *o,
		struct ikb_error *err)
{
	const struct ike_bytes *real = !sa->init     ? NULL :
				       for_initiator ? &sa->init->req :
						       &sa->init->resp;
	const struct secret *skp =
		for_initiator ? &sa->keys->sk_pi : &sa->keys->sk_pr;
	const uint8_t *nonce = for_initiator ? sa->nr.ptr : sa->ni.ptr;
	size_t nlen = for_initiator ? sa->nr.len : sa->ni.len;
	size_t n = prf_out_len(sa->prf_id);
	uint8_t idb[4 + sizeof(id->data)] = { id->type };
	struct crypto_err cerr = { 0 };

	if (!real) {
		/* IKE_AUTH is over: its messages are gone (ike_sa.h) */
		snprintf(err->msg, sizeof(err->msg),
			 "AUTH: IKE_SA_INIT's messages are no longer kept");
		return -ENOENT;
	}
	o->len = real->len + nlen + n;
	o->buf = malloc(o->len);
	if (!o->buf) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -ENOMEM;
	}
	memcpy(o->buf, real->ptr, real->len);
	memcpy(o->buf + real->len, nonce, nlen);
	memcpy(idb + 4, id->data, id->len);
	if (prf_compute(sa->prf_id, secret_view(skp), CBYTES(idb, 4 + id->len),
			o->buf + real->len + nlen, &cerr)) {
		snprintf(err->msg, sizeof(err->msg), "AUTH: %s", cerr.msg);
		auth_octets_free(o);
		return -EIO;
	}
	return 0;
}

void auth_octets_free(struct auth_octets *o)
{
	free(o->buf);
	o->buf = NULL;
	o->len = 0;
}
