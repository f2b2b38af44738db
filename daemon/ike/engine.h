/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Engine internals shared by the exchange files: the engine itself, the
 * view of a conn from one side, IDs, and the helpers every exchange uses
 * to build, protect and send messages. Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_ENGINE_H
#define IKB_IKE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <ikebana/plugin.h>

#include "ike/ike.h"
#include "ike/ike_sa.h"
#include "wire/wire.h"

struct secret;

#define IKE_SA_BUCKETS 1024
#define IKE_NONCE_LEN 32
#define IKE_COOKIE_LEN 33 /* version octet | SHA2-256 */

struct event;

struct ike_engine {
	struct event_base *base;
	const struct loaded_conf *lc;
	struct ike_io io;
	struct ike_sa *by_local[IKE_SA_BUCKETS]; /* our SPI */
	struct ike_sa *by_init[IKE_SA_BUCKETS]; /* responder: peer's SPIi */
	struct ike_sa *by_conn[IKE_SA_BUCKETS]; /* conn name */
	struct ike_sa *all; /* every SA, for status and teardown */
	unsigned halfopen; /* responder SAs before IKE_AUTH completes */
	/* opening.c: our initiations in flight, and those queued */
	unsigned opening;
	bool opening_busy;
	struct ike_sa *open_head, *open_tail;
	unsigned long serial;
	uint32_t next_reqid;
	unsigned ddos_threshold, max_halfopen;
	struct retry *retries; /* retry.c: auto=start attempts to come */
	/* config setup ikeport=, where the sockets listen: read at start */
	uint16_t ike_port;
	/* COOKIE secrets (§2.6): the current and the previous version. */
	uint8_t cookie_secret[2][32];
	uint8_t cookie_version;
	struct event *cookie_timer;
	/* the kernel plugin instance whose events we subscribed to */
	const void *events_state;
	ike_outcome_fn *outcome; /* ike_engine_on_outcome() */
	void *outcome_ctx;
	/* conn_match.c: each conn's addresses, parsed once per config */
	struct conn_index *conn_index;
};

/* One end of a conn, parsed. */
struct conn_end {
	struct ikb_addr addr; /* AF_UNSPEC: %any */
	const char *id; /* leftid= text, NULL: the address */
	struct ikb_addr net; /* leftsubnet=, else addr */
	uint8_t plen;
	uint8_t proto; /* leftprotoport= */
	uint16_t port;
	uint16_t ike_port; /* leftikeport=, 0: unset */
};

/* A conn seen from this host: which side is local decides everything. */
struct conn_view {
	const struct ikb_section *s;
	struct conn_end local, remote;
	enum ikb_mode mode;
	bool left_is_local;
};

/* conn.c */
int conn_view_init(const struct ikb_section *s, bool left_is_local,
		   struct conn_view *v, struct ikb_error *err);
/* Initiator: which side is ours, by io->is_local. */
int conn_view_local(const struct ike_engine *e, const struct ikb_section *s,
		    struct conn_view *v, struct ikb_error *err);
void conn_timing(const struct ikb_section *s, unsigned *interval_ms,
		 unsigned long long *timeout_ms);
/* ike= or esp= through the proposals hook; defaults when unset. */
int conn_proposals(const struct ike_engine *e, const struct ikb_section *s,
		   enum ikb_protocol proto, struct ikb_proposal_list *out,
		   struct ikb_error *err);
const struct ikb_proposals_ops *engine_proposals(const struct ike_engine *e,
						 void **state);
const struct ikb_kernel_ops *engine_kernel(const struct ike_engine *e,
					   void **state);
struct plugin_set *engine_plugins(const struct ike_engine *e);
const struct ikb_section *engine_conn(const struct ike_engine *e,
				      const char *name);

/* conn_match.c: responder. */
const struct ikb_section *conn_match_addr(const struct ike_engine *e,
					  const struct ike_path *p,
					  struct conn_view *v);
