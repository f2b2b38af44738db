// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A Child SA's life in the kernel: the inbound SPI first (a larval SA),
 * then KEYMAT, both SAs and their policies; any failure takes back what
 * was installed so that the kernel never keeps half a Child SA.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>

#include "config/config.h"
#include "crypto/crypto.h"
#include "ike/child/child.h"
#include "ike/exchange/exchange.h"
#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/events.h"
#include "ike/path/path.h"
#include "ike/timers.h"
#include "ike/route/route.h"
#include "plugin/plugin_set.h"

struct child_sa *child_sa_new(struct ike_sa *sa, enum ikb_mode mode)
{
	struct child_sa *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->reqid = sa->e->next_reqid++;
	c->cpu = -1;
	c->mode = mode;
	c->created = wall_s();
	return c;
}

int child_sa_alloc_spi(struct ike_sa *sa, struct child_sa *c,
		       struct ikb_error *err)
{
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(sa->e, &st);
	int rc;

	if (!k) {
		snprintf(err->msg, sizeof(err->msg),
			 "no kernel plugin is loaded");
		return -ENOTSUP;
	}
	rc = k->spi_alloc(st, &sa->path.remote, &sa->path.local, IPPROTO_ESP,
			  c->reqid, &c->spi_in, err);
	c->spi_allocated = rc == 0;
	return rc;
}

static void swap_sel(const struct ikb_selector *in, struct ikb_selector *out)
{
	*out = *in;
	out->src = in->dst;
	out->dst = in->src;
	out->src_plen = in->dst_plen;
	out->dst_plen = in->src_plen;
	out->sport = in->dport;
	out->dport = in->sport;
}

/*
 * mark=VALUE[/MASK] on both SAs and every policy of the conn's Child SAs,
 * as libreswan's mark=: traffic with that mark takes the tunnel; mark-in=
 * and mark-out= give the inbound SA (and the in and fwd policies) and the
 * outbound SA (and the out policy) their own. VALUE -1 is a mark of each
 * reqid's own (65536 + reqid), which rekeys, per-CPU clones and a
 * takeover share, as they share the policies.
 */
#define UNIQUE_MARK_BASE 65536u

static void child_mark(const struct ike_sa *ike, const struct child_sa *c,
		       bool out, struct ikb_sa *sa)
{
	const struct conn *conn = engine_conn(ike->e, ike->conn);
	const struct conn_mark *m =
		conn ? out ? &conn->mark_out : &conn->mark_in : NULL;

	sa->mark = sa->mark_mask = 0;
	/* ipsec-interface=: both SAs in ipsecN's if_id, as the policies */
	sa->if_id = conn ? conn->if_id : 0;
	if (!m || !m->set)
		return;
	sa->mark = m->reqid ? UNIQUE_MARK_BASE + c->reqid : m->val;
	sa->mark_mask = m->mask;
}

void child_sa_endpoints(const struct ike_sa *ike, const struct child_sa *c,
			bool out, struct ikb_sa *sa)
{
	struct ikb_selector ts;

	sa->src = out ? ike->path.local : ike->path.remote;
	sa->dst = out ? ike->path.remote : ike->path.local;
	nat_ts_kernel(ike, c, &ts);
	if (out)
		sa->sel = ts;
	else
		swap_sel(&ts, &sa->sel);
	/* several pairs ride one SA: its own selector takes them all */
	if (ts_set_pairs(c->tsx) > 1) {
		memset(&sa->sel, 0, sizeof(sa->sel));
		sa->sel.src.family = sa->sel.dst.family = ts.src.family;
	}
	/* RFC 3948: ESP in UDP on the IKE SA's ports once NAT-T is on */
	sa->encap_sport = sa->encap_dport = 0;
	if (nat_encap(ike)) {
		sa->encap_sport = out ? ike->path.lport : ike->path.rport;
		sa->encap_dport = out ? ike->path.rport : ike->path.lport;
	}
}

/*
 * out: this host → peer. The "i" keys protect what the initiator of the
 * exchange that made c sends: for a CREATE_CHILD_SA that is not always
 * the IKE SA's initiator.
 */
