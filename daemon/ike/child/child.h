/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A Child SA: its negotiation inputs and what it installed in the kernel.
 * The header of daemon/ike/child/, the one the other folders include; it
 * includes ts.h (traffic selectors), pcpu.h and sourceip.h.
 */
#ifndef IKB_IKE_CHILD_H
#define IKB_IKE_CHILD_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <ikebana/plugin.h>

#include "crypto/secret.h"
#include "ike/child/pcpu.h"
#include "ike/child/sourceip.h"
#include "ike/child/ts.h"
#include "ike/exchange/task.h"
#include "ike/prop.h"
#include "wire/wire.h"

struct ike_sa;
struct ike_engine;
struct event;

/*
 * A Child SA's life, one value changed only by child_set_state(), which
 * logs each change. What our exchange in flight does to it (a rekey or a
 * Delete of ours is out) is the exchange's (child_rekeying(),
 * child_deleting()); a Delete or a rekey wanted is a task (task.h).
 */
enum child_state {
	CHILD_NEGOTIATING, /* its exchange is under way: not in the kernel */
	CHILD_INSTALLED,
	/* a rekey's successor, responder: outbound waits for old's Delete */
	CHILD_INBOUND_ONLY,
	CHILD_REPLACED, /* its successor is installed */
	CHILD_REDUNDANT, /* lost a simultaneous rekey (§2.8.1) */
	CHILD_FAILED, /* not installed: kept only for the Delete to the peer */
};

struct child_sa {
	struct child_sa *next;
	enum child_state state;
	struct ike_sa *ike; /* owner; changes when the IKE SA is rekeyed */
	uint32_t reqid;
	enum ikb_mode mode;
	struct ikb_selector ts; /* local = src, remote = dst */
	/* leftsubnet=A,B: every pair of prefixes (ts: the first); NULL: ts */
	struct ts_set *tsx;
	int32_t cpu; /* RFC 9611 CPU id of our outbound SA, -1: none */
	uint32_t spi_in, spi_out; /* host byte order */
	bool spi_allocated; /* spi_in is a larval SA in the kernel */
	struct ike_prop prop; /* chosen ESP proposal */
	/* What was installed, keys wiped (for status and removal). */
	bool sa_in_done, sa_out_done;
	struct ikb_sa sa_in, sa_out;
	unsigned npol; /* policies are shared by a reqid's generations */
	struct ikb_policy pol[3];
	/* child_pols.c: the policies of tsx's other pairs, nxpol of them */
	struct ikb_policy *xpol;
	unsigned nxpol;
	time_t created;
	time_t rekey_at, expire_at; /* wall clock for status; 0: none */
	struct event *timer; /* rekey, then expiry */
	bool timer_expires; /* the timer's next firing is the expiry */
	unsigned long long born_ms, rekey_ms, life_ms; /* monotonic, spans */

	/* Rekeying (RFC 7296 §2.8) and deletion (§1.4.1). */
	uint32_t rekey_of; /* spi_in of the Child SA this one replaces */
	bool peer_created; /* we answered its CREATE_CHILD_SA */
	/* a Delete or a rekey wanted: links in its IKE SA's tasks */
	struct ike_task_link task[TASK_CHILD_LINKS];
	/* unique.c: the Child SA of a replaced IKE SA whose reqid and
	 * policies this one takes over at install; NULL: none */
	struct child_sa *takeover;
	bool trap_pols; /* a trap of its conn holds its policies (trap.c) */
	/* its CREATE_CHILD_SA's nonces, Ni then Nr, for §2.8.1 (heap: most
	 * Child SAs come from IKE_AUTH and have none); NULL: made by
	 * IKE_AUTH */
	uint8_t *nonces;
	uint16_t ni_len, nr_len;
};

/*
 * KEYMAT inputs: g^ir (empty without PFS), the exchange's nonces, and
 * whether we initiated that exchange: its initiator's data take the first
 * keys (RFC 7296 §2.17), whichever end began the IKE SA.
 */
struct child_keyin {
	struct cbytes gir, ni, nr;
	bool initiator;
};

struct child_sa *child_sa_new(struct ike_sa *sa, enum ikb_mode mode);
/* child_state.c */
void child_set_state(struct ike_sa *sa, struct child_sa *c,
		     enum child_state st);
const char *child_state_name(enum child_state st);
/* Our rekey of c, or our Delete of it, is the request in flight. */
bool child_rekeying(const struct child_sa *c);
bool child_deleting(const struct child_sa *c);
/* Inbound SPI from the kernel (a larval SA until installed). */
int child_sa_alloc_spi(struct ike_sa *sa, struct child_sa *c,
		       struct ikb_error *err);