/* After IKE_AUTH: the conn whose remote ID accepts peer's; NULL if none. */
const struct ikb_section *conn_match_id(const struct ike_engine *e,
					const struct ike_path *p,
					const struct ike_id *peer,
					const char *current,
					struct conn_view *v);
/* Parses every conn's left= and right= for the two above (set_conf). */
void conn_index_build(struct ike_engine *e);
void conn_index_free(struct ike_engine *e);

/* id.c */
int id_local(const struct conn_end *end, struct ike_id *id,
	     struct ikb_error *err);
void id_from_wire(const struct wire_typed *w, struct ike_id *id);
/* Whether conn end's configured ID (or address) accepts got. */
bool id_accepts(const struct conn_end *end, const struct ike_id *got);

/* auth_psk.c: AUTH payload data, §2.15; *len gets the prf size. */
int auth_psk_compute(const struct ike_sa *sa, bool for_initiator,
		     const struct ike_id *id, const uint8_t *psk,
		     size_t psk_len, uint8_t *out, size_t *len,
		     struct ikb_error *err);
/* psk_lookup.c: config/secrets.h stays out of the crypto files. */
int psk_lookup(const struct ike_engine *e, const char *local_id,
	       const char *remote_id, const uint8_t **key, size_t *len);

/* nat_detect.c: SHA1(SPIi | SPIr | IP | port) (§2.23). */
int nat_hash(const uint8_t spi_i[8], const uint8_t spi_r[8],
	     const struct ikb_addr *a, uint16_t port, uint8_t out[20]);
void nat_check(struct ike_sa *sa, const struct wire_msg *m);

/* cookie.c */
int cookie_init(struct ike_engine *e);
void cookie_fini(struct ike_engine *e);
int cookie_make(const struct ike_engine *e, uint8_t version,
		const struct wire_opaque *ni, const struct ikb_addr *ip,
		const uint8_t spi_i[8], uint8_t out[IKE_COOKIE_LEN]);
bool cookie_valid(const struct ike_engine *e, const struct wire_msg *m,
		  const struct ike_path *p);

/* msg.c: building and protecting messages. */
struct wire_payload *msg_add(struct wire_msg *m, uint8_t type);
void msg_notify(struct wire_msg *m, uint16_t type, const void *data,
		size_t len);
void msg_hdr(struct wire_msg *m, const struct ike_sa *sa, uint8_t exch,
	     bool response, uint32_t msgid);
/* Plain message (IKE_SA_INIT). 0 or -errno; logs the codec's reason. */
int msg_emit(const struct wire_msg *m, struct wbuf *out);
/* m's payloads go inside an SK payload; out is the datagram. */
int msg_emit_sk(struct ike_sa *sa, const struct wire_msg *m, struct wbuf *out);
/*
 * Parse buf with the SA's sizes and decrypt its SK payload into *plain
 * (caller frees). Logs why and returns -errno when it must be dropped.
 */
int msg_open_sk(struct ike_sa *sa, struct wire_msg *m, const uint8_t *buf,
		size_t len, uint8_t **plain);
/* Unprotected reply to an IKE_SA_INIT request: one notify, no state. */
void msg_reply_notify(struct ike_engine *e, const struct ike_path *p,
		      const struct wire_hdr *req, uint16_t type,
		      const void *data, size_t len);
int engine_send(struct ike_engine *e, const struct ike_path *p,
		const uint8_t *buf, size_t len);
/* Drop lines per second (default 50); tests that assert each line raise it. */
void log_wire_drop_rate(unsigned per_sec);
void log_wire_drop(const struct ike_path *p, const char *why,
		   const struct wire_error *err);
const char *addr_str(const struct ikb_addr *a, char *buf, size_t len);

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
/* The proposal's transform of type, or NULL. */
const struct ikb_transform *prop_xf(const struct ikb_proposal *p, uint8_t type);
void prop_render(const struct ikb_proposal *p, char *buf, size_t len);

