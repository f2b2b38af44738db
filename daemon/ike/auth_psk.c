// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared Key Message Integrity Code (RFC 7296 §2.15):
 *   AUTH = prf(prf(PSK, "Key Pad for IKEv2"), <SignedOctets>)
 *   SignedOctets = RealMessage | Nonce of the other side | prf(SK_px, IDx')
 * where RealMessage is the sender's own IKE_SA_INIT message and IDx' the
 * ID payload body from the ID Type on.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/engine.h"
#include "ike/exchange.h"

static const char key_pad[] = "Key Pad for IKEv2";

int auth_psk_compute(const struct ike_sa *sa, bool for_initiator,
		     const struct ike_id *id, const uint8_t *psk,
		     size_t psk_len, uint8_t *out, size_t *len,
		     struct ikb_error *err)
{
	const struct ike_bytes *real =
		for_initiator ? &sa->init_req : &sa->init_resp;
	const struct secret *skp =
		for_initiator ? &sa->keys->sk_pi : &sa->keys->sk_pr;
	uint8_t idb[4 + sizeof(id->data)] = { id->type };
	uint8_t maced[PRF_MAX_OUT], padkey[PRF_MAX_OUT];
	size_t n = prf_out_len(sa->prf_id);
	struct crypto_err cerr = { 0 };
	struct cbytes signed_octets[3];
	int rc;

	memcpy(idb + 4, id->data, id->len);
	signed_octets[0] = CBYTES(real->ptr, real->len);
	signed_octets[1] = for_initiator ? CBYTES(sa->nr, sa->nr_len) :
					   CBYTES(sa->ni, sa->ni_len);
	signed_octets[2] = CBYTES(maced, n);
	rc = prf_compute(sa->prf_id, secret_view(skp), CBYTES(idb, 4 + id->len),
			 maced, &cerr);
	if (!rc)
		rc = prf_compute(sa->prf_id, CBYTES(psk, psk_len),
				 CBYTES(key_pad, strlen(key_pad)), padkey,
				 &cerr);
	if (!rc)
		rc = prf_computev(sa->prf_id, CBYTES(padkey, n), signed_octets,
				  3, out, &cerr);
	secret_wipe(padkey, sizeof(padkey));
	if (rc)
		snprintf(err->msg, sizeof(err->msg), "AUTH: %s", cerr.msg);
	*len = n;
	return rc;
}
