/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One IKE SA and the table that finds it: by our SPI for every message,
 * by the peer's SPIi for a retransmitted IKE_SA_INIT request (we have
 * answered it but the peer does not know our SPI yet), and by conn name.
 */
#ifndef IKB_IKE_IKE_SA_H
#define IKB_IKE_IKE_SA_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <ikebana/child.h>
#include <ikebana/proposals.h>

#include "ike/exchange/task.h"
#include "ike/ike.h"
#include "ike/prop.h"

struct event;
struct ke;
struct ke_job;
struct exchange;
struct sa_job;
struct peer_cert;
struct held_msg;
struct sk_ctx;
struct child_sa;
struct ike_sa_keys;

enum ike_sa_state {
	/* initiator: waits for its conn's names (resolve.c), sends nothing */
	IKE_SA_RESOLVE_I,
	/*
	 * initiator: IKE_SA_INIT, then IKE_AUTH, under way; which one is
	 * the exchange's to say (exchange_kind(): OUT_INIT, OUT_AUTH), not
	 * a state of its own, and ike_sa_phase() names it
	 */
	IKE_SA_OPENING_I,
	IKE_SA_INIT_R, /* responder: IKE_SA_INIT answered, half-open */
	IKE_SA_ESTABLISHED,
	/*
	 * Going away: our Delete is outstanding, or the SA is kept only to
	 * answer retransmits from its response cache (a failed IKE_AUTH, a
	 * rekeyed IKE SA) until its linger timer frees it.
	 */
	IKE_SA_DELETING,
};

/* A group INVALID_KE_PAYLOAD asked for, and how often (kex.c). */
struct ke_retry {
	uint16_t group; /* 0: none asked for */
	unsigned tries;
};

/* What the request this SA has outstanding is (window 1): exchange.h. */
enum ike_out_kind {
	OUT_NONE,
	/* IKE_SA_INIT: no exchange object yet; its state is the IKE SA's
	 * (IKE_SA_OPENING_I without one), exchange_kind() gives it */
	OUT_INIT,
	OUT_AUTH, /* IKE_AUTH with the first Child SA */
	OUT_CHILD, /* CREATE_CHILD_SA: a new Child SA */
	OUT_REKEY_CHILD, /* CREATE_CHILD_SA: successor of the spi's */
	OUT_REKEY_IKE, /* CREATE_CHILD_SA: a new IKE SA */
	OUT_DELETE_CHILD, /* INFORMATIONAL: Delete of the spi's */
	OUT_DELETE_IKE, /* INFORMATIONAL: Delete of this IKE SA */
	OUT_DPD, /* INFORMATIONAL: empty, liveness (§2.4) */
	OUT_MOBIKE, /* INFORMATIONAL: UPDATE_SA_ADDRESSES (RFC 4555) */
	/* the unit harness's exchange of several rounds: its row is the
	 * test's (exchange_rows_extra()), the table has none */
	OUT_TEST,
};

/* An identity, as on the wire and as text for logs and secrets. */
struct ike_frag;
struct ike_nat;
struct ike_mobike;

struct ike_id {
	uint8_t type; /* ID_IPV4_ADDR, ID_FQDN, ... */
	uint8_t data[255];
	size_t len;
	char text[300]; /* "@west", "192.0.2.1", "u@example.com" */
};

/*
 * An ID as an IKE SA keeps it, of its own size (id_keep.c): type, the
 * data (len bytes), then the text and its NUL, in one allocation. All
 * zero is no ID: type 0, text "".
 */
struct ike_sa_id {
	uint8_t type;
	uint8_t len;
	char *mem;
};

/* 0 or -ENOMEM (to is unchanged then). */
int ike_sa_id_set(struct ike_sa_id *to, const struct ike_id *from);
int ike_sa_id_copy(struct ike_sa_id *to, const struct ike_sa_id *from);
/* The whole struct ike_id again, for what takes one. */
void ike_sa_id_get(const struct ike_sa_id *id, struct ike_id *out);
const char *ike_sa_id_text(const struct ike_sa_id *id);
const uint8_t *ike_sa_id_data(const struct ike_sa_id *id);
void ike_sa_id_free(struct ike_sa_id *id);

/* Bytes kept across an exchange (a message, a nonce). */
struct ike_bytes {
	uint8_t *ptr;
	size_t len;
};

struct ike_rtx {
	struct event *ev;
	uint8_t *req; /* outstanding request; NULL: none */
	size_t req_len;
	uint32_t req_msgid;
	unsigned tries; /* times the request went again */
	unsigned interval_ms, next_ms;
	unsigned long long timeout_ms, spent_ms;
	uint8_t *resp; /* last response sent; NULL: none */
	size_t resp_len;
	uint32_t resp_msgid;
};

#define IKE_SA_NONCE_LEN 32

