// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What is ours in the kernel, and removing it. See XFRM_REQID_BASE in
 * xfrm.h for why a reqid range is the tag: it is the one field that both
 * an SA and a policy's template carry, that the kernel stores unchanged,
 * and that changes nothing about which packets match.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "xfrm.h"

int xfrm_reqid_to_kernel(uint32_t reqid, uint32_t *out, struct ikb_error *err)
{
	if (reqid & ~XFRM_REQID_MASK)
		return ikb_error_set(
			err, ERANGE,
			"reqid %u is outside 0..%u, the range kernel-xfrm maps onto its own kernel reqids 0x%08x..0x%08x",
			reqid, XFRM_REQID_MASK, XFRM_REQID_BASE,
			XFRM_REQID_BASE | XFRM_REQID_MASK);
	*out = XFRM_REQID_BASE | reqid;
	return 0;
}

bool xfrm_reqid_ours(uint32_t kreqid)
{
	return (kreqid & ~XFRM_REQID_MASK) == XFRM_REQID_BASE;
}

uint32_t xfrm_reqid_from_kernel(uint32_t kreqid)
{
	return kreqid & XFRM_REQID_MASK;
}

/* One of our kernel objects, enough to delete it. */
struct own_item {
	struct xfrm_usersa_id sa;
	struct xfrm_userpolicy_id pol;
	struct xfrm_mark mark;
	uint32_t if_id; /* the kernel finds an SA or policy by it too */
};

struct own_list {
	struct own_item *v;
	size_t n, cap;
	bool policies;
	/* dump(): hand each one to the caller instead. */
	void (*sa_cb)(void *ctx, const struct ikb_sa *);
	void (*pol_cb)(void *ctx, const struct ikb_policy *);
	void *ctx;
};

/* Room for XFRMA_SA_PCPU, past the end of older headers' XFRMA_MAX. */
#define OWN_ATTR_MAX (XFRMA_MAX > XFRMA_SA_PCPU ? XFRMA_MAX : XFRMA_SA_PCPU)

struct own_attrs {
	const struct nlattr *tb[OWN_ATTR_MAX + 1];
};

static int attr_cb(const struct nlattr *a, void *data)
{
	struct own_attrs *o = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type <= OWN_ATTR_MAX)
		o->tb[type] = a;
	return MNL_CB_OK;
}

static struct own_item *own_add(struct own_list *l)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		struct own_item *v = reallocarray(l->v, cap, sizeof(*v));

		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	return &l->v[l->n++];
}

static void get_mark(struct own_attrs *o, uint32_t *v, uint32_t *m)
{
	const struct xfrm_mark *mk;

	if (o->tb[XFRMA_MARK] &&
	    mnl_attr_get_payload_len(o->tb[XFRMA_MARK]) >= sizeof(*mk)) {
		mk = mnl_attr_get_payload(o->tb[XFRMA_MARK]);
		*v = mk->v;
		*m = mk->m;
	}
}

static void get_if_id(struct own_attrs *o, uint32_t *if_id)
{
	if (o->tb[XFRMA_IF_ID] &&
	    mnl_attr_get_payload_len(o->tb[XFRMA_IF_ID]) == 4)
		*if_id = mnl_attr_get_u32(o->tb[XFRMA_IF_ID]);
}

static void sa_to_ikb(struct ikb_sa *sa, const struct xfrm_usersa_info *p,
		      struct own_attrs *o)
{
	memset(sa, 0, sizeof(*sa));
	xfrm_addr_get(&sa->src, &p->saddr, p->family);
	xfrm_addr_get(&sa->dst, &p->id.daddr, p->family);
	sa->spi = ntohl(p->id.spi);
	sa->proto = p->id.proto;
	sa->mode = p->mode == XFRM_MODE_TUNNEL ? IKB_MODE_TUNNEL :
						 IKB_MODE_TRANSPORT;
	sa->reqid = xfrm_reqid_from_kernel(p->reqid);
	xfrm_sel_get(&sa->sel, &p->sel);
	sa->replay_window = p->replay_window;
	sa->esn = p->flags & XFRM_STATE_ESN;
	sa->cpu = -1;
	get_if_id(o, &sa->if_id);
	if (o->tb[XFRMA_SA_PCPU] &&
	    mnl_attr_get_payload_len(o->tb[XFRMA_SA_PCPU]) == 4)
		sa->cpu = (int32_t)mnl_attr_get_u32(o->tb[XFRMA_SA_PCPU]);
	if (o->tb[XFRMA_REPLAY_ESN_VAL]) {
		const struct xfrm_replay_state_esn *r =
			mnl_attr_get_payload(o->tb[XFRMA_REPLAY_ESN_VAL]);

		sa->replay_window = r->replay_window;
	}
	/* Names only: keys stay in the kernel. */
	if (o->tb[XFRMA_ALG_AEAD])
		memcpy(sa->aead.name,
		       mnl_attr_get_payload(o->tb[XFRMA_ALG_AEAD]),
		       sizeof(sa->aead.name) - 1);
	if (o->tb[XFRMA_ALG_CRYPT])
		memcpy(sa->encr.name,
		       mnl_attr_get_payload(o->tb[XFRMA_ALG_CRYPT]),
		       sizeof(sa->encr.name) - 1);
	if (o->tb[XFRMA_ALG_AUTH_TRUNC])
		memcpy(sa->integ.name,
		       mnl_attr_get_payload(o->tb[XFRMA_ALG_AUTH_TRUNC]),
		       sizeof(sa->integ.name) - 1);
	get_mark(o, &sa->mark, &sa->mark_mask);
}

