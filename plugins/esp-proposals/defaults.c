// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libreswan's IKEv2 defaults (lib/libswan/ike_info.c, esp_info.c):
 *   proposals  AES_GCM_16_256, AES_GCM_16_128, CHACHA20_POLY1305,
 *              AES_CBC_256, AES_CBC_128
 *   esp INTEG  sha2_512, sha2_256 (non-AEAD only); no KE (PFS takes the
 *              IKE SA's group)
 *   ike PRF    sha2_512, sha2_256; INTEG derived from the PRF
 *   ike KE     dh19 dh20 dh21 dh31 modp4096 modp3072 modp2048 modp8192
 * and what fills a slot the user left out is the same list.
 */
#include <errno.h>
#include <string.h>

#include "esp_proposals.h"

static const char default_proposals[] =
	"aes_gcm_16_256,aes_gcm_16_128,chacha20_poly1305,aes_cbc_256,"
	"aes_cbc_128";

static const uint16_t default_prf[] = { EPR_PRF_HMAC_SHA2_512,
					EPR_PRF_HMAC_SHA2_256 };
static const uint16_t default_esp_integ[] = { EPR_INTEG_HMAC_SHA2_512_256,
					      EPR_INTEG_HMAC_SHA2_256_128 };
static const uint16_t default_ike_ke[] = { 19, 20, 21, 31, 16, 15, 14, 18 };

#define N(a) (sizeof(a) / sizeof((a)[0]))

bool epr_has_type(const struct ikb_proposal *p, uint8_t type)
{
	for (unsigned i = 0; i < p->n; i++) {
		if (p->xf[i].type == type)
			return true;
	}
	return false;
}

/* Append unless already there; -E2BIG when the proposal is full. */
int epr_add(struct ikb_proposal *p, uint8_t type, uint16_t id,
	    uint16_t key_bits)
{
	for (unsigned i = 0; i < p->n; i++) {
		const struct ikb_transform *x = &p->xf[i];

		if (x->type == type && x->id == id && x->key_bits == key_bits)
			return 0;
	}
	if (p->n >= IKB_PROPOSAL_MAX_XFORMS)
		return -E2BIG;
	p->xf[p->n++] = (struct ikb_transform){ type, id, key_bits };
	return 0;
}

static bool is_aead(const struct ikb_proposal *p)
{
	for (unsigned i = 0; i < p->n; i++) {
		const struct epr_alg *a;

		if (p->xf[i].type != IKB_XF_ENCR)
			continue;
		a = epr_alg_by_id(IKB_XF_ENCR, p->xf[i].id);
		return a && (a->flags & EPR_AEAD);
	}
	return false;
}

/*
 * A key length left out proposes two, as libreswan does: 256 then 128
 * for IKE, 128 then 256 for ESP (ikev2_proposals.c: "low-to-high" for
 * ESP, "high-to-low" for IKE).
 */
static int add_encr(struct ikb_proposal *out, const struct ikb_transform *x,
		    bool ike)
{
	const struct epr_alg *a = epr_alg_by_id(IKB_XF_ENCR, x->id);
	int r;

	if (x->key_bits || !a || !(a->flags & EPR_KEYLEN))
		return epr_add(out, IKB_XF_ENCR, x->id, x->key_bits);
	r = epr_add(out, IKB_XF_ENCR, x->id, ike ? 256 : 128);
	return r ? r : epr_add(out, IKB_XF_ENCR, x->id, ike ? 128 : 256);
}

static int add_ids(struct ikb_proposal *p, uint8_t type, const uint16_t *ids,
		   size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int r = epr_add(p, type, ids[i], 0);

		if (r)
			return r;
	}
	return 0;
}

static int fill_missing(enum ikb_protocol protocol, struct ikb_proposal *p)
{
	bool ike = protocol == IKB_PROTO_IKE;
	int r = 0;

	if (ike && !epr_has_type(p, IKB_XF_PRF))
		r = add_ids(p, IKB_XF_PRF, default_prf, N(default_prf));
	if (r || is_aead(p) || epr_has_type(p, IKB_XF_INTEG))
		goto ke;
	if (!ike) {
		r = add_ids(p, IKB_XF_INTEG, default_esp_integ,
			    N(default_esp_integ));
		goto ke;
	}
	for (unsigned i = 0; !r && i < p->n; i++) {
		const struct epr_alg *in;

		if (p->xf[i].type != IKB_XF_PRF)
			continue;
		in = epr_integ_for_prf(p->xf[i].id);
		if (in)
			r = epr_add(p, IKB_XF_INTEG, in->id, 0);
	}
ke:
	if (!r && ike && !epr_has_type(p, IKB_XF_KE))
		r = add_ids(p, IKB_XF_KE, default_ike_ke, N(default_ike_ke));
	return r;
}

int epr_complete(enum ikb_protocol protocol, struct ikb_proposal *p)
{
	static const uint8_t order[] = { IKB_XF_ENCR, IKB_XF_PRF, IKB_XF_INTEG,
					 IKB_XF_KE, IKB_XF_ESN };
	struct ikb_proposal out = { .protocol = p->protocol };
	int r = fill_missing(protocol, p);

	/* rebuild in transform-type order, expanding key lengths */
	for (size_t o = 0; !r && o < N(order); o++) {
		for (unsigned i = 0; !r && i < p->n; i++) {
			const struct ikb_transform *x = &p->xf[i];

			if (x->type != order[o])
				continue;
			if (x->type == IKB_XF_ENCR)
				r = add_encr(&out, x,
					     protocol == IKB_PROTO_IKE);
			else
				r = epr_add(&out, x->type, x->id, x->key_bits);
		}
	}
	if (r)
		return r;
	*p = out;
	return 0;
}

int epr_defaults(enum ikb_protocol protocol, struct ikb_proposal_list *out)
{
	struct ikb_error err;

	return epr_parse(protocol, default_proposals, out, &err);
}
