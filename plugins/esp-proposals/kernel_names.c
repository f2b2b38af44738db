// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The chosen ESP proposal as the kernel's XFRM algorithms: crypto API
 * names, key sizes (with the salt for GCM/CCM/CTR/ChaCha20, RFC 4106,
 * 4309, 3686, 7634) and ICV or truncation lengths (RFC 4868, 2404, 3566).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "esp_proposals.h"

static const struct ikb_transform *first(const struct ikb_proposal *p,
					 uint8_t type)
{
	for (unsigned i = 0; i < p->n && i < IKB_PROPOSAL_MAX_XFORMS; i++) {
		if (p->xf[i].type == type)
			return &p->xf[i];
	}
	return NULL;
}

static void set(struct ikb_alg *k, const char *name, unsigned key_bits,
		unsigned icv_bits)
{
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->key_bits = (uint16_t)key_bits;
	k->icv_bits = (uint16_t)icv_bits;
}

static void clear(struct ikb_alg *k)
{
	k->name[0] = '\0';
	k->key_bits = 0;
	k->icv_bits = 0;
}

static int encr_key_bits(const struct epr_alg *a, const struct ikb_transform *x,
			 struct ikb_error *err)
{
	if (!(a->flags & EPR_KEYLEN))
		return a->fixed_key_bits;
	if (!epr_key_bits_valid(a, x->key_bits))
		return ikb_error_set(
			err, EINVAL,
			"%s needs a key length of 128, 192 or 256 bits, "
			"not %u",
			a->fqn, x->key_bits);
	return x->key_bits;
}

int epr_kernel_algs(const struct ikb_proposal *chosen, struct ikb_sa *sa,
		    struct ikb_error *err)
{
	const struct ikb_transform *e = first(chosen, IKB_XF_ENCR);
	const struct ikb_transform *i = first(chosen, IKB_XF_INTEG);
	const struct epr_alg *ea = e ? epr_alg_by_id(IKB_XF_ENCR, e->id) : NULL;
	const struct epr_alg *ia = NULL;
	int bits;

	err->msg[0] = '\0';
	if (chosen->protocol != IKB_PROTO_ESP)
		return ikb_error_set(
			err, EINVAL,
			"only ESP SAs go to the kernel, not protocol %u",
			chosen->protocol);
	if (!ea || !ea->kernel || ea->refused) {
		return ikb_error_set(
			err, EINVAL,
			"no kernel algorithm for encryption transform %u",
			e ? e->id : 0);
	}
	bits = encr_key_bits(ea, e, err);
	if (bits < 0)
		return bits;
	clear(&sa->aead);
	clear(&sa->encr);
	clear(&sa->integ);
	if (ea->flags & EPR_AEAD) {
		set(&sa->aead, ea->kernel, (unsigned)bits + ea->salt_bits,
		    ea->icv_bits);
		return 0;
	}
	if (i && i->id != EPR_NONE)
		ia = epr_alg_by_id(IKB_XF_INTEG, i->id);
	if (!ia || !ia->kernel || ia->refused)
		return ikb_error_set(
			err, EINVAL,
			"%s needs an integrity algorithm the kernel knows "
			"(integrity transform %u)",
			ea->fqn, i ? i->id : 0);
	set(&sa->encr, ea->kernel, (unsigned)bits + ea->salt_bits, 0);
	set(&sa->integ, ia->kernel, ia->integ_key_bits, ia->icv_bits);
	return 0;
}