static void fill_sa(const struct ike_sa *ike, const struct child_sa *c,
		    const struct child_keys *k, bool initiator, bool out,
		    struct ikb_sa *sa)
{
	bool use_i = out == initiator;
	const struct secret *ek = use_i ? &k->encr_i : &k->encr_r;
	const struct secret *ik = use_i ? &k->integ_i : &k->integ_r;
	const struct ikb_transform *esn = ike_prop_xf(&c->prop, IKB_XF_ESN);
	struct ikb_alg *enc = sa->aead.name[0] ? &sa->aead : &sa->encr;

	sa->spi = out ? c->spi_out : c->spi_in;
	sa->proto = IPPROTO_ESP;
	sa->mode = c->mode;
	sa->dir = out ? IKB_DIR_OUT : IKB_DIR_IN;
	sa->reqid = c->reqid;
	child_sa_endpoints(ike, c, out, sa);
	sa->esn = esn && esn->id == 1;
	child_mark(ike, c, out, sa);
	/* the kernel plugin decides where the id matters (outbound) */
	sa->cpu = c->cpu;
	memcpy(enc->key, ek->ptr,
	       ek->len < IKB_KEY_MAX ? ek->len : IKB_KEY_MAX);
	if (ik->len && sa->integ.name[0])
		memcpy(sa->integ.key, ik->ptr,
		       ik->len < IKB_KEY_MAX ? ik->len : IKB_KEY_MAX);
}

static int keymat(const struct ike_sa *ike, const struct ikb_sa *tmpl,
		  const struct child_keyin *kin, struct child_keys *k,
		  struct ikb_error *err)
{
	const struct ikb_alg *enc =
		tmpl->aead.name[0] ? &tmpl->aead : &tmpl->encr;
	struct crypto_err cerr = { 0 };
	int rc = child_keys_derive(ike->prf_id, secret_view(&ike->keys->sk_d),
				   kin->gir, kin->ni, kin->nr,
				   enc->key_bits / 8u,
				   tmpl->integ.key_bits / 8u, k, &cerr);

	if (rc)
		snprintf(err->msg, sizeof(err->msg), "KEYMAT: %s", cerr.msg);
	return rc;
}

void policy_fill(struct ikb_policy *p, const struct ikb_selector *ts,
		 enum ikb_dir dir, enum ikb_mode mode,
		 const struct ikb_addr *local, const struct ikb_addr *remote,
		 uint32_t reqid)
{
	bool out = dir == IKB_DIR_OUT;

	memset(p, 0, sizeof(*p));
	if (out)
		p->sel = *ts;
	else
		swap_sel(ts, &p->sel);
	p->dir = dir;
	/* more specific selectors first, as the kernel has no LPM here:
	 * a port beats its protocol alone, which beats any protocol */
	p->priority = 2000u - ts->src_plen - ts->dst_plen -
		      (ts->proto ? 1 : 0) - (ts->sport ? 1 : 0) -
		      (ts->dport ? 1 : 0);
	p->mode = mode;
	p->tmpl_src = out ? *local : *remote;
	p->tmpl_dst = out ? *remote : *local;
	p->proto = IPPROTO_ESP;
	p->reqid = reqid;
}

void child_policy(const struct ike_sa *ike, const struct child_sa *c,
		  enum ikb_dir dir, struct ikb_policy *p)
{
	struct ikb_selector ts;

	nat_ts_kernel(ike, c, &ts);
	child_policy_for(ike, c, &ts, dir, p);
}

void child_policy_for(const struct ike_sa *ike, const struct child_sa *c,
		      const struct ikb_selector *ts, enum ikb_dir dir,
		      struct ikb_policy *p)
{
	const struct conn *cn = engine_conn(ike->e, ike->conn);

	policy_fill(p, ts, dir, c->mode, &ike->path.local, &ike->path.remote,
		    c->reqid);
	if (cn && cn->priority)
		p->priority = cn->priority;
	/* the policies select what the SAs carry: out the outbound SA's
	 * mark, in and fwd the inbound one's */
	p->mark = dir == IKB_DIR_OUT ? c->sa_out.mark : c->sa_in.mark;
	p->mark_mask =
		dir == IKB_DIR_OUT ? c->sa_out.mark_mask : c->sa_in.mark_mask;
	/* with an if_id, output policies match only what ipsecN routes */
	p->if_id = c->sa_out.if_id;
	/* RFC 9611: a CPU without an SA of its own gets the fallback and
	 * the kernel acquires one for it; only output looks up by CPU */
	p->cpu_acquire = dir == IKB_DIR_OUT && ike->pcpu_on;
}

