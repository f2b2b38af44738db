/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exchanges: each file's entry points for starting a request and
 * handling a request or a response, and the keys they compute. The
 * header of daemon/ike/exchange/, the one the other folders include; it
 * includes task.h (the tasks). Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_EXCHANGE_H
#define IKB_IKE_EXCHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ikebana/plugin.h>

#include "crypto/secret.h"
#include "ike/child/child.h"
#include "ike/exchange/task.h"
#include "ike/ike_sa.h"
#include "wire/wire.h"

struct secret;
struct ke;
struct ike_sa;
struct ike_id;
struct ike_bytes;
struct ike_engine;
struct ike_path;
struct child_sa;

/*
 * exchange.c: our request in flight (window 1, RFC 7296 §2.3), owned by
 * sa->x from the moment it is built until its response is handled or it
 * is given up; what it negotiates lives here, not on the IKE SA.
 */
struct exchange {
	enum ike_out_kind kind;
	uint32_t spi; /* our inbound SPI of the Child SA it concerns */
	uint8_t ike_spi[8]; /* OUT_REKEY_IKE: our SPI of the new IKE SA */
	struct ke *ke; /* our KE of a CREATE_CHILD_SA */
	uint8_t nonce[IKE_SA_NONCE_LEN]; /* ours, of a CREATE_CHILD_SA */
	struct child_sa *child; /* the Child SA it negotiates */
	int32_t cpu; /* RFC 9611: the CPU id of the clone it asks for, or -1 */
	/* OUT_MOBIKE: where the IKE SA was, and our COOKIE2 (RFC 4555) */
	struct ike_path old_path;
	uint8_t cookie2[16];
};

/* sa->x of kind; NULL without memory or while another is out. */
struct exchange *exchange_new(struct ike_sa *sa, enum ike_out_kind kind);
/* Frees sa->x with its KE, nonce and Child SA, if any. */
void exchange_end(struct ike_sa *sa);
/* OUT_NONE when no request is out. */
enum ike_out_kind exchange_kind(const struct ike_sa *sa);
/* The Child SA it negotiates, now the caller's; NULL: none. */
struct child_sa *exchange_take_child(struct ike_sa *sa);

/*
 * expect.c: whether m carries the payloads its exchange must (the table's
 * rows say which); use tells CREATE_CHILD_SA's for a Child SA from the
 * IKE SA rekey's. false: why names the payload, *notify answers a request.
 */
enum expect_use { EXPECT_ANY, EXPECT_CHILD, EXPECT_IKE };
bool expect_ok(const struct wire_msg *m, bool response, enum expect_use use,
	       uint16_t *notify, char *why, size_t len);
/* The same for a request whose row the dispatcher has found already. */
struct exchange_row;
bool expect_request_row(const struct wire_msg *m, const struct exchange_row *r,
			uint16_t *notify, char *why, size_t len);

/*
 * A response to our request is one of three things, and only the first
 * reaches the exchange's response handler, with what the table says it
 * must carry, typed and present: a handler never finds them itself, and
 * one that refuses goes to the exchange's refusal handler, which gets the
 * notify and nothing else, so that neither can read a payload the peer
 * left out (RFC 7296 §2.21: an error response "usually" carries only its
 * notify). The table says which error notifies leave a response whole:
 * IKE_AUTH's about its Child SA (§1.2), when IDr and AUTH are there, and
 * INFORMATIONAL's, whose handler needs no payload.
 */
enum expect_verdict {
	EXPECT_WHOLE, /* what the row needs is there: the handler */
	EXPECT_REFUSED, /* an error notify (IKE_SA_INIT: or COOKIE) */
	EXPECT_MALFORMED, /* neither: why says which payload lacks */
};
struct expected {
	const struct wire_sa *sa;
	const struct wire_ke *ke; /* IKE_SA_INIT's; CREATE_CHILD_SA: or NULL */
	const struct wire_opaque *nonce;
	const struct wire_typed *idr, *auth;
	const struct wire_ts_pld *tsi, *tsr;
};
enum expect_verdict expect_response(const struct wire_msg *m,
				    enum expect_use use, struct expected *got,
				    const struct wire_notify **refusal,
				    char *why, size_t len);
