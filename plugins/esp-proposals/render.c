// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Proposals as text for status and logs, in libreswan's spelling:
 * "AES_CBC_256-HMAC_SHA2_512-HMAC_SHA2_512_256-DH19+DH20, AES_GCM_16_128".
 * Output is always NUL-terminated and silently truncated.
 */
#include <stdio.h>

#include "esp_proposals.h"

struct out {
	char *buf;
	size_t len, used;
};

static void put(struct out *o, const char *s)
{
	while (*s) {
		if (o->used + 1 < o->len)
			o->buf[o->used] = *s;
		o->used++;
		s++;
	}
	if (o->len)
		o->buf[o->used < o->len ? o->used : o->len - 1] = '\0';
}

static void put_transform(struct out *o, const struct ikb_transform *x)
{
	const struct epr_alg *a = epr_alg_by_id(x->type, x->id);
	char tmp[48];

	if (a)
		snprintf(tmp, sizeof(tmp), "%s", a->fqn);
	else
		snprintf(tmp, sizeof(tmp), "TYPE%u_ID%u", x->type, x->id);
	put(o, tmp);
	if (x->key_bits) {
		snprintf(tmp, sizeof(tmp), "_%u", x->key_bits);
		put(o, tmp);
	}
}

static void put_proposal(struct out *o, const struct ikb_proposal *p)
{
	static const uint8_t order[] = { IKB_XF_ENCR, IKB_XF_INTEG, IKB_XF_PRF,
					 IKB_XF_KE, IKB_XF_ESN };
	const char *group_sep = "";

	for (size_t t = 0; t < sizeof(order); t++) {
		const char *sep = group_sep;

		for (unsigned i = 0; i < p->n; i++) {
			if (p->xf[i].type != order[t])
				continue;
			put(o, sep);
			put_transform(o, &p->xf[i]);
			sep = "+";
			group_sep = "-";
		}
	}
	/* transform types this table does not know, e.g. RFC 9370 ADDKE */
	for (unsigned i = 0; i < p->n; i++) {
		if (p->xf[i].type >= IKB_XF_ENCR && p->xf[i].type <= IKB_XF_ESN)
			continue;
		put(o, group_sep);
		put_transform(o, &p->xf[i]);
		group_sep = "-";
	}
}

size_t epr_render_proposal(const struct ikb_proposal *p, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };

	put(&o, "");
	put_proposal(&o, p);
	return o.used;
}

size_t epr_render_list(const struct ikb_proposal_list *l, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };

	put(&o, "");
	for (unsigned i = 0; i < l->n && i < IKB_PROPOSALS_MAX; i++) {
		if (i)
			put(&o, ", ");
		put_proposal(&o, &l->p[i]);
	}
	return o.used;
}
