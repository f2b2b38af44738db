// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Conversion between the SA payload and struct ikb_proposal_list, which
 * the proposals plugin works on. The wire struct keeps what the plugin
 * type has no room for: proposal numbers, SPIs, unknown attributes.
 */
#include <string.h>

#include "wire/internal.h"

/* ikb_transform can express transform types 1..5 only. */
static bool proposal_usable(const struct wire_proposal *p)
{
	unsigned i;

	if (p->unknown_type || p->unknown_protocol)
		return false;
	for (i = 0; i < p->n_xf; i++)
		if (p->xf[i].type < IKB_XF_ENCR || p->xf[i].type > IKB_XF_ESN)
			return false;
	return true;
}

int wire_sa_to_proposals(const struct wire_sa *sa,
			 struct ikb_proposal_list *out,
			 uint8_t nums[IKB_PROPOSALS_MAX])
{
	unsigned i, j;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < sa->n_prop && out->n < IKB_PROPOSALS_MAX; i++) {
		const struct wire_proposal *w = &sa->prop[i];
		struct ikb_proposal *p = &out->p[out->n];

		if (!proposal_usable(w))
			continue;
		p->protocol = w->protocol;
		p->n = 0;
		for (j = 0; j < w->n_xf && p->n < IKB_PROPOSAL_MAX_XFORMS;
		     j++) {
			if (w->xf[j].unknown_attr)
				continue;
			p->xf[p->n].type = w->xf[j].type;
			p->xf[p->n].id = w->xf[j].id;
			p->xf[p->n].key_bits = w->xf[j].key_bits;
			p->n++;
		}
		if (p->n == 0)
			continue;
		if (nums)
			nums[out->n] = w->num;
		out->n++;
	}
	return (int)out->n;
}

int wire_sa_from_proposals(struct wire_sa_store *st,
			   const struct ikb_proposal_list *in,
			   uint8_t first_num, const uint8_t *spi,
			   uint8_t spi_size, struct wire_sa *out)
{
	unsigned i, j;

	if (in->n == 0 || in->n > IKB_PROPOSALS_MAX || spi_size > 8 ||
	    (spi_size && !spi) || first_num == 0 ||
	    first_num + in->n - 1 > UINT8_MAX)
		return -EINVAL;
	for (i = 0; i < in->n; i++) {
		struct wire_proposal *w = &st->prop[i];
		const struct ikb_proposal *p = &in->p[i];

		if (p->n == 0 || p->n > IKB_PROPOSAL_MAX_XFORMS)
			return -EINVAL;
		memset(w, 0, sizeof(*w));
		w->num = (uint8_t)(first_num + i);
		w->protocol = p->protocol;
		w->spi_size = spi_size;
		if (spi_size)
			memcpy(w->spi, spi, spi_size);
		w->n_xf = p->n;
		for (j = 0; j < p->n; j++) {
			memset(&st->xf[i][j], 0, sizeof(st->xf[i][j]));
			st->xf[i][j].type = p->xf[j].type;
			st->xf[i][j].id = p->xf[j].id;
			st->xf[i][j].key_bits = p->xf[j].key_bits;
		}
		w->xf = st->xf[i];
	}
	out->prop = st->prop;
	out->n_prop = (uint8_t)in->n;
	return 0;
}