/* The same against the row of our request in flight. */
struct exchange_row;
enum expect_verdict expect_response_row(const struct wire_msg *m,
					const struct exchange_row *r,
					struct expected *got,
					const struct wire_notify **refusal,
					char *why, size_t len);

/*
 * exchange_table.c: one row per exchange kind. Its role as responder:
 * the states of the IKE SA the peer's request is taken in, the payloads
 * it must carry and its handler; as initiator (kind, our request's): the
 * payloads the response must carry, which errors leave it whole, and its
 * response, refusal and malformed handlers. The dispatcher routes by the
 * table alone. A handler returns true when the exchange is over (the
 * window is free: tasks_out_done()), false while it goes on (another
 * round, a job on the helper pool) or when the IKE SA is gone.
 */
enum expect_keep {
	KEEP_NONE, /* any error refuses the exchange */
	KEEP_CHILD, /* IKE_AUTH: the Child SA's errors of §1.2 */
	KEEP_ALL, /* INFORMATIONAL: each is the handler's */
};
struct msg_in;
struct exchange_need {
	uint32_t payloads; /* EXPECT_PT() bits */
	uint16_t notify; /* the answer to a request that lacks one */
};
#define EXPECT_PT(t) (1u << (WIRE_PT_##t - WIRE_PT_SA))
#define EXPECT_STATE(s) (1u << (s))
typedef void exchange_request_fn(struct ike_sa *sa, struct msg_in *in,
				 uint32_t msgid);
typedef bool exchange_response_fn(struct ike_sa *sa, struct msg_in *in,
				  const struct expected *x);
typedef bool exchange_refused_fn(struct ike_sa *sa,
				 const struct wire_notify *n);
typedef bool exchange_malformed_fn(struct ike_sa *sa, const char *why);
struct exchange_row {
	const char *name;
	enum ike_out_kind kind; /* OUT_NONE: only the peer starts it */
	uint8_t exchange; /* WIRE_EXCH_* */
	enum expect_use use;
	/* the peer's request: in states (EXPECT_STATE bits; 0: not here,
	 * engine.c takes IKE_SA_INIT), TEMPORARY_FAILURE on an IKE SA that
	 * is going away (§2.8), what it needs, its handler */
	unsigned peer_states;
	bool live_only;
	struct exchange_need req_need[2];
	exchange_request_fn *request;
	/* our request's response */
	uint32_t resp_need;
	enum expect_keep keep;
	exchange_response_fn *response;
	exchange_refused_fn *refused; /* NULL with KEEP_ALL */
	exchange_malformed_fn *malformed;
};
/* The row of the peer's request, of our request in flight; NULL: none. */
const struct exchange_row *exchange_row_peer(const struct ike_sa *sa,
					     uint8_t exchange,
					     enum expect_use use);
const struct exchange_row *exchange_row_ours(const struct ike_sa *sa);
/* The first row of exchange and use with (response) or without a
 * response part, for expect.c; NULL: none. */
const struct exchange_row *
exchange_row_find(uint8_t exchange, enum expect_use use, bool response);
/* A test's rows, looked up after the table's (NULL: none). */
void exchange_rows_extra(const struct exchange_row *rows, size_t n);

/* dispatch.c: a message of sa whose header ike_engine_input() checked */
struct ike_dgram;
void dispatch_request(struct ike_sa *sa, const struct ike_dgram *dg);
void dispatch_response(struct ike_sa *sa, const struct ike_dgram *dg);
/* dispatch.c: a decrypted message (msg.h's struct msg_in). */
void msg_in_free(struct msg_in *in);
/* Takes *in's message: in is left empty. */
void msg_in_take(struct msg_in *to, struct msg_in *in);

/* keys.c */
/* Runs on the loop when the job is done; rc != 0: why says why. */
typedef void ke_then_fn(struct ike_sa *sa, int rc, const char *why);
/*
 * Generate our key pair (unless sa->ke exists) and, with peer, derive
 * SKEYSEED, the SK_* keys and the SK contexts. then() runs later, or
 * before this returns when no helper pool runs: call it last. then() is
 * not called when the SA is deleted first. 0 or -errno (then not called).
 */