/*
 * KEYMAT (no PFS, the IKE SA's nonces), SAs and policies: the first Child
 * SA. On any kernel error everything installed so far is removed again
 * and err holds the kernel's message.
 */
int child_sa_install(struct ike_sa *sa, struct child_sa *c,
		     struct ikb_error *err);
/*
 * The steps, for CREATE_CHILD_SA. prepare: KEYMAT, both ikb_sa with
 * keys, tuning and lifetimes. The _add functions install one part and
 * wipe the keys it used; make-before-break installs in, then out.
 */
int child_sa_prepare(struct ike_sa *sa, struct child_sa *c,
		     const struct child_keyin *kin, struct ikb_error *err);
int child_sa_add_in(struct ike_sa *sa, struct child_sa *c,
		    struct ikb_error *err);
int child_sa_add_out(struct ike_sa *sa, struct child_sa *c,
		     struct ikb_error *err);
int child_sa_add_policies(struct ike_sa *sa, struct child_sa *c,
			  struct ikb_error *err);
void child_sa_del_out(struct ike_sa *sa, struct child_sa *c);
/*
 * An SA's addresses, selector and UDP encapsulation ports (out: ours to
 * the peer) from the IKE SA's path now: at install and when it moves.
 */
void child_sa_endpoints(const struct ike_sa *ike, const struct child_sa *c,
			bool out, struct ikb_sa *sa);
/*
 * One policy of selectors ts (local to remote; swapped for in and fwd),
 * its priority from how specific ts is, its ESP template between local
 * and remote with reqid. Child SAs and traps (trap.c) alike.
 */
void policy_fill(struct ikb_policy *p, const struct ikb_selector *ts,
		 enum ikb_dir dir, enum ikb_mode mode,
		 const struct ikb_addr *local, const struct ikb_addr *remote,
		 uint32_t reqid);
/*
 * child_pols.c: the policies of c->tsx's pairs after the first: add them
 * (after c->pol), remove them, and hand all of c's policies to another
 * Child SA of its reqid. Pair i's policy for dir (0: child_policy's).
 */
int child_pols_add_extra(struct ike_sa *ike, struct child_sa *c,
			 struct ikb_error *err);
void child_pols_del_extra(struct ike_sa *ike, struct child_sa *c);
void child_pols_move(struct child_sa *to, struct child_sa *from);
void child_policy_pair(const struct ike_sa *ike, const struct child_sa *c,
		       unsigned pair, enum ikb_dir dir, struct ikb_policy *p);
/* c's policy for dir of selectors ts (local to remote). */
void child_policy_for(const struct ike_sa *ike, const struct child_sa *c,
		      const struct ikb_selector *ts, enum ikb_dir dir,
		      struct ikb_policy *p);
/* c's policy for dir, as installed from the IKE SA's path now. */
void child_policy(const struct ike_sa *ike, const struct child_sa *c,
		  enum ikb_dir dir, struct ikb_policy *p);
/* Remove whatever of c is in the kernel (policies, SAs, larval SA). */
void child_sa_uninstall(struct ike_sa *sa, struct child_sa *c);
/* Remove from the kernel (whatever was installed) and free. */
/* A Child SA never in the kernel, of an IKE SA that is gone. */
void child_sa_drop(struct child_sa *c);
void child_sa_free(struct ike_sa *sa, struct child_sa *c);
struct child_sa *child_by_spi_in(const struct ike_sa *sa, uint32_t spi);
struct child_sa *child_by_spi_out(const struct ike_sa *sa, uint32_t spi);
/* Its exchange's nonces, for KEYMAT and §2.8.1; 0 or -ENOMEM. */
int child_set_nonces(struct child_sa *c, const uint8_t *ni, size_t ni_len,
		     const uint8_t *nr, size_t nr_len);
/* The nonces child_set_nonces() kept. */
struct cbytes child_ni(const struct child_sa *c);
struct cbytes child_nr(const struct child_sa *c);
/* Whether x's exchange had a lower nonce than y's (§2.8.1). */
bool child_nonce_lower(const struct child_sa *x, const struct child_sa *y);
/* "No ESN" in each proposal that child.offer left without ESN. */
int child_esn_default(struct ikb_proposal_list *l, struct ikb_error *err);

/* child_negotiate.c: the Child SA payloads of IKE_AUTH. */
struct conn_view;
struct wire_msg;
struct wire_sa_store;