/* exchange_ike_sa_init.c */
int ike_bytes_set(struct ike_bytes *b, const void *p, size_t len);
void init_add_status(struct wire_msg *m, const struct ike_sa *sa,
		     uint8_t src[20], uint8_t dst[20]);
int ike_sa_init_start(struct ike_sa *sa, struct ikb_error *err);
void ike_sa_init_request(struct ike_engine *e, const struct ike_path *p,
			 const uint8_t *buf, size_t len);
void ike_sa_init_response(struct ike_sa *sa, const uint8_t *buf, size_t len);

/* exchange_ike_auth.c */
int ike_auth_start(struct ike_sa *sa);
void ike_auth_request(struct ike_sa *sa, const uint8_t *buf, size_t len);
void ike_auth_response(struct ike_sa *sa, const uint8_t *buf, size_t len);

/* retransmit.c */
/* Take buf as the outstanding request: send it and arm the back-off. */
int rtx_request(struct ike_sa *sa, struct wbuf *buf, uint32_t msgid);
void rtx_done(struct ike_sa *sa);
/* Send buf as the response to msgid and keep it for retransmits. */
int rtx_respond(struct ike_sa *sa, struct wbuf *buf, uint32_t msgid);
/* A request with the cached message id: resend, never reprocess. */
void rtx_replay(struct ike_sa *sa);
void rtx_free(struct ike_sa *sa);

/* exchange_create_child_sa.c: CREATE_CHILD_SA for Child SAs. */
struct child_sa;
/* Initiator: a new Child SA (the plan's next entry), or old's successor. */
int create_child_start(struct ike_sa *sa, struct child_sa *old);
void create_child_request(struct ike_sa *sa, const uint8_t *buf, size_t len);
void create_child_response(struct ike_sa *sa, const uint8_t *buf, size_t len);
/* Our nonce for a CREATE_CHILD_SA request into sa->out_nonce. */
int ccs_nonce(struct ike_sa *sa);
/* An encrypted response with m's payloads, kept for retransmits. */
void ccs_respond(struct ike_sa *sa, struct wire_msg *m, uint8_t exch,
		 uint32_t msgid);
/* Send m as our request msgid; 0 or -errno. */
int ccs_request(struct ike_sa *sa, struct wire_msg *m, uint8_t exch);

/* rekey_ike.c: IKE SA rekeying (§1.3.2, §2.18). */
int rekey_ike_start(struct ike_sa *sa);
/* Responder: m carries an SA payload for protocol IKE. */
void rekey_ike_request(struct ike_sa *sa, const struct wire_msg *m,
		       uint32_t msgid);
void rekey_ike_response(struct ike_sa *sa, const struct wire_msg *m);

/* unique.c: one IKE SA per peer (uniqueids=, INITIAL_CONTACT, §2.4). */
struct ike_sa *unique_mark(struct ike_sa *sa, bool initial_contact);
/* sa lost to the crossed stays: a Delete, and it goes */
void unique_crossed(struct ike_sa *sa, const struct ike_sa *stays);
void unique_takeover(struct ike_sa *sa, struct child_sa *c);
void unique_sweep(struct ike_sa *sa);
bool unique_initial_contact(const struct ike_sa *sa);

/* retry.c: keyingtries= for auto=start conns. */
void retry_after_failure(struct ike_sa *sa, const char *why);
/* conn NULL: all; returns how many were cancelled */
unsigned retry_cancel(struct ike_engine *e, const char *conn);
/* engine.c: attempt 0 is `ikebana up`; 1 on are auto=start's */
int engine_up(struct ike_engine *e, const char *name, unsigned attempt,
	      struct ikb_error *err);

/* goodbye.c: a Delete the peer hears of at once, not retransmitted. */
bool ike_sa_goodbye(struct ike_sa *sa);

/* engine.c */
bool ike_addr_equal(const struct ikb_addr *a, const struct ikb_addr *b);
bool ike_sel_equal(const struct ikb_selector *a, const struct ikb_selector *b);