int keys_start(struct ike_sa *sa, const struct wire_ke *peer, ke_then_fn *then,
	       struct ikb_error *err);
void keys_cancel(struct ike_sa *sa);

/* exchange_ike_sa_init.c */
int ike_bytes_set(struct ike_bytes *b, const void *p, size_t len);
/* len random bytes (rng.c); 0, -ENOMEM or rng_bytes()'s error. */
struct crypto_err;
int ike_bytes_random(struct ike_bytes *b, size_t len, struct crypto_err *err);
void init_add_status(struct wire_msg *m, const struct ike_sa *sa,
		     uint8_t src[20], uint8_t dst[20]);
int ike_sa_init_start(struct ike_sa *sa, struct ikb_error *err);
struct ike_dgram;
void ike_sa_init_request(struct ike_engine *e, const struct ike_path *p,
			 const struct ike_dgram *dg);
/* Parsed by dispatch.c (in->raw the datagram), x its payloads. */
exchange_response_fn ike_sa_init_response;
/* The responder answered COOKIE, INVALID_KE_PAYLOAD or an error. */
exchange_refused_fn ike_sa_init_refused;

/* exchange_ike_auth.c */
int ike_auth_start(struct ike_sa *sa);
/* Decrypted by dispatch.c, the payloads there (expect.c). */
exchange_request_fn ike_auth_request;
exchange_response_fn ike_auth_response;
/* The responder refused the IKE SA: n is its error notify. */
exchange_refused_fn ike_auth_refused;
/* exchange_ike_auth.c: what both roles send and log. */
struct auth_job;
struct auth_out {
	struct wire_msg m;
	struct child_out child;
};
struct auth_out *auth_out_new(void);
void auth_out_free(struct auth_out *o);
/* IDi or IDr, our CERTs, the initiator's CERTREQ, then j's AUTH. */
void auth_out_id_auth(struct auth_out *o, const struct ike_sa *sa,
		      const struct conn_view *v, const struct auth_job *j);
/* "IKE SA established with ID (method, certificate ...)" */
void ike_auth_log_up(struct ike_sa *sa);
/* exchange_informational.c: AUTHENTICATION_FAILED and Delete, unanswered. */
void auth_failed_tell(struct ike_sa *sa);

/* exchange_create_child_sa.c: CREATE_CHILD_SA for Child SAs. */
struct child_sa;
/*
 * Initiator: a new Child SA, the plan's next entry or (cpu >= 0) the
 * clone for that CPU id; or old's successor (cpu -1).
 */
int create_child_start(struct ike_sa *sa, struct child_sa *old, int32_t cpu);
/* A decrypted request (exchange_create_child_sa_r.c) or response, of
 * a new Child SA or a rekey (sa->x's kind says which). The response is
 * still being handled (false) while the key exchange runs, which ends
 * the exchange itself. */
exchange_request_fn create_child_request;
exchange_response_fn create_child_response;
/* The peer refused the Child SA (or its rekey) with n. */
exchange_refused_fn create_child_refused;
/* A response without what it must carry: the peer has its half. */
exchange_malformed_fn create_child_malformed;
/* The messages of both roles. */
struct ccs_out {
	struct wire_msg m;
	struct child_out child;
	uint8_t nonce[IKE_SA_NONCE_LEN];
	uint8_t group[2];
	uint8_t res[4]; /* SA_RESOURCE_INFO's Resource Identifier */
};
struct ccs_out *ccs_out_new(void);
void ccs_out_free(struct ccs_out *o);

/* nonce.c: §2.8.1's rule for exchanges that crossed. */
struct nonce_pair {
	const uint8_t *ni;
	size_t ni_len;
	const uint8_t *nr;
	size_t nr_len;
};
/* Octet strings, a prefix the lower: <0, 0, >0. */
int nonce_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);
/* Whether x's lowest nonce is lower than y's: x is the one that goes. */
bool nonce_pair_lower(const struct nonce_pair *x, const struct nonce_pair *y);

