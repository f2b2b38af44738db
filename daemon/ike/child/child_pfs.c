// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PFS rule of a CREATE_CHILD_SA for a Child SA (RFC 7296 §1.3.1):
 * with pfs= (libreswan's default yes) every ESP proposal carries a KE
 * transform, the first KE of the proposal or else the IKE SA's group, and
 * a group the peer asked for by INVALID_KE_PAYLOAD wins; without, none.
 */
#include "ike/child/child.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"

void child_strip_ke(struct ikb_proposal *p)
{
	unsigned j = 0;

	for (unsigned i = 0; i < p->n; i++)
		if (p->xf[i].type != IKB_XF_KE)
			p->xf[j++] = p->xf[i];
	p->n = j;
}

/*
 * The ESP proposals of a CREATE_CHILD_SA: with PFS every one has a KE
 * transform, without none has. *group: our KE payload's, 0 for none.
 */
int child_pfs_list(struct ike_sa *sa, const struct conn *conn,
		   struct ikb_proposal_list *l, uint16_t *group,
		   struct ikb_error *err)
{
	const struct ikb_transform *first;
	int rc = conn_proposals(conn, IKB_PROTO_ESP, l, err);

	*group = 0;
	if (rc)
		return rc;
	if (!conn->pfs) {
		for (unsigned i = 0; i < l->n; i++)
			child_strip_ke(&l->p[i]);
		return 0;
	}
	first = l->n ? prop_xf(&l->p[0], IKB_XF_KE) : NULL;
	*group = first && first->id ? first->id : sa->ke_group;
	for (unsigned i = 0; i < l->n; i++) {
		struct ikb_proposal *p = &l->p[i];

		if (prop_xf(p, IKB_XF_KE) || p->n >= IKB_PROPOSAL_MAX_XFORMS)
			continue;
		p->xf[p->n++] = (struct ikb_transform){ IKB_XF_KE, *group, 0 };
	}
	if (sa->child_ke.group && prop_list_has_group(l, sa->child_ke.group))
		*group = sa->child_ke.group;
	return 0;
}