static void wipe_keys(struct ikb_sa *sa)
{
	secret_wipe(sa->aead.key, IKB_KEY_MAX);
	secret_wipe(sa->encr.key, IKB_KEY_MAX);
	secret_wipe(sa->integ.key, IKB_KEY_MAX);
}

void child_sa_del_out(struct ike_sa *ike, struct child_sa *c)
{
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(ike->e, &st);
	struct ikb_error err;

	if (k && c->sa_out_done)
		k->sa_del(st, &ike->path.remote, c->spi_out, IPPROTO_ESP, &err);
	c->sa_out_done = false;
}

void child_sa_uninstall(struct ike_sa *ike, struct child_sa *c)
{
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(ike->e, &st);
	struct ikb_error err;

	if (!k)
		return;
	child_pols_del_extra(ike, c);
	while (c->npol > 0)
		k->policy_del(st, &c->pol[--c->npol], &err);
	child_sa_del_out(ike, c);
	if (c->sa_in_done || c->spi_allocated)
		k->sa_del(st, &ike->path.local, c->spi_in, IPPROTO_ESP, &err);
	c->sa_in_done = c->spi_allocated = false;
}

int child_sa_add_in(struct ike_sa *ike, struct child_sa *c,
		    struct ikb_error *err)
{
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(ike->e, &st);
	int rc = k->sa_update(st, &c->sa_in, err);

	wipe_keys(&c->sa_in);
	c->sa_in_done = rc == 0;
	return rc;
}

/* The outbound SA is no longer waiting, whether it got in or not. */
static void outbound_done(struct ike_sa *ike, struct child_sa *c)
{
	if (c->state == CHILD_INBOUND_ONLY)
		child_set_state(ike, c, CHILD_INSTALLED);
}

int child_sa_add_out(struct ike_sa *ike, struct child_sa *c,
		     struct ikb_error *err)
{
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(ike->e, &st);
	int rc = k->sa_add(st, &c->sa_out, err);

	wipe_keys(&c->sa_out);
	c->sa_out_done = rc == 0;
	outbound_done(ike, c);
	return rc;
}

int child_sa_add_policies(struct ike_sa *ike, struct child_sa *c,
			  struct ikb_error *err)
{
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(ike->e, &st);
	enum ikb_dir dirs[3] = { IKB_DIR_OUT, IKB_DIR_IN, IKB_DIR_FWD };
	unsigned n = c->mode == IKB_MODE_TUNNEL ? 3 : 2;
	int rc = 0;

	for (unsigned i = 0; !rc && i < n; i++) {
		child_policy(ike, c, dirs[i], &c->pol[i]);
		if (!(rc = k->policy_add(st, &c->pol[i], err)))
			c->npol++;
	}
	return rc ? rc : child_pols_add_extra(ike, c, err);
}