/* rekey_ike.c: IKE SA rekeying (§1.3.2, §2.18). */
int rekey_ike_start(struct ike_sa *sa);
/* Responder: the request carries an SA payload for protocol IKE. */
exchange_request_fn rekey_ike_request;
/* false: still being handled (the key exchange), see above */
exchange_response_fn rekey_ike_response;
exchange_refused_fn rekey_ike_refused;
exchange_malformed_fn rekey_ike_malformed;

/* goodbye.c: a Delete the peer hears of at once, not retransmitted. */
bool ike_sa_goodbye(struct ike_sa *sa);

/* exchange_informational.c: Delete (§1.4.1) and liveness (§2.4). */
int delete_child_start(struct ike_sa *sa, struct child_sa *c);
int delete_ike_start(struct ike_sa *sa);
int dpd_start(struct ike_sa *sa);
exchange_request_fn informational_request;
/* The answers to our Delete of a Child SA, of the IKE SA, our liveness
 * check (mobike_update.c: our address update). */
exchange_response_fn delete_child_response;
exchange_response_fn delete_ike_response;
exchange_response_fn dpd_response;

/*
 * kex.c: INVALID_KE_PAYLOAD (§1.2, §1.3), one rule for every exchange:
 * the peer names the group it wants; true when that is a 2-octet group,
 * not the one we sent, one we offered (offered NULL: not checked), and
 * the exchange has been tried again fewer than 3 times: r->group is it.
 */
struct ke_retry;
bool ke_retry(struct ke_retry *r, const struct wire_notify *n, uint16_t sent,
	      const struct ikb_proposal_list *offered);
/* The same against what sa's conn offers: its IKE proposals, or (esp)
 * its ESP ones with the PFS rule (child_pfs_list()). */
bool ke_retry_conn(struct ike_sa *sa, struct ke_retry *r,
		   const struct wire_notify *n, uint16_t sent, bool esp);
/* keys.c: whether a proposal of l has KE transform g. */
bool prop_list_has_group(const struct ikb_proposal_list *l, uint16_t g);

/*
 * kex.c: a CREATE_CHILD_SA's key exchange on the helper pool. The result
 * is then()'s to take (set ke or gir to empty to keep them); sa NULL: the
 * IKE SA went, free arg only. ours NULL: a pair of group is made; peer
 * given: g^ir too. then() may run before kex_start() returns (no helper
 * pool): call it last. 0 or -errno, and then then() is not called.
 */
struct kex_result {
	int rc;
	struct ke *ke;
	struct secret gir;
	char why[160];
};
typedef void kex_then_fn(struct ike_sa *sa, void *arg, struct kex_result *r);
int kex_start(struct ike_sa *sa, uint16_t group, struct ke *ours,
	      const struct wire_ke *peer, kex_then_fn *then, void *arg,
	      struct ikb_error *err);

/*
 * sa_job.c: a helper-pool job of sa; run() on a helper thread, then() on
 * the loop, with sa NULL when the SA went (free arg only) and status
 * -ECANCELED when the pool stopped before run(). Messages for sa wait
 * while any job runs. then() may run before this returns: call it last.
 */
typedef void sa_job_run_fn(void *arg);
typedef void sa_job_then_fn(struct ike_sa *sa, void *arg, int status);
int sa_job_start(struct ike_sa *sa, sa_job_run_fn *run, sa_job_then_fn *then,
		 void *arg);
void sa_jobs_cancel(struct ike_sa *sa);

/* kex.c: the same on the loop (the helper thread's half). */
int kex_pair(struct ke **ke, uint16_t group, struct ikb_error *err);
int kex_gir(struct ke *ke, const struct wire_ke *peer, struct secret *gir,
	    struct ikb_error *err);

/* keys.c: the new IKE SA's keys from the old one's SK_d (§2.18). */
int keys_rekey(struct ike_sa *sa, const struct ike_sa *old,
	       const struct secret *gir, struct ikb_error *err);

#endif
