// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CREATE_CHILD_SA for Child SAs (RFC 7296 §1.3.1, §1.3.3), both roles:
 * the plan's further Child SAs after IKE_AUTH, and rekeying (§2.8) with
 * make-before-break. Inbound SAs go in first on both sides; the
 * initiator adds its new outbound SA when the response arrives (the
 * responder can receive on it by then); the responder adds its outbound
 * SA only when the old Child SA is deleted, so that it never sends on a
 * pair the initiator has not installed. A simultaneous rekey (§2.8.1)
 * leaves both new pairs up until the one whose exchange had the lowest
 * nonce is deleted by its initiator. Around it: child_pfs.c has the PFS
 * rule, child_rekey.c what only a rekey does, dispatch.c tells the uses
 * of CREATE_CHILD_SA apart, msg.c sends the requests and responses, and
 * the IKE SA rekey lives in rekey_ike.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/path/path.h"
#include "ike/conn/conn.h"
#include "ike/msg/msg.h"
#include "ike/exchange/exchange.h"
#include "ike/timers.h"
#include "ike/exchange/task.h"

struct ccs_out *ccs_out_new(void)
{
	struct ccs_out *o = calloc(1, sizeof(*o));

	if (o && child_out_init(&o->child)) {
		free(o);
		return NULL;
	}
	return o;
}

void ccs_out_free(struct ccs_out *o)
{
	if (!o)
		return;
	child_out_fini(&o->child);
	free(o);
}

/* Initiator ------------------------------------------------------------ */

static int child_for(struct ike_sa *sa, const struct conn_view *v,
		     struct child_sa *old, struct child_sa *c,
		     struct ikb_error *err)
{
	const struct conn_plan *plan;
	struct child_sa *fb;
	int rc;

	if (old) {
		c->reqid = old->reqid;
		c->ts = old->ts;
		c->cpu = old->cpu;
		c->rekey_of = old->spi_in;
		return child_copy_tsx(c, old, err);
	}
	if (ts_set_of_conn(v, &c->tsx))
		return ikb_error_set(err, ENOMEM, "out of memory");
	if (sa->x->cpu >= 0)
		return pcpu_acquired_child(sa, c, sa->x->cpu, err);
	rc = conn_plan(v, &plan, err);
	if (rc)
		return rc;
	if (sa->plan_next < plan->n) {
		c->ts = plan->c[sa->plan_next].ts;
		c->cpu = plan->c[sa->plan_next].cpu;
	} else {
		rc = -ENOENT;
	}
	/* a clone goes where the fallback's policies send: its reqid */
	fb = !rc && c->cpu >= 0 ? pcpu_fallback(sa, &c->ts) : NULL;
	if (fb)
		c->reqid = fb->reqid;
	return rc;
}

static int build_request(struct ike_sa *sa, struct ccs_out *o,
			 struct child_sa *c, const struct child_sa *old)
{
	int rc;

	if (old)
		child_rekey_notify(&o->m, old->spi_in);
	if (c->mode == IKB_MODE_TRANSPORT)
		msg_notify(&o->m, WIRE_N_USE_TRANSPORT_MODE, NULL, 0);
	msg_notify(&o->m, WIRE_N_ESP_TFC_PADDING_NOT_SUPPORTED, NULL, 0);
	if (!old && c->cpu >= 0)
		pcpu_add_notify(&o->m, o->res, c->cpu);
	rc = child_add_sa(&o->m, &o->child, &o->child.l, 1, c->spi_in);
	msg_add_nonce_ke(&o->m, sa->x->nonce, sa->x->ke);
	child_add_ts(&o->m, &o->child, c, true);
	return rc;
}

/* A request being built, across the key pair made on the helper pool. */
struct ccs_start {
	struct ccs_out *o;
	uint32_t old_spi; /* inbound SPI of the Child SA rekeyed; 0: none */
	uint16_t group;
};

static void start_free(struct ccs_start *st)
{
	ccs_out_free(st->o);
	free(st);
}

