/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages: building, protecting, opening and sending them, the
 * retransmission of our requests, COOKIEs. The header of daemon/ike/msg/,
 * the one the other folders include; it includes frag.h (IKE
 * fragmentation) and halfopen.h. Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_MSG_H
#define IKB_IKE_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ike/ike.h"
#include "ike/msg/frag.h"
#include "ike/msg/halfopen.h"
#include "wire/wire.h"

struct ike_engine;
struct ike_sa;
struct ike_path;

#define IKE_COOKIE_LEN 33 /* version octet | SHA2-256 */

/* cookie.c */
int cookie_init(struct ike_engine *e);
void cookie_fini(struct ike_engine *e);
int cookie_make(const struct ike_engine *e, uint8_t version,
		const struct wire_opaque *ni, const struct ikb_addr *ip,
		const uint8_t spi_i[8], uint8_t out[IKE_COOKIE_LEN]);
bool cookie_valid(const struct ike_engine *e, const struct wire_msg *m,
		  const struct ike_path *p);

/*
 * oe_vid.c: libreswan's "Opportunistic IPsec" Vendor ID, which an
 * initiator sends when its conn (oe_vid_conn) authenticates an end with
 * NULL, and drop-oppo-null=yes drops requests for.
 */
struct conn;
bool oe_vid_conn(const struct conn *c);
void oe_vid_add(struct wire_msg *m);
bool oe_vid_in(const struct wire_msg *m);

/* msg.c: building and protecting messages. */
struct wire_payload *msg_add(struct wire_msg *m, uint8_t type);
void msg_notify(struct wire_msg *m, uint16_t type, const void *data,
		size_t len);
void msg_hdr(struct wire_msg *m, const struct ike_sa *sa, uint8_t exch,
	     bool response, uint32_t msgid);
/* Plain message (IKE_SA_INIT). 0 or -errno; logs the codec's reason. */
int msg_emit(const struct wire_msg *m, struct wbuf *out);
/* One datagram: header hdr and an SK payload sealing pt, or with num
 * (1..total) an SKF payload, fragment num of total (RFC 7383). */
int msg_seal(struct ike_sa *sa, const struct wire_hdr *hdr, uint8_t first,
	     const uint8_t *pt, size_t pt_len, uint16_t num, uint16_t total,
	     struct wbuf *out);
/* m's payloads go inside an SK payload, or SKF payloads when it is too
 * large and both ends do RFC 7383; out is the datagram set. */
int msg_emit_sk(struct ike_sa *sa, const struct wire_msg *m, struct wbuf *out);
/*
 * Parse buf with the SA's sizes and decrypt its SK payload into *plain
 * (caller frees). Logs why and returns -errno when it must be dropped.
 */
/*
 * A decrypted message and the buffer its payloads point into. A handler
 * that finishes later (IKE_AUTH, after its signature job) takes both,
 * leaving NULLs; the dispatcher frees what is left.
 */
/*
 * A datagram as it enters the engine, its header parsed once there
 * (ike_engine_input()) and handed down parsed: the payloads are parsed
 * from it with wire_parse_body(), never the header again.
 */
struct ike_dgram {
	const uint8_t *buf;
	size_t len;
	struct wire_hdr hdr;
};

struct msg_in {
	struct wire_msg *m;
	uint8_t *plain;
	/* the datagram as it came, during the handler's call only
	 * (IKE_SA_INIT keeps a copy for the AUTH payload) */
	const uint8_t *raw;
	size_t raw_len;
};
int msg_open_sk(struct ike_sa *sa, struct wire_msg *m,
		const struct ike_dgram *dg, uint8_t **plain);
/* The body of SK or SKF payload sk of datagram buf, checked and
 * decrypted into plain (body_len octets at most). 0 or -errno, cerr. */
struct crypto_err;
/*
 * Whether buf, a request of sa's (SK or SKF), passes its integrity check:
 * nothing else is done with it. A failure is logged (rate-limited).
 */
bool msg_check_sk(struct ike_sa *sa, const struct ike_dgram *dg);
int msg_sk_decrypt(const struct ike_sa *sa, const uint8_t *buf,
		   const struct wire_payload *sk, uint8_t *plain, size_t *len,
		   struct crypto_err *cerr);
/* Unprotected reply to an IKE_SA_INIT request: one notify, no state. */
void msg_reply_notify(struct ike_engine *e, const struct ike_path *p,
		      const struct wire_hdr *req, uint16_t type,
		      const void *data, size_t len);
int engine_send(struct ike_engine *e, const struct ike_path *p,
		const uint8_t *buf, size_t len);
/* A NAT-keepalive on p (ike_io's keepalive); logs a failure. */
int engine_keepalive(struct ike_engine *e, const struct ike_path *p);
/* Drop lines per second (default 50); tests that assert each line raise it. */
void log_wire_drop_rate(unsigned per_sec);
void log_wire_drop(const struct ike_path *p, const char *why,
		   const struct wire_error *err);
const char *addr_str(const struct ikb_addr *a, char *buf, size_t len);

/* dgram_set.c: the datagrams of one message (its IKE fragments, or one) */
int dgram_set_add(struct wbuf *set, const uint8_t *d, size_t len);
/* one's single datagram becomes a set of one. */
int dgram_set_wrap(struct wbuf *one);
/* Sends each; how many went. */
unsigned dgram_set_send(struct ike_sa *sa, const uint8_t *set, size_t len);
/* A response: where its request came from (MOBIKE), else the same. */
unsigned dgram_set_reply(struct ike_sa *sa, const uint8_t *set, size_t len);
/* The first datagram of a set (IKE_SA_INIT's message), or NULL. */
const uint8_t *dgram_set_first(const uint8_t *set, size_t len, size_t *n);

/* retransmit.c: requests and responses are datagram sets. */
/* Take buf as the outstanding request: send it and arm the back-off. */
int rtx_request(struct ike_sa *sa, struct wbuf *buf, uint32_t msgid);
void rtx_done(struct ike_sa *sa);
/* Send buf as the response to msgid and keep it for retransmits. */
int rtx_respond(struct ike_sa *sa, struct wbuf *buf, uint32_t msgid);
/* A request with the cached message id: resend, never reprocess. */
void rtx_replay(struct ike_sa *sa);
void rtx_free(struct ike_sa *sa);

/* Our nonce for the request in flight, into sa->x->nonce. */
int msg_nonce(struct ike_sa *sa);
/* Send m as our request of exchange exch: 0 or -errno. */
int msg_request_sk(struct ike_sa *sa, struct wire_msg *m, uint8_t exch);
/* An encrypted response with m's payloads, kept for retransmits. */
void msg_respond_sk(struct ike_sa *sa, struct wire_msg *m, uint8_t exch,
		    uint32_t msgid);
/* Our Nonce (IKE_SA_NONCE_LEN octets) and, with ke, our KE payload. */
struct ke;
void msg_add_nonce_ke(struct wire_msg *m, const uint8_t *nonce,
		      const struct ke *ke);
/* The same with one notify of type and no data. */
void msg_respond_notify_sk(struct ike_sa *sa, uint8_t exch, uint16_t type,
			   uint32_t msgid);

/* hold.c: messages that wait while a job of sa runs (sa_job.c). */
void hold_msg(struct ike_sa *sa, const struct ike_path *p,
	      const struct ike_dgram *dg);
/* The jobs are done: handle them, in order, from the loop. */
void hold_resume(struct ike_sa *sa);
void hold_free(struct ike_sa *sa);

#endif
