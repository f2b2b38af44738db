// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Responder selection (RFC 7296 §2.7, §3.3.6). Our proposals are tried in
 * our order; the first peer proposal of the same protocol that offers,
 * for every transform type either side uses, one of our transforms wins,
 * and we take our most preferred transform of each type.
 *
 * A type that a side leaves out counts as "NONE" (id 0): INTEG for AEAD,
 * KE for ESP without PFS, ESN (0 = no ESN). So a peer that offers ESN
 * yes and no gets "no" when we list no ESN, and a peer that sends an
 * explicit INTEG NONE with AES-GCM gets it back.
 */
#include <errno.h>
#include <string.h>

#include "esp_proposals.h"

static const struct ikb_transform none = { 0, EPR_NONE, 0 };

static bool offers(const struct ikb_proposal *p, uint8_t type,
		   const struct ikb_transform *want, bool *listed)
{
	*listed = false;
	for (unsigned i = 0; i < p->n; i++) {
		const struct ikb_transform *x = &p->xf[i];

		if (x->type != type)
			continue;
		*listed = true;
		if (x->id == want->id && x->key_bits == want->key_bits)
			return true;
	}
	/* a type left out is an implicit NONE */
	return !*listed && want->id == EPR_NONE && want->key_bits == 0;
}

/* Our most preferred transform of `type` that the peer offers. */
static bool pick(const struct ikb_proposal *ours,
		 const struct ikb_proposal *peer, uint8_t type,
		 struct ikb_proposal *chosen)
{
	bool have = false, listed;

	for (unsigned i = 0; i < ours->n; i++) {
		const struct ikb_transform *x = &ours->xf[i];

		if (x->type != type)
			continue;
		have = true;
		if (offers(peer, type, x, &listed)) {
			if (listed && chosen->n >= IKB_PROPOSAL_MAX_XFORMS)
				return false;
			if (listed)
				chosen->xf[chosen->n++] = *x;
			return true;
		}
	}
	if (have)
		return false;
	if (!offers(peer, type, &none, &listed))
		return false;
	if (listed && chosen->n >= IKB_PROPOSAL_MAX_XFORMS)
		return false;
	if (listed) {
		chosen->xf[chosen->n] = none;
		chosen->xf[chosen->n++].type = type;
	}
	return true;
}

static bool match(const struct ikb_proposal *ours,
		  const struct ikb_proposal *peer, struct ikb_proposal *chosen)
{
	bool seen[256] = { false };

	if (ours->protocol != peer->protocol)
		return false;
	memset(chosen, 0, sizeof(*chosen));
	chosen->protocol = peer->protocol;
	for (unsigned i = 0; i < ours->n; i++)
		seen[ours->xf[i].type] = true;
	for (unsigned i = 0; i < peer->n && i < IKB_PROPOSAL_MAX_XFORMS; i++)
		seen[peer->xf[i].type] = true;
	for (unsigned t = 0; t < 256; t++) {
		if (seen[t] && !pick(ours, peer, (uint8_t)t, chosen))
			return false;
	}
	return true;
}

int epr_select(const struct ikb_proposal_list *ours,
	       const struct ikb_proposal_list *offered,
	       struct ikb_proposal *chosen, unsigned *chosen_num,
	       struct ikb_error *err)
{
	unsigned no = ours->n < IKB_PROPOSALS_MAX ? ours->n : IKB_PROPOSALS_MAX;
	unsigned np =
		offered->n < IKB_PROPOSALS_MAX ? offered->n : IKB_PROPOSALS_MAX;
	char peer[160], mine[160];

	err->msg[0] = '\0';
	for (unsigned i = 0; i < no; i++) {
		for (unsigned j = 0; j < np; j++) {
			if (offered->p[j].n > IKB_PROPOSAL_MAX_XFORMS)
				continue;
			if (match(&ours->p[i], &offered->p[j], chosen)) {
				*chosen_num = j + 1;
				return 0;
			}
		}
	}
	epr_render_list(offered, peer, sizeof(peer));
	epr_render_list(ours, mine, sizeof(mine));
	return ikb_error_set(
		err, ENOENT,
		"NO_PROPOSAL_CHOSEN: peer offered: %.104s; we accept: %.104s",
		np ? peer : "nothing", no ? mine : "nothing");
}