/* The rest of the request, our KE in sa->x->ke; 0 or -errno. */
static int send_request(struct ike_sa *sa, struct ccs_start *st,
			struct ikb_error *err)
{
	struct child_sa *old =
		st->old_spi ? child_by_spi_in(sa, st->old_spi) : NULL;
	int rc = 0;

	if (st->old_spi && !old) {
		snprintf(err->msg, sizeof(err->msg),
			 "Child SA %08x went meanwhile", st->old_spi);
		rc = -ENOENT;
	}
	if (!rc)
		rc = build_request(sa, st->o, sa->x->child, old);
	if (!rc)
		rc = msg_request_sk(sa, &st->o->m, WIRE_EXCH_CREATE_CHILD_SA);
	if (rc)
		return rc;
	sa->x->spi = st->old_spi;
	if (old)
		ike_sa_log(sa, IKB_LOG_INFO,
			   "CREATE_CHILD_SA: rekeying Child SA %08x%s",
			   old->spi_in, st->group ? " (PFS)" : "");
	else
		ike_sa_log(sa, IKB_LOG_INFO,
			   "CREATE_CHILD_SA: Child SA of the plan%s",
			   st->group ? " (PFS)" : "");
	return 0;
}

static void start_failed(struct ike_sa *sa, const struct ikb_error *err)
{
	ike_sa_log(sa, IKB_LOG_ERR, "CREATE_CHILD_SA: %s",
		   err->msg[0] ? err->msg : "cannot build the request");
	exchange_end(sa); /* its Child SA with it */
}

/* On the loop: our key pair is made (PFS). */
static void paired(struct ike_sa *sa, void *arg, struct kex_result *res)
{
	struct ccs_start *st = arg;
	struct ikb_error err = { "" };
	bool plan;

	if (!sa) {
		start_free(st);
		return;
	}
	plan = !st->old_spi && sa->x->cpu < 0;
	snprintf(err.msg, sizeof(err.msg), "%s", res->why);
	if (!res->rc) {
		sa->x->ke = res->ke;
		res->ke = NULL;
		err.msg[0] = '\0';
	}
	if (res->rc || send_request(sa, st, &err)) {
		start_failed(sa, &err);
		if (plan)
			sa->plan_next++; /* could not even ask: the next one */
		tasks_schedule(sa);
	}
	start_free(st);
}

int create_child_start(struct ike_sa *sa, struct child_sa *old, int32_t cpu)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct exchange *x =
		exchange_new(sa, old ? OUT_REKEY_CHILD : OUT_CHILD);
	struct ccs_start *st = x ? calloc(1, sizeof(*st)) : NULL;
	struct ikb_error err = { "" };
	struct child_sa *c = NULL;
	struct conn_view v;
	uint16_t group = 0;
	int rc;

	if (!x)
		return -ENOMEM;
	x->cpu = cpu;
	rc = st && (st->o = ccs_out_new()) && conn ? 0 : -ENOMEM;
	if (!rc)
		rc = conn_view_local(sa->e, conn, &v, &err);
	if (!rc && !(c = child_sa_new(sa, old ? old->mode : v.mode)))
		rc = -ENOMEM;
	if (!rc)
		x->child = c;
	if (!rc)
		rc = child_for(sa, &v, old, c, &err);
	if (!rc)
		rc = child_pfs_list(sa, conn, &st->o->child.l, &group, &err);
	if (!rc)
		rc = child_sa_alloc_spi(sa, c, &err);
	if (!rc)
		rc = msg_nonce(sa);
	if (!rc) {
		st->old_spi = old ? old->spi_in : 0;
		st->group = group;
	}
	/* PFS: the request goes out once our key pair is made */
	if (!rc && group &&
	    !(rc = kex_start(sa, group, NULL, NULL, paired, st, &err)))
		return 0;
	if (!rc && !group)
		rc = send_request(sa, st, &err);
	if (rc)
		start_failed(sa, &err);
	if (st)
		start_free(st);
	return rc;
}