int child_sa_prepare(struct ike_sa *ike, struct child_sa *c,
		     const struct child_keyin *kin, struct ikb_error *err)
{
	const struct conn *conn = engine_conn(ike->e, ike->conn);
	void *st;
	const struct ikb_proposals_ops *ops = engine_proposals(ike->e, &st);
	struct ikb_sa tmpl = { 0 };
	struct child_keys k = { 0 };
	struct ikb_proposal chosen;
	int rc = conn ? 0 : -ENOENT;

	if (rc)
		snprintf(err->msg, sizeof(err->msg), "conn was removed");
	if (!rc && !engine_kernel(ike->e, &st)) {
		snprintf(err->msg, sizeof(err->msg),
			 "no kernel plugin is loaded");
		rc = -ENOTSUP;
	}
	ike_prop_widen(&c->prop, &chosen);
	if (!rc)
		rc = ops->kernel_algs(st, &chosen, &tmpl, err);
	if (!rc)
		rc = keymat(ike, &tmpl, kin, &k, err);
	/* before the SAs are filled: they take the trap's reqid */
	if (!rc)
		c->trap_pols = trap_claim(ike, c);
	if (!rc)
		child_lifetime(ike, c, kin->initiator, &tmpl.life);
	c->sa_out = c->sa_in = tmpl;
	if (!rc) {
		fill_sa(ike, c, &k, kin->initiator, true, &c->sa_out);
		fill_sa(ike, c, &k, kin->initiator, false, &c->sa_in);
		rc = plugin_set_child_tune(engine_plugins(ike->e), conn->s,
					   &c->sa_out, err);
	}
	if (!rc)
		rc = plugin_set_child_tune(engine_plugins(ike->e), conn->s,
					   &c->sa_in, err);
	child_keys_free(&k);
	if (rc) {
		wipe_keys(&c->sa_in);
		wipe_keys(&c->sa_out);
	}
	return rc;
}

/* inbound first: the peer may send as soon as it has its pair */
static int add_sas(struct ike_sa *ike, struct child_sa *c,
		   struct ikb_error *err)
{
	int rc = child_sa_add_in(ike, c, err);

	return rc ? rc : child_sa_add_out(ike, c, err);
}

static int add_one_by_one(struct ike_sa *ike, struct child_sa *c,
			  struct ikb_error *err)
{
	int rc = add_sas(ike, c, err);

	return rc ? rc : child_sa_add_policies(ike, c, err);
}

/*
 * Both SAs and the policies in one call where the backend batches them
 * (ABI 4): one netlink round trip instead of four, in the same order
 * (inbound first). The backend says what
 * stands after a failure; the policies that do go here, as
 * child_sa_uninstall() only knows a prefix of c->pol, and the SAs there.
 */
static int add_at_once(struct ike_sa *ike, struct child_sa *c,
		       struct ikb_error *err)
{
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(ike->e, &st);
	enum ikb_dir dirs[3] = { IKB_DIR_OUT, IKB_DIR_IN, IKB_DIR_FWD };
	unsigned n = c->mode == IKB_MODE_TUNNEL ? 3 : 2;
	struct ikb_error e2;
	uint32_t done = 0;
	int rc;

	for (unsigned i = 0; i < n; i++)
		child_policy(ike, c, dirs[i], &c->pol[i]);
	rc = k->child_add(st, &c->sa_in, &c->sa_out, c->pol, n, &done, err);
	c->sa_in_done = done & 1;
	c->sa_out_done = (done & 2) != 0;
	outbound_done(ike, c);
	if (!rc) {
		c->npol = n;
		return child_pols_add_extra(ike, c, err);
	}
	for (unsigned i = n; i-- > 0;)
		if (done & (4u << i))
			k->policy_del(st, &c->pol[i], &e2);
	return rc;
}

/*
 * The new SAs carry the old Child SA's reqid, so its policies, moved here,
 * lead to them at once: the kernel picks the newest SA of a reqid. The
 * old SAs go with the old IKE SA (unique.c).
 */
static int add_taking_over(struct ike_sa *ike, struct child_sa *c,
			   struct ikb_error *err)
{
	struct child_sa *old = c->takeover;
	int rc = child_sa_add_in(ike, c, err);

	c->takeover = NULL;
	if (!rc)
		rc = child_sa_add_out(ike, c, err);
	if (rc)
		return rc;
	child_pols_move(c, old);
	ike_sa_log(
		ike, IKB_LOG_INFO,
		"Child SA takes over reqid %u and its policies from IKE SA #%lu",
		c->reqid, old->ike ? old->ike->serial : 0ul);
	return 0;
}

int child_sa_install(struct ike_sa *ike, struct child_sa *c,
		     struct ikb_error *err)
{
	/* IKE_AUTH: its initiator is the IKE SA's */
	struct child_keyin kin = {
		.ni = CBYTES(ike->ni.ptr, ike->ni.len),
		.nr = CBYTES(ike->nr.ptr, ike->nr.len),
		.initiator = ike->initiator,
	};
	int rc = child_sa_prepare(ike, c, &kin, err);
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(ike->e, &st);