/* One of ours (no SPI-0 placeholder), its attributes parsed into o. */
static const struct xfrm_usersa_info *own_sa(const struct nlmsghdr *nlh,
					     struct own_attrs *o)
{
	const struct xfrm_usersa_info *p = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type != XFRM_MSG_NEWSA ||
	    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*p)) ||
	    !xfrm_reqid_ours(p->reqid))
		return NULL;
	/*
	 * SPI 0: the kernel's placeholder while an ACQUIRE is pending. No
	 * request can name it, and it expires by itself.
	 */
	if (p->id.spi == 0)
		return NULL;
	mnl_attr_parse(nlh, sizeof(*p), attr_cb, o);
	return p;
}

int xfrm_sa_parse(const struct nlmsghdr *nlh, struct ikb_sa *sa)
{
	struct own_attrs o = { 0 };
	const struct xfrm_usersa_info *p = own_sa(nlh, &o);

	if (!p)
		return -1;
	sa_to_ikb(sa, p, &o);
	return 0;
}

static int sa_cb(const struct nlmsghdr *nlh, void *data)
{
	struct own_list *l = data;
	struct own_attrs o = { 0 };
	const struct xfrm_usersa_info *p;
	struct own_item *it;
	struct ikb_sa sa;

	if (l->sa_cb) {
		if (!xfrm_sa_parse(nlh, &sa))
			l->sa_cb(l->ctx, &sa);
		return MNL_CB_OK;
	}
	p = own_sa(nlh, &o);
	if (!p)
		return MNL_CB_OK;
	it = own_add(l);
	if (!it)
		return MNL_CB_ERROR;
	it->sa.daddr = p->id.daddr;
	it->sa.spi = p->id.spi;
	it->sa.family = p->family;
	it->sa.proto = p->id.proto;
	get_mark(&o, &it->mark.v, &it->mark.m);
	return MNL_CB_OK;
}

static void pol_to_ikb(struct ikb_policy *pol,
		       const struct xfrm_userpolicy_info *p,
		       const struct xfrm_user_tmpl *t, struct own_attrs *o)
{
	static const enum ikb_dir dirs[] = { IKB_DIR_IN, IKB_DIR_OUT,
					     IKB_DIR_FWD };

	memset(pol, 0, sizeof(*pol));
	xfrm_sel_get(&pol->sel, &p->sel);
	pol->dir = dirs[p->dir];
	pol->priority = p->priority;
	if (t && t->mode == XFRM_MODE_TUNNEL)
		pol->mode = IKB_MODE_TUNNEL;
	if (t && pol->mode == IKB_MODE_TUNNEL) {
		xfrm_addr_get(&pol->tmpl_src, &t->saddr, t->family);
		xfrm_addr_get(&pol->tmpl_dst, &t->id.daddr, t->family);
	}
	if (!t) {
		pol->action = p->action == XFRM_POLICY_BLOCK ?
				      IKB_POLICY_BLOCK :
				      IKB_POLICY_PASS;
		pol->cpu_acquire = p->flags & XFRM_POLICY_CPU_ACQUIRE;
		get_mark(o, &pol->mark, &pol->mark_mask);
		get_if_id(o, &pol->if_id);
		return;
	}
	pol->proto = t->id.proto;
	pol->reqid = xfrm_reqid_from_kernel(t->reqid);
	get_if_id(o, &pol->if_id);
	pol->cpu_acquire = p->flags & XFRM_POLICY_CPU_ACQUIRE;
	get_mark(o, &pol->mark, &pol->mark_mask);
}