/* The responder's choice, before the key exchange: 0 or -errno. */
static int check_response(struct ike_sa *sa, const struct wire_msg *m,
			  const struct expected *x, struct child_sa *c,
			  struct ikb_selector *got, struct ikb_error *err)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	bool transport = wire_find_notify(m, WIRE_N_USE_TRANSPORT_MODE);
	struct ikb_proposal_list *ours = calloc(1, sizeof(*ours));
	uint16_t group;
	uint8_t num;
	int rc = -EBADMSG;

	if (!ours || !conn || x->sa->n_prop != 1 || x->nonce->len < 16 ||
	    x->nonce->len > 256)
		snprintf(
			err->msg, sizeof(err->msg),
			"response: not one SA proposal, or a Nonce not 16..256 octets");
	else if (child_pfs_list(sa, conn, ours, &group, err) ||
		 child_select(sa, ours, x->sa, c, &num, "responder's choice",
			      WIRE_EXCH_CREATE_CHILD_SA))
		snprintf(err->msg, sizeof(err->msg),
			 "the responder chose a proposal we did not offer");
	else if (transport != (c->mode == IKB_MODE_TRANSPORT))
		snprintf(err->msg, sizeof(err->msg),
			 "the responder did not agree to the mode");
	else if (child_check_ts(sa, c, x->tsi, x->tsr, got))
		snprintf(err->msg, sizeof(err->msg),
			 "the responder's TS are not within ours");
	else
		rc = 0;
	if (!rc && child_set_nonces(c, sa->x->nonce, IKE_SA_NONCE_LEN,
				    x->nonce->data, x->nonce->len)) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		rc = -ENOMEM;
	}
	free(ours);
	return rc;
}

/* Installs c's in and out SAs, make-before-break; 0 or -errno. */
static int install(struct ike_sa *sa, struct child_sa *c,
		   const struct child_sa *old, const struct secret *gir,
		   struct ikb_error *err)
{
	struct child_keyin kin = {
		secret_view(gir),
		child_ni(c),
		child_nr(c),
		true,
	};
	int rc = old ? 0 : pcpu_settle(sa, c, err);

	if (!rc)
		rc = child_sa_prepare(sa, c, &kin, err);
	/* in, then out; a successor keeps old's policies */
	if (!rc)
		rc = child_sa_add_in(sa, c, err);
	if (!rc)
		rc = child_sa_add_out(sa, c, err);
	if (!rc && !old && !child_shares_policies(sa, c))
		rc = child_sa_add_policies(sa, c, err);
	if (rc)
		ike_sa_log(
			sa, IKB_LOG_ERR,
			"CREATE_CHILD_SA: Child SA not installed, deleting it at the peer: %s",
			err->msg);
	return rc;
}

/* Our Child SA is up (rc 0), or the peer has its half and we not. */
static void settle(struct ike_sa *sa, int rc)
{
	bool rekey = sa->x->kind == OUT_REKEY_CHILD;
	struct child_sa *c = exchange_take_child(sa);
	struct child_sa *old = rekey ? child_by_spi_in(sa, sa->x->spi) : NULL;

	if (rc) {
		child_keep_failed(sa, c); /* old stays */
	} else {
		child_established(sa, c, old ? "rekeyed" : "established");
		if (old)
			child_rekey_resolve(sa, c, old);
	}
	if (!rekey && sa->x->cpu < 0)
		sa->plan_next++;
}

bool create_child_malformed(struct ike_sa *sa, const char *why)
{
	ike_sa_log(sa, IKB_LOG_WARNING, "CREATE_CHILD_SA: %s", why);
	if (sa->x->child)
		settle(sa, -EBADMSG);
	return true;
}

