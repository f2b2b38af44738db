// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A Child SA follows its IKE SA to a new path: the peer's NAT mapped it
 * to another address or port, or MOBIKE moved an end. The kernel plugin
 * moves each SA with its keys and sequence numbers (sa_move); policies
 * are replaced in place (policy_update), a changed selector's new policy
 * before the old one goes, so that no packet meets no policy meanwhile.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>

#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/path/path.h"

static int move_one(const struct ikb_kernel_ops *k, void *st,
		    const struct ikb_addr *old_dst, uint32_t spi,
		    const struct ikb_sa *now, struct ikb_error *err)
{
	struct ikb_sa_move to = {
		.src = now->src,
		.dst = now->dst,
		.encap_sport = now->encap_sport,
		.encap_dport = now->encap_dport,
		.sel = now->sel,
	};

	return k->sa_move(st, old_dst, spi, IPPROTO_ESP, &to, err);
}

static int move_policies(const struct ikb_kernel_ops *k, void *st,
			 struct ike_sa *ike, struct child_sa *c,
			 struct ikb_error *err)
{
	int rc = 0;

	for (unsigned i = 0; !rc && i < c->npol; i++) {
		struct ikb_policy p;
		struct ikb_error e2;

		child_policy(ike, c, c->pol[i].dir, &p);
		rc = k->policy_update(st, &p, err);
		if (!rc && !ike_sel_equal(&p.sel, &c->pol[i].sel))
			k->policy_del(st, &c->pol[i], &e2);
		if (!rc)
			c->pol[i] = p;
	}
	for (unsigned i = 0; !rc && i < c->nxpol; i++) {
		unsigned nd = c->mode == IKB_MODE_TUNNEL ? 3 : 2;
		struct ikb_policy p;

		child_policy_pair(ike, c, 1 + i / nd, c->xpol[i].dir, &p);
		if (!(rc = k->policy_update(st, &p, err)))
			c->xpol[i] = p;
	}
	return rc;
}

int child_sa_move(struct ike_sa *ike, struct child_sa *c,
		  const struct ike_path *old, struct ikb_error *err)
{
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(ike->e, &st);
	int rc = 0;

	if (!k || (!c->sa_in_done && !c->sa_out_done && !c->npol))
		return 0;
	if (!k->sa_move || !k->policy_update) {
		snprintf(err->msg, sizeof(err->msg),
			 "the kernel plugin cannot move SAs (no sa_move)");
		return -ENOTSUP;
	}
	if (c->sa_in_done) {
		child_sa_endpoints(ike, c, false, &c->sa_in);
		rc = move_one(k, st, &old->local, c->spi_in, &c->sa_in, err);
	}
	if (!rc && c->sa_out_done) {
		child_sa_endpoints(ike, c, true, &c->sa_out);
		rc = move_one(k, st, &old->remote, c->spi_out, &c->sa_out, err);
	}
	return rc ? rc : move_policies(k, st, ike, c, err);
}

void child_sa_move_all(struct ike_sa *ike, const struct ike_path *old)
{
	for (struct child_sa *c = ike->children; c; c = c->next) {
		struct ikb_error err = { "" };

		if (child_sa_move(ike, c, old, &err))
			ike_sa_log(
				ike, IKB_LOG_ERR,
				"Child SA %08x/%08x stays at the old address: %s",
				c->spi_in, c->spi_out, err.msg);
	}
}
