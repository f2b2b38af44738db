// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The key exchanges of CREATE_CHILD_SA (PFS, IKE SA rekey). Unlike
 * IKE_SA_INIT's they run on the loop, between receiving a message and
 * answering it: one ECP/X25519 operation costs well under a millisecond,
 * a MODP one a few. Moving them to the helper pool means splitting each
 * exchange handler in two, as keys.c does for IKE_SA_INIT.
 */
#include <errno.h>
#include <stdio.h>

#include "crypto/crypto.h"
#include "ike/engine.h"
#include "ike/exchange.h"

#define KE_RETRIES_MAX 3

bool ke_retry(struct ke_retry *r, const struct wire_notify *n, uint16_t sent,
	      const struct ikb_proposal_list *offered)
{
	uint16_t g;

	if (n->type != WIRE_N_INVALID_KE_PAYLOAD || n->len != 2)
		return false;
	g = (uint16_t)(n->data[0] << 8 | n->data[1]);
	if (g == sent || (offered && !prop_list_has_group(offered, g)) ||
	    r->tries >= KE_RETRIES_MAX)
		return false;
	r->tries++;
	r->group = g;
	return true;
}

int kex_pair(struct ke **ke, uint16_t group, struct ikb_error *err)
{
	struct crypto_err cerr = { 0 };
	int rc;

	ke_free(*ke);
	*ke = NULL;
	rc = ke_generate(ke, group, &cerr);
	if (rc)
		snprintf(err->msg, sizeof(err->msg), "KE group %u: %s", group,
			 cerr.msg);
	return rc;
}

int kex_gir(struct ke *ke, const struct wire_ke *peer, struct secret *gir,
	    struct ikb_error *err)
{
	struct crypto_err cerr = { 0 };
	int rc;

	if (!ke || !peer || peer->group != ke_group(ke)) {
		snprintf(err->msg, sizeof(err->msg),
			 "KE payload: group %u, we use %u",
			 peer ? peer->group : 0, ke ? ke_group(ke) : 0);
		return -EBADMSG;
	}
	rc = ke_derive(ke, CBYTES(peer->data, peer->len), gir, &cerr);
	if (rc)
		snprintf(err->msg, sizeof(err->msg), "KE payload: %s",
			 cerr.msg);
	return rc;
}