/* Storage the payloads point into until the message is emitted. */
struct child_out {
	struct wire_sa_store *store;
	uint8_t res[4]; /* SA_RESOURCE_INFO's Resource Identifier */
	struct ikb_proposal_list l;
	struct wire_ts ts_i[TS_NETS_MAX], ts_r[TS_NETS_MAX];
	uint8_t spi[4];
};

int child_out_init(struct child_out *o);
void child_out_fini(struct child_out *o);
/* Initiator: sa->x->child with its SPI, and SA, TSi, TSr into m. */
int child_offer(struct ike_sa *sa, const struct conn_view *v,
		struct wire_msg *m, struct child_out *o, struct ikb_error *err);
/*
 * Responder: negotiate and install; adds the Child payloads or the error
 * notify to resp. The IKE SA stands either way (§1.2, §2.21).
 */
void child_respond(struct ike_sa *sa, const struct conn_view *v,
		   const struct wire_msg *req, struct wire_msg *resp,
		   struct child_out *o);
/* Initiator: the response's Child part; installs or logs why not. */
void child_accept(struct ike_sa *sa, struct child_sa *c,
		  const struct wire_msg *resp);

/* The compiler's: the ESP proposals to offer or accept, as child.offer adjusted them. */
struct ike_engine;
int child_esp_build(const struct ike_engine *e, const struct ikb_section *conn,
		    struct ikb_proposal_list *l, struct ikb_error *err);
/* The compiler's: the view's Child SA plan (child.plan hook); caller
 * frees *out. The engine reads the compiled one (conn_plan). */
int child_plan_build(const struct ike_engine *e, const struct conn_view *v,
		     struct ikb_child_plan **out, struct ikb_error *err);
/*
 * Responder: the plan entry that takes the peer's TS as offered, else the
 * first they meet, narrowed.
 */
int child_pick_ts(struct ike_sa *sa, const struct conn_view *v,
		  const struct wire_ts_pld *tsi, const struct wire_ts_pld *tsr,
		  struct child_sa *c, struct ikb_error *err);
/* SA payload with our SPI, and TSi/TSr from ts, into m. */
int child_add_sa(struct wire_msg *m, struct child_out *o,
		 const struct ikb_proposal_list *l, uint8_t num, uint32_t spi);
void child_add_ts(struct wire_msg *m, struct child_out *o,
		  const struct child_sa *c, bool initiator);
/*
 * Initiator: the responder's TSi and TSr lie within c's selectors (each
 * of its set, for a set, which becomes the responder's); 0 and got, or -1.
 */
int child_check_ts(struct ike_sa *sa, struct child_sa *c,
		   const struct wire_ts_pld *tsi, const struct wire_ts_pld *tsr,
		   struct ikb_selector *got);
/* c gets a copy of old's selector set (a rekey); 0 or -ENOMEM. */
int child_copy_tsx(struct child_sa *c, const struct child_sa *old,
		   struct ikb_error *err);
/*
 * Select one of w's proposals against ours: c->prop, c->spi_out and the
 * wire number; 0 or the notify to answer.
 */
/*
 * child_pfs.c: p without its KE transforms. IKE_AUTH has no KE payload,
 * so its Child SA's proposals carry none either way (RFC 7296 §1.2: the
 * key exchange of esp= is for the CREATE_CHILD_SAs to come), as
 * libreswan and strongSwan send and read them.
 */
void child_strip_ke(struct ikb_proposal *p);
uint16_t child_select(struct ike_sa *sa, const struct ikb_proposal_list *ours,
		      const struct wire_sa *w, struct child_sa *c, uint8_t *num,
		      const char *who, uint8_t exchange);
/*
 * Failure records (failure.h) of the Child SA steps: the peer answered
 * our request with an error notify; its selectors did not meet ours
 * (v's) in a request we answered.
 */
/* pfs: a rekey with a KE, whose proposals IKE_AUTH took without one:
 * NO_PROPOSAL_CHOSEN then means the group */
void child_refused(struct ike_sa *sa, uint8_t exchange, uint16_t notify,
		   bool pfs, const char *why);
void child_ts_failed(struct ike_sa *sa, const struct conn_view *v,
		     const struct wire_ts_pld *tsi,
		     const struct wire_ts_pld *tsr, uint8_t exchange,
		     const char *why);
/* The kernel refused c's SAs or policies (sent: the notify answered). */
void child_kernel_failed(struct ike_sa *sa, uint8_t exchange, uint16_t sent,
			 const char *why);
/* A CREATE_CHILD_SA asking for the other mode than type=. */
void child_mode_failed(struct ike_sa *sa, const char *why);
/* Link c into sa->children, arm its timers and log it. */
/*
 * The peer installed its half and we could not: ours leaves the kernel,
 * whatever of it got in, and c stays (CHILD_FAILED) for the Delete that
 * takes the peer's half away (strongSwan does the same).
 */
