// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the peer tells of its authentication before IKE_AUTH is checked:
 * the hashes it verifies (SIGNATURE_HASH_ALGORITHMS, RFC 7427 §4) and
 * whether it asks for certificates (CERTREQ); and the CERT and CERTREQ
 * payloads we add. A CERT payload carries one DER certificate (encoding
 * 4, X.509 Certificate - Signature): ours first, then the chain to, not
 * with, the root the peer trusts anyway.
 */
#include <stdio.h>
#include <string.h>

#include "crypto/cred.h"
#include "crypto/sig.h"
#include "ike/auth/auth.h"
#include "ike/msg/msg.h"

#define CERT_X509_SIGNATURE 4

void auth_peer_note(struct ike_sa *sa, const struct wire_msg *m)
{
	const struct wire_notify *n =
		wire_find_notify(m, WIRE_N_SIGNATURE_HASH_ALGORITHMS);

	if (wire_find(m, WIRE_PT_CERTREQ))
		sa->peer_auth.certreq = true;
	if (!n)
		return;
	for (size_t i = 0; i + 1 < n->len; i += 2) {
		unsigned h = (unsigned)(n->data[i] << 8 | n->data[i + 1]);

		if (h >= SIG_HASH_SHA1 && h <= SIG_HASH_SHA2_512)
			sa->peer_auth.hashes |= SIG_HASH_BIT(h);
	}
	/* an announcement of none we know is still RFC 7427 support */
	if (!sa->peer_auth.hashes)
		sa->peer_auth.hashes = SIG_HASH_BIT(0);
}

void auth_add_certs(struct wire_msg *m, const struct conn_view *v,
		    const struct ike_sa *sa)
{
	const struct conn_auth *a = &v->local.auth;

	if (!a->cred || a->sendcert == SENDCERT_NEVER ||
	    (a->sendcert == SENDCERT_IFASKED && !sa->peer_auth.certreq))
		return;
	for (unsigned i = 0; i < a->cred->nchain; i++) {
		struct wire_payload *p = msg_add(m, WIRE_PT_CERT);

		p->u.cert = (struct wire_typed){ CERT_X509_SIGNATURE,
						 a->cred->chain[i].ptr,
						 a->cred->chain[i].len };
	}
}

/* IKE_SA_INIT's response: the conn is the addresses' for now. */
void auth_add_certreq_conn(struct wire_msg *m, const struct conn *c)
{
	for (int side = 0; c && side < 2; side++)
		if (!c->view_rc[side] &&
		    c->view[side].remote.auth.methods & AUTHM_SIG) {
			auth_add_certreq(m, &c->view[side]);
			return;
		}
}

void auth_add_certreq(struct wire_msg *m, const struct conn_view *v)
{
	size_t len;
	const uint8_t *h = cred_ca_hashes(&len);
	struct wire_payload *p;

	if (!(v->remote.auth.methods & AUTHM_SIG) || !len)
		return;
	p = msg_add(m, WIRE_PT_CERTREQ);
	p->u.certreq = (struct wire_typed){ CERT_X509_SIGNATURE, h, len };
}
