// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * child.offer: the ESN transforms of each ESP proposal, offered and
 * accepted. esn=yes asks for ESN, esn=either takes both (ESN first), and
 * esn=no or unset takes none. A window of 0 forces "no ESN": the kernel
 * refuses ESN without a replay window (RFC 4303 §2.2.1 ties ESN to
 * anti-replay). A proposal whose esp= named ESN already keeps its choice.
 */
#include <errno.h>

#include "rw.h"

static bool has_esn(const struct ikb_proposal *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->xf[i].type == IKB_XF_ESN)
			return true;
	return false;
}

static int add_esn(struct ikb_proposal *p, unsigned num, uint16_t id,
		   struct ikb_error *err)
{
	if (p->n >= IKB_PROPOSAL_MAX_XFORMS)
		return ikb_error_set(
			err, E2BIG,
			"esn: ESP proposal %u has %u transforms, the most there can be: no room for its ESN transform",
			num, (unsigned)p->n);
	p->xf[p->n++] = (struct ikb_transform){ IKB_XF_ESN, id, 0 };
	return 0;
}

int rw_offer(void *state, const struct ikb_section *conn,
	     struct ikb_proposal_list *l, struct ikb_error *err)
{
	const struct rw_state *st = state;
	const struct ikb_value *e = st->host->get(conn, "esn");
	enum rw_esn esn = RW_ESN_UNSET;
	bool yes, no;
	int rc = 0;

	/* check_conn refused any other value at load */
	if (e && rw_parse_esn(e->value, &esn) < 0)
		esn = RW_ESN_UNSET;
	yes = esn == RW_ESN_YES || esn == RW_ESN_EITHER;
	no = esn != RW_ESN_YES;
	if (rw_conn_window(st, conn) == 0)
		yes = false, no = true;
	for (unsigned i = 0; !rc && i < l->n; i++) {
		if (has_esn(&l->p[i]))
			continue; /* esp= said it */
		if (yes)
			rc = add_esn(&l->p[i], i + 1, 1, err);
		if (!rc && no)
			rc = add_esn(&l->p[i], i + 1, 0, err);
	}
	return rc;
}