	if (!rc && c->trap_pols)
		rc = add_sas(ike, c, err);
	else if (!rc && c->takeover)
		rc = add_taking_over(ike, c, err);
	else if (!rc && k && k->child_add)
		rc = add_at_once(ike, c, err);
	else if (!rc)
		rc = add_one_by_one(ike, c, err);
	if (rc)
		child_sa_uninstall(ike, c);
	wipe_keys(&c->sa_in);
	wipe_keys(&c->sa_out);
	return rc;
}

void child_sa_drop(struct child_sa *c)
{
	free(c->nonces);
	secret_wipe(c, sizeof(*c));
	free(c);
}

void child_sa_free(struct ike_sa *sa, struct child_sa *c)
{
	tasks_drop_child(sa, c);
	events_child_down(sa, c);
	child_sa_uninstall(sa, c);
	if (c->timer)
		event_free(c->timer);
	free(c->tsx);
	free(c->nonces);
	secret_wipe(c, sizeof(*c));
	free(c);
}

struct child_sa *child_by_spi_in(const struct ike_sa *sa, uint32_t spi)
{
	struct child_sa *c = sa->children;

	while (c && c->spi_in != spi)
		c = c->next;
	return c;
}

struct child_sa *child_by_spi_out(const struct ike_sa *sa, uint32_t spi)
{
	struct child_sa *c = sa->children;

	while (c && c->spi_out != spi)
		c = c->next;
	return c;
}

/* RFC 7296 §3.9: a nonce is at most 256 bytes (the codec checks it) */
#define CHILD_NONCE_MAX 256

int child_set_nonces(struct child_sa *c, const uint8_t *ni, size_t ni_len,
		     const uint8_t *nr, size_t nr_len)
{
	uint8_t *n;

	ni_len = ni_len < CHILD_NONCE_MAX ? ni_len : CHILD_NONCE_MAX;
	nr_len = nr_len < CHILD_NONCE_MAX ? nr_len : CHILD_NONCE_MAX;
	n = malloc(ni_len + nr_len ? ni_len + nr_len : 1);
	if (!n)
		return -ENOMEM;
	memcpy(n, ni, ni_len);
	memcpy(n + ni_len, nr, nr_len);
	free(c->nonces);
	c->nonces = n;
	c->ni_len = (uint16_t)ni_len;
	c->nr_len = (uint16_t)nr_len;
	return 0;
}

struct cbytes child_ni(const struct child_sa *c)
{
	return CBYTES(c->nonces, c->ni_len);
}

struct cbytes child_nr(const struct child_sa *c)
{
	return CBYTES(c->nonces ? c->nonces + c->ni_len : NULL, c->nr_len);
}

bool child_nonce_lower(const struct child_sa *x, const struct child_sa *y)
{
	struct cbytes xi = child_ni(x), xr = child_nr(x);
	struct cbytes yi = child_ni(y), yr = child_nr(y);
	struct nonce_pair a = { xi.ptr, xi.len, xr.ptr, xr.len };
	struct nonce_pair b = { yi.ptr, yi.len, yr.ptr, yr.len };

	return nonce_pair_lower(&a, &b);
}

/*
 * RFC 7296 §3.3.3: an ESP proposal carries the ESN type. What to offer is
 * up to the plugins' child.offer (replay-window's esn=); a proposal they
 * left without one gets "no ESN", which every ESP peer takes.
 */
int child_esn_default(struct ikb_proposal_list *l, struct ikb_error *err)
{
	for (unsigned i = 0; i < l->n; i++) {
		struct ikb_proposal *p = &l->p[i];

		if (prop_xf(p, IKB_XF_ESN))
			continue;
		if (p->n >= IKB_PROPOSAL_MAX_XFORMS) {
			snprintf(
				err->msg, sizeof(err->msg),
				"ESP proposal %u has %u transforms, the most there can be: no room for its ESN transform",
				i + 1, (unsigned)p->n);
			return -E2BIG;
		}
		p->xf[p->n++] = (struct ikb_transform){ IKB_XF_ESN, 0, 0 };
	}
	return 0;
}
