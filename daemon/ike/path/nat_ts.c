// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Transport mode behind a NAT (RFC 7296 §2.23.1). A host behind a NAT
 * offers its own address in its TS, which its peer never sees: the
 * packets arrive from the NAT's. Each end therefore reads a single-host
 * TS on a NAT's side as the IKE SA's address there, installs that in the
 * kernel, and keeps the negotiated (original) address for the wire, so
 * that a response and a rekey name what the other end offered.
 */
#include <string.h>

#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/path/nat.h"

static bool is_host(const struct ikb_addr *a, uint8_t plen)
{
	return (a->family == AF_INET && plen == 32) ||
	       (a->family == AF_INET6 && plen == 128);
}

/* A NAT's side: the address the IKE SA sees there. */
static const struct ikb_addr *nat_side(const struct ike_sa *sa, bool local)
{
	if (!sa->nat || !(local ? sa->nat->local : sa->nat->remote))
		return NULL;
	return local ? &sa->path.local : &sa->path.remote;
}

static void subst(const struct ike_sa *sa, struct ikb_selector *s)
{
	const struct ikb_addr *l = nat_side(sa, true);
	const struct ikb_addr *r = nat_side(sa, false);

	if (l && is_host(&s->src, s->src_plen) && s->src.family == l->family)
		s->src = *l;
	if (r && is_host(&s->dst, s->dst_plen) && s->dst.family == r->family)
		s->dst = *r;
}

void nat_ts_kernel(const struct ike_sa *sa, const struct child_sa *c,
		   struct ikb_selector *out)
{
	*out = c->ts;
	if (c->mode == IKB_MODE_TRANSPORT)
		subst(sa, out);
}

/*
 * The list with each single-host TS of to's family rewritten to to; the
 * first such TS's own address in orig. false: nothing to rewrite.
 */
static bool rewrite(const struct wire_ts_pld *in, const struct ikb_addr *to,
		    struct wire_ts *buf, struct wire_ts_pld *out,
		    struct ikb_addr *orig)
{
	size_t alen = to->family == AF_INET ? 4 : 16;
	uint8_t type = to->family == AF_INET ? WIRE_TS_IPV4_ADDR_RANGE :
					       WIRE_TS_IPV6_ADDR_RANGE;
	bool any = false;

	out->n = in->n < WIRE_POOL_TS ? in->n : WIRE_POOL_TS;
	out->ts = buf;
	for (unsigned i = 0; i < out->n; i++) {
		buf[i] = in->ts[i];
		if (buf[i].type != type ||
		    memcmp(buf[i].start, buf[i].end, alen))
			continue;
		if (!any) {
			orig->family = to->family;
			memset(orig->bytes, 0, sizeof(orig->bytes));
			memcpy(orig->bytes, buf[i].start, alen);
		}
		any = true;
		memcpy(buf[i].start, to->bytes, alen);
		memcpy(buf[i].end, to->bytes, alen);
	}
	return any;
}

int nat_ts_select(const struct ike_sa *sa, enum ikb_mode mode,
		  const struct ikb_selector *ours,
		  const struct wire_ts_pld *local,
		  const struct wire_ts_pld *remote, bool strict, bool answer,
		  struct ikb_selector *out)
{
	const struct ikb_addr *l = nat_side(sa, true);
	const struct ikb_addr *r = nat_side(sa, false);
	struct wire_ts lbuf[WIRE_POOL_TS], rbuf[WIRE_POOL_TS];
	struct wire_ts_pld lp = *local, rp = *remote;
	struct ikb_addr lorig, rorig;
	struct ikb_selector k = *ours;
	bool lrw = false, rrw = false;

	if (!ts_select(ours, local, remote, strict, out))
		return 0;
	if (mode != IKB_MODE_TRANSPORT || (!l && !r))
		return -1;
	subst(sa, &k);
	if (l)
		lrw = rewrite(local, l, lbuf, &lp, &lorig);
	if (r)
		rrw = rewrite(remote, r, rbuf, &rp, &rorig);
	if ((!lrw && !rrw) || ts_select(&k, &lp, &rp, strict, out))
		return -1;
	if (lrw && ike_addr_equal(&out->src, l))
		out->src = answer ? lorig : ours->src;
	if (rrw && ike_addr_equal(&out->dst, r))
		out->dst = answer ? rorig : ours->dst;
	return 0;
}