/* On the loop: g^ir (PFS) is done; the selectors chosen are in arg. */
static void keyed(struct ike_sa *sa, void *arg, struct kex_result *res)
{
	struct ikb_selector *got = arg;
	struct ikb_error err = { "" };
	struct child_sa *c, *old;
	int rc = res->rc;

	if (!sa) {
		free(got);
		return;
	}
	c = sa->x->child;
	old = sa->x->kind == OUT_REKEY_CHILD ? child_by_spi_in(sa, sa->x->spi) :
					       NULL;
	if (rc) {
		ike_sa_log(sa, IKB_LOG_WARNING, "CREATE_CHILD_SA: %s",
			   res->why);
	} else {
		c->ts = *got;
		rc = install(sa, c, old, &res->gir, &err);
	}
	settle(sa, rc);
	free(got);
	tasks_out_done(sa);
}

/* The peer refused; true when the same exchange is to be tried again. */
static bool refused(struct ike_sa *sa, const struct wire_notify *n,
		    struct child_sa *old)
{
	char b[32];
	const char *name = wire_notify_text(n->type, b, sizeof(b));

	if (ke_retry_conn(sa, &sa->child_ke, n,
			  sa->x->ke ? ke_group(sa->x->ke) : 0, true)) {
		ike_sa_log(sa, IKB_LOG_INFO,
			   "CREATE_CHILD_SA: peer wants KE group %u: again",
			   sa->child_ke.group);
		if (old)
			task_want_child(sa, old, TASK_REKEY_CHILD);
		return true;
	}
	if (old && child_rekey_refused(sa, n, old))
		return false;
	ike_sa_log(sa, IKB_LOG_WARNING,
		   "Child SA refused by the peer: %s; the IKE SA stays up",
		   name);
	child_refused(sa, WIRE_EXCH_CREATE_CHILD_SA, n->type, old && sa->x->ke,
		      "Child SA refused by the peer");
	return false;
}

bool create_child_refused(struct ike_sa *sa, const struct wire_notify *n)
{
	bool rekey = sa->x->kind == OUT_REKEY_CHILD;
	struct child_sa *c = exchange_take_child(sa);
	struct child_sa *old = rekey ? child_by_spi_in(sa, sa->x->spi) : NULL;
	bool again = false;

	if (c && (old || !pcpu_max_queue(sa, c, n->type)))
		again = refused(sa, n, old);
	if (c)
		child_sa_free(sa, c);
	if (c && !rekey && !again && sa->x->cpu < 0)
		sa->plan_next++;
	return true;
}

bool create_child_response(struct ike_sa *sa, struct msg_in *in,
			   const struct expected *x)
{
	const struct wire_msg *m = in->m;
	bool rekey = sa->x->kind == OUT_REKEY_CHILD;
	struct child_sa *c = sa->x->child, *old = NULL;
	const struct ikb_transform *kx;
	struct ikb_selector *got = calloc(1, sizeof(*got));
	struct ikb_error err = { "" };
	struct secret none = { 0 };
	struct ke *ours;
	int rc;

	if (rekey)
		old = child_by_spi_in(sa, sa->x->spi);
	if (!c || !got) {
		c = exchange_take_child(sa);
		if (c)
			child_sa_free(sa, c);
		if (c && !rekey && sa->x->cpu < 0)
			sa->plan_next++;
		free(got);
		return true;
	}
	rc = check_response(sa, m, x, c, got, &err);
	kx = rc ? NULL : ike_prop_xf(&c->prop, IKB_XF_KE);
	if (kx && kx->id && x->ke) {
		/* PFS: g^ir on the helper pool, the rest in keyed() */
		ours = sa->x->ke;
		sa->x->ke = NULL;
		if (!(rc = kex_start(sa, 0, ours, x->ke, keyed, got, &err)))
			return false;
		sa->x->ke = ours;
	} else if (kx && kx->id) {
		rc = kex_gir(sa->x->ke, NULL, &none, &err); /* says why */
	}
	if (rc)
		ike_sa_log(sa, IKB_LOG_WARNING, "CREATE_CHILD_SA: %s", err.msg);
	else
		c->ts = *got;
	if (!rc)
		rc = install(sa, c, old, &none, &err);
	settle(sa, rc);
	free(got);
	return true;
}
