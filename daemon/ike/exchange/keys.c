// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The IKE SA key schedule (RFC 7296 §2.14): g^ir → SKEYSEED → SK_* →
 * one SK payload context per direction. Key generation, g^ir and the
 * prf work run as one job on the helper pool; the SA only learns the
 * result on the loop, and an SA deleted meanwhile just drops it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"

/* Any KE transform of any proposal: a proposal lists alternatives. */
bool prop_list_has_group(const struct ikb_proposal_list *l, uint16_t g)
{
	for (unsigned i = 0; i < l->n; i++)
		for (unsigned j = 0; j < l->p[i].n; j++)
			if (l->p[i].xf[j].type == IKB_XF_KE &&
			    l->p[i].xf[j].id == g)
				return true;
	return false;
}

struct sizes {
	const struct encr_desc *encr;
	const struct integ_desc *integ;
	const struct ikb_transform *e, *i, *p;
};

static int sizes_of(const struct ike_sa *sa, struct sizes *z,
		    struct ikb_error *err)
{
	z->e = ike_prop_xf(&sa->prop, IKB_XF_ENCR);
	z->p = ike_prop_xf(&sa->prop, IKB_XF_PRF);
	z->i = ike_prop_xf(&sa->prop, IKB_XF_INTEG);
	z->encr = z->e ? encr_desc_by_id(z->e->id) : NULL;
	z->integ = z->i && z->i->id ? integ_desc_by_id(z->i->id) : NULL;
	if (!z->encr || !z->p || !prf_desc_by_id(z->p->id) ||
	    (!z->encr->aead && !z->integ) || (z->encr->aead && z->integ)) {
		snprintf(
			err->msg, sizeof(err->msg),
			"the chosen IKE proposal lacks a usable ENCR, PRF or INTEG transform");
		return -ENOTSUP;
	}
	return 0;
}

static int contexts(struct ike_sa *sa, const struct sizes *z,
		    struct crypto_err *cerr)
{
	struct ike_sa_keys *k = sa->keys;
	uint16_t integ = z->integ ? z->integ->id : 0;
	struct sk_ctx *ci = NULL, *cr = NULL;
	int rc;

	rc = sk_ctx_new(&ci, z->e->id, z->e->key_bits, integ,
			secret_view(&k->sk_ei), secret_view(&k->sk_ai), cerr);
	if (!rc)
		rc = sk_ctx_new(&cr, z->e->id, z->e->key_bits, integ,
				secret_view(&k->sk_er), secret_view(&k->sk_ar),
				cerr);
	if (rc) {
		sk_ctx_free(ci);
		return rc;
	}
	sa->sk_out = sa->initiator ? ci : cr;
	sa->sk_in = sa->initiator ? cr : ci;
	sa->iv_len = z->encr->iv_len;
	sa->icv_len = z->encr->aead ? z->encr->icv_len : z->integ->icv_len;
	sa->block_len = z->encr->block_size;
	return 0;
}

int keys_rekey(struct ike_sa *sa, const struct ike_sa *old,
	       const struct secret *gir, struct ikb_error *err)
{
	struct cbytes ni = CBYTES(sa->ni.ptr, sa->ni.len);
	struct cbytes nr = CBYTES(sa->nr.ptr, sa->nr.len);
	struct crypto_err cerr = { 0 };
	struct secret seed = { 0 };
	struct sizes z;
	int rc = sizes_of(sa, &z, err);

	if (rc)
		return rc;
	sa->keys = calloc(1, sizeof(*sa->keys));
	if (!sa->keys)
		return -ENOMEM;
	sa->prf_id = z.p->id;
	rc = skeyseed_rekey(old->prf_id, secret_view(&old->keys->sk_d),
			    secret_view(gir), ni, nr, &seed, &cerr);
	if (!rc)
		rc = ike_sa_keys_derive(sa->prf_id, secret_view(&seed), ni, nr,
					sa->spi_i, sa->spi_r,
					z.integ ? z.integ->key_len : 0,
					encr_keymat_len(z.encr, z.e->key_bits),
					sa->keys, &cerr);
	if (!rc)
		rc = contexts(sa, &z, &cerr);
	secret_free(&seed);
	if (rc)
		snprintf(err->msg, sizeof(err->msg), "rekeyed keys: %s",
			 cerr.msg);
	return rc;
}

/* Runs on a helper thread: only the job's own fields. */
struct ke_job {
	struct ike_sa *sa; /* NULL once the SA is gone */
	ke_then_fn *then;
	uint16_t group;
	struct ke *ke;
	uint8_t *peer;
	size_t peer_len;
	uint16_t prf_id;
	size_t integ_len, encr_len;
	uint8_t ni[256], nr[256];
	size_t ni_len, nr_len;
	uint8_t spi_i[8], spi_r[8];
	struct ike_sa_keys *keys;
	int rc;
	struct crypto_err err;
};

