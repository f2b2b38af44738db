// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared Key Message Integrity Code (RFC 7296 §2.15):
 *   AUTH = prf(prf(PSK, "Key Pad for IKEv2"), <SignedOctets>)
 * and NULL authentication's (RFC 7619 §2.1), which is the same with SK_pi
 * as the initiator's shared key and SK_pr as the responder's: it proves
 * only that the sender holds this IKE SA's keys.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/auth/auth.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"

static const char key_pad[] = "Key Pad for IKEv2";

int auth_psk_compute(const struct ike_sa *sa, bool for_initiator,
		     const struct ike_id *id, const uint8_t *psk,
		     size_t psk_len, uint8_t *out, size_t *len,
		     struct ikb_error *err)
{
	uint8_t padkey[PRF_MAX_OUT];
	size_t n = prf_out_len(sa->prf_id);
	struct crypto_err cerr = { 0 };
	struct auth_octets o;
	int rc = auth_octets(sa, for_initiator, id, &o, err);

	if (rc)
		return rc;
	rc = prf_compute(sa->prf_id, CBYTES(psk, psk_len),
			 CBYTES(key_pad, strlen(key_pad)), padkey, &cerr);
	if (!rc)
		rc = prf_compute(sa->prf_id, CBYTES(padkey, n),
				 CBYTES(o.buf, o.len), out, &cerr);
	secret_wipe(padkey, sizeof(padkey));
	auth_octets_free(&o);
	if (rc)
		snprintf(err->msg, sizeof(err->msg), "AUTH: %s", cerr.msg);
	*len = n;
	return rc;
}

int auth_null_compute(const struct ike_sa *sa, bool for_initiator,
		      const struct ike_id *id, uint8_t *out, size_t *len,
		      struct ikb_error *err)
{
	struct cbytes k = secret_view(for_initiator ? &sa->keys->sk_pi :
						      &sa->keys->sk_pr);

	return auth_psk_compute(sa, for_initiator, id, k.ptr, k.len, out, len,
				err);
}