void child_keep_failed(struct ike_sa *sa, struct child_sa *c);
void child_established(struct ike_sa *sa, struct child_sa *c, const char *how);

/*
 * child_pcpu.c: per-CPU Child SAs (RFC 9611). SA_RESOURCE_INFO into m,
 * with cpu's id when >= 0; buf holds it until m is emitted.
 */
void pcpu_add_notify(struct wire_msg *m, uint8_t buf[4], int32_t cpu);
/*
 * Initiator, IKE_AUTH: whether to offer SA_RESOURCE_INFO (clones= and a
 * kernel that takes them); sets sa->pcpu_count, logs why not.
 */
bool pcpu_offer(struct ike_sa *sa, const struct conn_view *v);
/* Initiator: the IKE_AUTH response; the clones join the plan, or why not. */
void pcpu_accept(struct ike_sa *sa, const struct wire_msg *resp);
/* Responder, IKE_AUTH: whether to answer SA_RESOURCE_INFO (sa->pcpu_on). */
bool pcpu_respond(struct ike_sa *sa, const struct conn_view *v,
		  const struct wire_msg *req);
/*
 * Responder, a new Child SA by CREATE_CHILD_SA: c->cpu (and the
 * fallback's reqid) when the peer asks for a per-CPU SA, or the notify to
 * refuse with (TS_MAX_QUEUE). *answer: add SA_RESOURCE_INFO to ours.
 */
uint16_t pcpu_assign(struct ike_sa *sa, const struct conn_view *v,
		     const struct wire_msg *req, struct child_sa *c,
		     bool *answer);
/* Initiator: a refused clone; true on TS_MAX_QUEUE (cloning stops). */
bool pcpu_max_queue(struct ike_sa *sa, const struct child_sa *c,
		    uint16_t notify);
/* Another Child SA of c's reqid has the policies (c is a clone). */
bool child_shares_policies(struct ike_sa *sa, const struct child_sa *c);
/*
 * The kernel's ACQUIRE for a CPU without an SA of its own: queued on the
 * IKE SA that has the reqid's fallback, when the conn's clones cover it.
 */
void pcpu_acquire(struct ike_engine *e, const struct ikb_kernel_event *ev);
/* tasks.c: 0 when a CREATE_CHILD_SA for an acquired CPU went out. */
int pcpu_acquire_start(struct ike_sa *sa);
/* child_for: the clone for CPU id cpu: its CPU id, selectors and reqid. */
int pcpu_acquired_child(struct ike_sa *sa, struct child_sa *c, int32_t cpu,
			struct ikb_error *err);
/*
 * Initiator, a clone negotiated: when the peer's clone took c's CPU id
 * meanwhile, the lowest free one; -EEXIST (err says why) when none is.
 */
int pcpu_settle(struct ike_sa *sa, struct child_sa *c, struct ikb_error *err);
/* The fallback (no CPU id) of a selector set, whose reqid clones share. */
struct child_sa *pcpu_fallback(struct ike_sa *sa,
			       const struct ikb_selector *ts);

/* child_pfs.c: the ESP proposals with the PFS rule; *group our KE's. */
struct conn;
int child_pfs_list(struct ike_sa *sa, const struct conn *conn,
		   struct ikb_proposal_list *l, uint16_t *group,
		   struct ikb_error *err);

/* child_rekey.c: a Child SA rekey's own parts (§2.8). */
void child_rekey_notify(struct wire_msg *m, uint32_t spi);
uint16_t child_rekey_old(struct ike_sa *sa, const struct wire_notify *rekey,
			 struct child_sa **old);
bool child_rekey_refused(struct ike_sa *sa, const struct wire_notify *n,
			 struct child_sa *old);
/* §2.8.1: our rekey c of old is up; the lowest nonce's pair goes. */
void child_rekey_resolve(struct ike_sa *sa, struct child_sa *c,
			 struct child_sa *old);

/* child_iter.c: c as listeners and ike_engine_foreach_child() see it. */
struct ike_child_info;
void child_info_fill(const struct ike_sa *sa, const struct child_sa *c,
		     char *alg, size_t alg_len, struct ike_child_info *i);

/* delete.c */
/*
 * Take c out of sa and the kernel, make-before-break: a successor
 * waiting for this Delete gets its outbound SA first, the policies go to
 * another Child SA of the same reqid, then c's SAs are removed.
 */
void child_remove(struct ike_sa *sa, struct child_sa *c);

#endif
