// SPDX-License-Identifier: GPL-2.0-or-later
/* The proposal an SA keeps; see prop.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ike/prop.h"
#include "wire/wire.h"

bool ike_prop_fits(const struct ikb_proposal *chosen, struct ikb_error *err)
{
	if (chosen->n <= IKE_PROP_XFORMS)
		return true;
	if (err)
		snprintf(
			err->msg, sizeof(err->msg),
			"SA payload: the chosen proposal has %u transforms; one of each type is at most %d",
			chosen->n, IKE_PROP_XFORMS);
	return false;
}

int ike_prop_keep(struct ike_prop *p, const struct ikb_proposal *chosen,
		  struct ikb_error *err)
{
	if (!ike_prop_fits(chosen, err))
		return -E2BIG;
	p->protocol = chosen->protocol;
	p->n = chosen->n;
	memcpy(p->xf, chosen->xf, chosen->n * sizeof(p->xf[0]));
	return 0;
}

void ike_prop_widen(const struct ike_prop *p, struct ikb_proposal *out)
{
	memset(out, 0, sizeof(*out));
	out->protocol = p->protocol;
	out->n = p->n;
	memcpy(out->xf, p->xf, p->n * sizeof(p->xf[0]));
}

static const struct ikb_transform *xf_find(const struct ikb_transform *xf,
					   unsigned n, uint8_t type)
{
	for (unsigned i = 0; i < n; i++)
		if (xf[i].type == type)
			return &xf[i];
	return NULL;
}

const struct ikb_transform *ike_prop_xf(const struct ike_prop *p, uint8_t type)
{
	return xf_find(p->xf, p->n, type);
}

const struct ikb_transform *prop_xf(const struct ikb_proposal *p, uint8_t type)
{
	return xf_find(p->xf, p->n, type);
}

void ike_prop_render(const struct ike_prop *p, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < p->n && off < len; i++) {
		const struct ikb_transform *x = &p->xf[i];
		const char *name = wire_xform_id_name(x->type, x->id);
		char kb[8] = "";

		if (x->type == IKB_XF_INTEG && x->id == 0)
			continue;
		if (x->key_bits)
			snprintf(kb, sizeof(kb), "_%u", x->key_bits);
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s",
					off ? "-" : "", name ? name : "?", kb);
	}
}