/*
 * IKE_SA_INIT's state, in either role: made with the IKE SA, gone when
 * IKE_AUTH is over (ike_sa_established()), so that an established IKE
 * SA holds neither message nor key pair.
 */
struct ike_init {
	struct ke *ke; /* our key pair, until the keys are made */
	struct ke_retry ke_retry; /* INVALID_KE_PAYLOAD's group and tries */
	unsigned cookie_tries;
	struct ike_bytes cookie; /* initiator: echo it (§2.6) */
	struct ike_bytes req, resp; /* both messages, for the AUTH payload */
};
/* Frees sa->init (and wipes its key pair). */
void ike_init_free(struct ike_sa *sa);

struct ike_sa {
	struct ike_engine *e;
	struct ike_sa *next_local, *next_init, *next_conn, *next_all;
	struct ike_sa *next_peer; /* by_peer: same remote_id bucket */
	unsigned long serial;
	char conn[IKE_CONN_NAME_LEN];
	bool initiator;
	enum ike_sa_state state;
	/* opening.c: our initiation's place in the pacing */
	enum {
		IKE_OPENING_NONE,
		IKE_OPENING_QUEUED,
		IKE_OPENING_RUNNING
	} opening;
	struct ike_sa *open_next;
	struct ike_path path;
	/* Where the message being processed came from and came to. */
	struct ike_path rx_path;
	uint8_t spi_i[8], spi_r[8];
	time_t created;
	/* halfopen.c: a responder's place among the half-open SAs */
	bool ho_on;
	struct ike_sa *ho_prev, *ho_next;
	struct ho_src *ho_src;
	unsigned long long ho_since_ms;

	/* IKE_SA_INIT */
	struct ike_prop prop; /* chosen IKE proposal */
	uint16_t ke_group;
	/* what IKE_SA_INIT and IKE_AUTH need of it; NULL once IKE_AUTH is
	 * over, and for an IKE SA made by a rekey */
	struct ike_init *init;
	struct ke_job *job; /* key exchange running on the helper pool */
	struct sa_job *jobs; /* on the helper pool (sa_job.c) */
	struct held_msg *held; /* hold.c: what arrived meanwhile */
	struct event *resume;
	uint8_t prop_num; /* responder: the accepted proposal's number */
	/* Ni and Nr of IKE_SA_INIT (or of the rekey that made it), for
	 * SKEYSEED, AUTH, the first Child SA's KEYMAT and §2.8.1; heap, of
	 * their own size (16 to 256 bytes, most are 32) */
	struct ike_bytes ni, nr;
	struct ike_nat *nat; /* nat.h: NAT-T, once a NAT was found */
	struct ike_mobike *mobike; /* mobike.h: once both ends said so */

	/* keys */
	uint16_t prf_id;
	struct ike_sa_keys *keys;
	struct sk_ctx *sk_in, *sk_out;
	size_t iv_len, icv_len, block_len;

	/* message ids: window 1 */
	uint32_t next_req_msgid; /* our next request */
	uint32_t next_peer_msgid; /* the peer's next request */
	struct ike_rtx rtx;

	/* IKE_AUTH */
	struct ike_sa_id local_id, remote_id;
	/* auth_peer.c: what the peer said in IKE_SA_INIT of how it can be
	 * authenticated, and how it was; its certificate once verified */
	struct ike_peer_auth {
		unsigned
			hashes; /* SIGNATURE_HASH_ALGORITHMS: SIG_HASH_BIT()s */
		bool certreq; /* it sent CERTREQ */
		const char *method; /* "PSK", "RSA-PSS with SHA2-256", ... */
	} peer_auth;
	struct peer_cert *peer_cert;
	struct ike_frag *frag; /* frag.h: RFC 7383, when both ends do it */
	struct child_sa *children;