/* exchange_informational.c: Delete (§1.4.1) and liveness (§2.4). */
int delete_child_start(struct ike_sa *sa, struct child_sa *c);
int delete_ike_start(struct ike_sa *sa);
int dpd_start(struct ike_sa *sa);
void informational_request(struct ike_sa *sa, const uint8_t *buf, size_t len);
void informational_response(struct ike_sa *sa, const uint8_t *buf, size_t len);

/* delete.c */
/*
 * Take c out of sa and the kernel, make-before-break: a successor
 * waiting for this Delete gets its outbound SA first, the policies go to
 * another Child SA of the same reqid, then c's SAs are removed.
 */
void child_remove(struct ike_sa *sa, struct child_sa *c);
/*
 * engine.c: tell the outcome observer what became of an IKE SA we
 * initiated (see struct ike_outcome); once per SA, later calls do nothing.
 * c: the first Child SA, when it is up.
 */
void engine_outcome(struct ike_sa *sa, int rc, const char *why,
		    const struct child_sa *c);
/* The conn's auto=start: re-initiate after a failure. */
void engine_reinit(struct ike_engine *e, const char *conn);
bool conn_auto_start(const struct ike_engine *e, const char *conn);

/* tasks.c: the next exchange, when the window is free. */
void tasks_schedule(struct ike_sa *sa);
void tasks_run(struct ike_sa *sa);
/* The outstanding request is answered or given up. */
void tasks_out_done(struct ike_sa *sa);
/* After IKE_AUTH: timers, the plan's other Child SAs. */
void ike_sa_established(struct ike_sa *sa);

/* opening.c: pacing of the IKE SAs we initiate (see there). Starts sa's
 * IKE_SA_INIT now (its result) or queues it (0). */
int opening_start(struct ike_sa *sa, struct ikb_error *err);
/* sa's first Child SA is up, it failed, it retransmits or it goes;
 * resume: start queued ones in its place. */
void opening_done(struct ike_sa *sa, bool resume);
void opening_resume(struct ike_engine *e);

struct event_base;
/* clock.c: the time as of this wake-up of the event loop (see there). */
void engine_clock_attach(struct event_base *base);
void engine_clock_detach(struct event_base *base);
unsigned long long mono_ms(void); /* CLOCK_MONOTONIC, ms */
time_t wall_s(void); /* the time of day, s */

/* rekey.c: lifetimes, rekey timers, kernel EXPIRE events. */
/* Lifetimes into life and c's times; arms nothing. */
void child_lifetime(struct ike_sa *sa, struct child_sa *c,
		    struct ikb_lifetime *life);
void child_timer_arm(struct ike_sa *sa, struct child_sa *c);
/* Retry a rekey the peer refused for now, in 1..2 s. */
void child_timer_retry(struct ike_sa *sa, struct child_sa *c);
void ike_timer_arm(struct ike_sa *sa);
void ike_timer_retry(struct ike_sa *sa);
void rekey_events_subscribe(struct ike_engine *e);
/* conn's rekey= (default yes). */
bool conn_rekey(const struct ike_engine *e, const char *conn);
/* A duration key of the conn in ms, or dflt. */
unsigned long long conn_ms(const struct ike_engine *e, const char *conn,
			   const char *key, unsigned long long dflt);

/* liveness.c: dpddelay= */
void dpd_arm(struct ike_sa *sa);

/* kex.c: a key exchange done on the loop (CREATE_CHILD_SA). */
int kex_pair(struct ke **ke, uint16_t group, struct ikb_error *err);
int kex_gir(struct ke *ke, const struct wire_ke *peer, struct secret *gir,
	    struct ikb_error *err);

/* keys.c: the new IKE SA's keys from the old one's SK_d (§2.18). */
int keys_rekey(struct ike_sa *sa, const struct ike_sa *old,
	       const struct secret *gir, struct ikb_error *err);

/* ike_status.c */
struct json_object *ike_sa_status(const struct ike_sa *sa);

#endif