static int pol_cb(const struct nlmsghdr *nlh, void *data)
{
	struct own_list *l = data;
	const struct xfrm_userpolicy_info *p = mnl_nlmsg_get_payload(nlh);
	const struct xfrm_user_tmpl *t;
	struct own_attrs o = { 0 };
	struct own_item *it;
	struct ikb_policy pol;

	if (nlh->nlmsg_type != XFRM_MSG_NEWPOLICY ||
	    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*p)) ||
	    p->dir >= XFRM_POLICY_MAX)
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(*p), attr_cb, &o);
	/* Ours has exactly our one template, or is a shunt of our index */
	if (!o.tb[XFRMA_TMPL] && xfrm_shunt_index_ours(p->index)) {
		t = NULL;
	} else if (!o.tb[XFRMA_TMPL] ||
		   mnl_attr_get_payload_len(o.tb[XFRMA_TMPL]) < sizeof(*t)) {
		return MNL_CB_OK;
	} else {
		t = mnl_attr_get_payload(o.tb[XFRMA_TMPL]);
		if (!xfrm_reqid_ours(t->reqid))
			return MNL_CB_OK;
	}
	if (l->pol_cb) {
		pol_to_ikb(&pol, p, t, &o);
		l->pol_cb(l->ctx, &pol);
		return MNL_CB_OK;
	}
	it = own_add(l);
	if (!it)
		return MNL_CB_ERROR;
	it->pol.sel = p->sel;
	it->pol.index = p->index;
	it->pol.dir = p->dir;
	get_mark(&o, &it->mark.v, &it->mark.m);
	get_if_id(&o, &it->if_id);
	return MNL_CB_OK;
}

static int walk(struct xfrm_state *st, uint16_t type, struct own_list *l,
		struct ikb_error *err)
{
	char buf[XFRM_BUF];
	struct nlmsghdr *nlh = xfrm_nl_start(buf, type, NLM_F_DUMP);

	l->policies = type == XFRM_MSG_GETPOLICY;
	return xfrm_nl_talk(st, nlh, l->policies ? pol_cb : sa_cb, l, err);
}

static int del_one(struct xfrm_state *st, const struct own_item *it,
		   bool policy, struct ikb_error *err)
{
	char buf[XFRM_BUF];
	struct nlmsghdr *nlh;

	nlh = xfrm_nl_start(buf, policy ? XFRM_MSG_DELPOLICY : XFRM_MSG_DELSA,
			    0);
	if (policy)
		memcpy(mnl_nlmsg_put_extra_header(nlh, sizeof(it->pol)),
		       &it->pol, sizeof(it->pol));
	else
		memcpy(mnl_nlmsg_put_extra_header(nlh, sizeof(it->sa)), &it->sa,
		       sizeof(it->sa));
	if (it->mark.v || it->mark.m)
		mnl_attr_put(nlh, XFRMA_MARK, sizeof(it->mark), &it->mark);
	xfrm_if_id_put(nlh, it->if_id);
	return xfrm_nl_talk(st, nlh, NULL, NULL, err);
}

/* Delete everything one dump found; a vanished entry is not a failure. */
static int flush_list(struct xfrm_state *st, uint16_t type, unsigned *count,
		      struct ikb_error *err)
{
	struct own_list l = { 0 };
	int rc = walk(st, type, &l, err);

	for (size_t i = 0; !rc && i < l.n; i++) {
		rc = del_one(st, &l.v[i], l.policies, err);
		if (rc == -ENOENT || rc == -ESRCH)
			rc = 0;
		else if (!rc)
			(*count)++;
	}
	free(l.v);
	return rc;
}

int xfrm_flush_own(struct xfrm_state *st, unsigned *nsa, unsigned *npol,
		   struct ikb_error *err)
{
	int rc;

	*nsa = *npol = 0;
	/*
	 * SAs first: a policy without its SA drops packets, while an SA
	 * without its policy would let them leave in clear meanwhile.
	 */
	rc = flush_list(st, XFRM_MSG_GETSA, nsa, err);
	return rc ? rc : flush_list(st, XFRM_MSG_GETPOLICY, npol, err);
}

int xfrm_dump(void *state, void (*sacb)(void *ctx, const struct ikb_sa *),
	      void (*polcb)(void *ctx, const struct ikb_policy *), void *ctx)
{
	struct own_list l = { .sa_cb = sacb, .pol_cb = polcb, .ctx = ctx };
	struct ikb_error err;
	int rc = 0;

	if (sacb)
		rc = walk(state, XFRM_MSG_GETSA, &l, &err);
	if (!rc && polcb)
		rc = walk(state, XFRM_MSG_GETPOLICY, &l, &err);
	return rc;
}