	/* Our request in flight, from IKE_AUTH on; after IKE_AUTH tasks.c
	 * picks the next one. NULL: none. */
	struct exchange *x;
	unsigned plan_next, plan_n; /* Child SAs of the plan created */
	/*
	 * RFC 9611: clones this host makes, of pcpu_want asked for and
	 * pcpu_kmax CPU ids the kernel takes; whether both ends do them
	 */
	unsigned pcpu_count, pcpu_want, pcpu_kmax;
	bool pcpu_on;
	/* CPU ids the kernel acquired an SA for (bit per id) */
	uint64_t pcpu_acq[IKB_CHILD_PLAN_MAX / 64];
	/* INVALID_KE_PAYLOAD to a Child SA's CREATE_CHILD_SA, and to ours
	 * for the IKE SA: the group the next one uses */
	struct ke_retry child_ke, rekey_ke;
	/* task.h: what to start once the window is free, in order */
	struct ike_task_link *tasks;
	struct ike_task_link task_ike[TASK_IKE_LINKS];
	bool rekeyed; /* replaced by a new IKE SA: its children moved */
	/* unique.c: the peer's new IKE SA that replaces this one, and how */
	struct ike_sa *replaced_by;
	enum {
		REPLACED_UNIQUE, /* uniqueids=yes: one IKE SA per peer */
		REPLACED_CROSSED, /* lost to it on nonces (RFC 7296 2.8.1) */
		REPLACED_CROSSED_CHILD, /* crossed, and it has a Child SA */
		REPLACED_RESTART, /* the peer lost this one (INITIAL_CONTACT) */
	} replaced_how;
	/* the engine's serial when this SA was established: an SA started
	 * (serial) before another was established crossed it */
	unsigned long est_serial;
	bool reinit; /* re-initiate the conn once deleted (auto=start) */
	/* retry.c: started by auto=start, attempt 1, 2, ... (keyingtries=);
	 * auto_try false: a failure is not tried again */
	bool auto_try;
	unsigned attempt;
	bool outcome_sent; /* engine_outcome() ran, or nobody waits for one */
	/* initiator: the view it runs on (1: left is local), -1: unknown */
	int8_t view_side;
	time_t resolved_at; /* resolve.c: its names answered; 0: none */
	bool up_told; /* events.c: its IKE_UP went out, its IKE_DOWN will */
	struct event *kick; /* runs the next task from the loop */
	struct event *timer; /* IKE SA rekey or expiry */
	struct event *dpd; /* dpddelay= */
	struct event *linger; /* frees a DELETING SA */
	time_t rekey_at, expire_at; /* wall clock for status; 0: none */
	bool timer_expires; /* the timer's next firing is the expiry */
	unsigned long long born_ms, life_ms; /* monotonic, span */
	unsigned long long
		last_recv_ms; /* monotonic: the peer's last message */
	unsigned long long last_send_ms; /* monotonic: our last datagram */
};

/* peer_spi_i NULL: we initiate; else we respond to that SPIi. */
struct ike_sa *ike_sa_new(struct ike_engine *e, const char *conn,
			  const struct ike_path *p, const uint8_t *peer_spi_i);
/*
 * The IKE SA a rekey creates (§2.18): initiator with our SPIi (chosen
 * when the request was sent), or responder with a fresh SPIr; peer_spi
 * is the other one. Its state is IKE_SA_ESTABLISHED, its keys unset.
 */
struct ike_sa *ike_sa_new_rekeyed(struct ike_sa *old, bool initiator,
				  const uint8_t local_spi[8],
				  const uint8_t peer_spi[8]);
/* A fresh SPI of ours: random, never zero, not in the table. */
int ike_sa_new_spi(struct ike_engine *e, uint8_t spi[8]);
/* IKE_SA_DELETING, freed after ms unless something frees it before. */
void ike_sa_linger(struct ike_sa *sa, unsigned long long ms);
/*
 * Removes the SA from the tables, its Child SAs from the kernel; frees.
 * ike_sa_delete() says why and what follows: the log, a retry, the
 * outcome and IKE_DOWN events; ike_sa_free() tells no one (the engine
 * stops, or the SA never was: a rekey that failed to be made).
 */
void ike_sa_delete(struct ike_sa *sa, const char *why);
void ike_sa_free(struct ike_sa *sa);
/* By our SPI: spi_r for a message from the original initiator. */
struct ike_sa *ike_sa_find(struct ike_engine *e, const uint8_t spi[8]);
struct ike_sa *ike_sa_find_init(struct ike_engine *e, const uint8_t spi_i[8],
				const struct ikb_addr *remote);
struct ike_sa *ike_sa_find_conn(struct ike_engine *e, const char *conn,
				struct ike_sa *after);
/*
 * The peer's ID, authenticated; the SA is then among those
 * ike_sa_first_peer() gives for it. 0 or -ENOMEM (nothing changed then).
 */
int ike_sa_set_remote_id(struct ike_sa *sa, const struct ike_id *id);
/* Our ID for the conn's local end (id_local()), kept; 0 or -errno, err. */
struct conn_end;
int ike_sa_set_local_id(struct ike_sa *sa, const struct conn_end *end,
			struct ikb_error *err);
/* The first SA whose remote_id may have text rid; then ->next_peer. */
struct ike_sa *ike_sa_first_peer(struct ike_engine *e, const char *rid);
/* Once the responder's conn changes at IKE_AUTH. */
void ike_sa_set_conn(struct ike_sa *sa, const char *conn);
void ike_sa_set_state(struct ike_sa *sa, enum ike_sa_state st);
const char *ike_sa_state_name(enum ike_sa_state st);
/* The state's name, or of an opening SA its exchange's ("IKE_AUTH sent"). */
const char *ike_sa_phase(const struct ike_sa *sa);
void ike_sa_free_all(struct ike_engine *e);

/* Log with the SA's conn name and serial: "conn west #3: ..." */
void ike_sa_log(const struct ike_sa *sa, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