static int derive(struct ke_job *j)
{
	struct secret gir = { 0 }, seed = { 0 };
	struct cbytes ni = CBYTES(j->ni, j->ni_len);
	struct cbytes nr = CBYTES(j->nr, j->nr_len);
	int rc;

	rc = ke_derive(j->ke, CBYTES(j->peer, j->peer_len), &gir, &j->err);
	if (!rc)
		rc = skeyseed_initial(j->prf_id, secret_view(&gir), ni, nr,
				      &seed, &j->err);
	if (!rc && !(j->keys = calloc(1, sizeof(*j->keys))))
		rc = -ENOMEM;
	if (!rc)
		rc = ike_sa_keys_derive(j->prf_id, secret_view(&seed), ni, nr,
					j->spi_i, j->spi_r, j->integ_len,
					j->encr_len, j->keys, &j->err);
	secret_free(&gir);
	secret_free(&seed);
	return rc;
}

static void run(void *arg)
{
	struct ke_job *j = arg;

	if (!j->ke)
		j->rc = ke_generate(&j->ke, j->group, &j->err);
	if (!j->rc && j->peer)
		j->rc = derive(j);
}

static void job_free(struct ke_job *j)
{
	ke_free(j->ke);
	if (j->keys) {
		ike_sa_keys_free(j->keys);
		free(j->keys);
	}
	free(j->peer);
	secret_wipe(j, sizeof(*j));
	free(j);
}

/* On the loop: hand the results to the SA, if it still exists. */
static void done(void *arg, int status)
{
	struct ke_job *j = arg;
	struct ike_sa *sa = j->sa;
	struct ikb_error err = { "" };
	struct sizes z;
	ke_then_fn *then = j->then;
	int rc = status ? status : j->rc;

	if (!sa) {
		job_free(j);
		return;
	}
	sa->job = NULL;
	sa->init->ke = j->ke;
	j->ke = NULL;
	snprintf(err.msg, sizeof(err.msg), "%s",
		 status	       ? "key exchange cancelled" :
		 j->err.msg[0] ? j->err.msg :
				 "key exchange failed");
	if (!rc && j->keys) {
		sa->keys = j->keys;
		j->keys = NULL;
		sa->prf_id = j->prf_id;
		rc = sizes_of(sa, &z, &err);
		if (!rc && (rc = contexts(sa, &z, &j->err)))
			snprintf(err.msg, sizeof(err.msg), "%s", j->err.msg);
	}
	job_free(j);
	then(sa, rc, err.msg);
}

static int job_inputs(struct ike_sa *sa, struct ke_job *j,
		      const struct wire_ke *peer, struct ikb_error *err)
{
	struct sizes z;
	int rc;

	if (!peer)
		return 0;
	rc = sizes_of(sa, &z, err);
	if (rc)
		return rc;
	j->peer = malloc(peer->len ? peer->len : 1);
	if (!j->peer)
		return -ENOMEM;
	memcpy(j->peer, peer->data, peer->len);
	j->peer_len = peer->len;
	j->prf_id = z.p->id;
	j->integ_len = z.integ ? z.integ->key_len : 0;
	j->encr_len = encr_keymat_len(z.encr, z.e->key_bits);
	memcpy(j->ni, sa->ni.ptr, sa->ni.len);
	memcpy(j->nr, sa->nr.ptr, sa->nr.len);
	j->ni_len = sa->ni.len;
	j->nr_len = sa->nr.len;
	memcpy(j->spi_i, sa->spi_i, 8);
	memcpy(j->spi_r, sa->spi_r, 8);
	return 0;
}

int keys_start(struct ike_sa *sa, const struct wire_ke *peer, ke_then_fn *then,
	       struct ikb_error *err)
{
	struct ke_job *j = calloc(1, sizeof(*j));
	int rc = j ? job_inputs(sa, j, peer, err) : -ENOMEM;

	if (rc) {
		if (j)
			job_free(j);
		return rc;
	}
	j->sa = sa;
	j->then = then;
	j->group = sa->ke_group;
	j->ke = sa->init->ke; /* the job owns our key pair while it runs */
	sa->init->ke = NULL;
	sa->job = j;
	helpers_run(run, done, j);
	return 0;
}

void keys_cancel(struct ike_sa *sa)
{
	if (sa->job)
		sa->job->sa = NULL;
	sa->job = NULL;
}
