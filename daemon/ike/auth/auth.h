/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IKE_AUTH's authentication (RFC 7296 §2.15, RFC 7427), for the exchange
 * in exchange_ike_auth*.c: our AUTH payload and the check of the peer's,
 * by PSK on the loop or by signature in one helper-pool job (auth_job.c)
 * that verifies the peer's certificate chain, ID and signature and then
 * signs ours. The exchange finishes in the job's then(). Also one IKE
 * SA per peer (unique.c). The header of daemon/ike/auth/, the one the
 * other folders include.
 */
#ifndef IKB_IKE_AUTH_H
#define IKB_IKE_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/cred.h"
#include "crypto/sig.h"
#include "ike/child/child.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/msg/msg.h"

struct wire_msg;

/* auth_octets.c: SignedOctets, in one buffer the job can own. */
struct auth_octets {
	uint8_t *buf;
	size_t len;
};
int auth_octets(const struct ike_sa *sa, bool for_initiator,
		const struct ike_id *id, struct auth_octets *o,
		struct ikb_error *err);
void auth_octets_free(struct auth_octets *o);

/* auth_peer.c: what the peer said (SIGNATURE_HASH_ALGORITHMS, CERTREQ). */
void auth_peer_note(struct ike_sa *sa, const struct wire_msg *m);
/* CERT (our chain, by leftsendcert=) and CERTREQ (when we verify one). */
void auth_add_certs(struct wire_msg *m, const struct conn_view *v,
		    const struct ike_sa *sa);
void auth_add_certreq(struct wire_msg *m, const struct conn_view *v);
void auth_add_certreq_conn(struct wire_msg *m, const struct conn *c);

/* auth_job.c */
struct auth_job;
typedef void auth_then_fn(struct ike_sa *sa, struct auth_job *j);

struct auth_job {
	/* ours, to send */
	uint8_t method;
	uint8_t data[SIG_AUTH_MAX];
	size_t len;
	struct cred *cred; /* signing with it, in the job */
	enum sig_scheme scheme;
	struct auth_octets mine;
	/* the peer's, to check */
	bool verify; /* a signature to check in the job */
	uint8_t peer_method;
	uint8_t *peer_auth;
	size_t peer_auth_len;
	struct auth_octets theirs;
	struct ike_id peer_id;
	uint8_t *certs; /* the CERT payloads' bodies, copied */
	struct cred_der cert[CRED_CHAIN_MAX];
	size_t ncerts;
	struct cred *peer_cred; /* rightcert= */
	struct cert_verify_opts opts;
	uint8_t *ca; /* opts.ca's copy */
	unsigned methods, hashes; /* what the remote end may use */
	uint8_t digest[CERT_DIGEST_LEN]; /* of the chain: cert_cache.c */
	bool cached; /* pc came from the cache: the chain is not checked */
	/* the result */
	int rc;
	char why[512];
	/* enum ike_fail_kind of a failed check: the chain, or the AUTH */
	uint8_t fail_kind;
	struct peer_cert *pc;
	const char *peer_how; /* how the peer authenticated */
	/* the exchange's, for then() */
	auth_then_fn *then;
	struct msg_in in;
	uint32_t msgid;
	bool left_is_local; /* the view the responder matched */
};

struct auth_job *auth_job_new(void);
void auth_job_free(struct auth_job *j);
/* Our AUTH for v's local end: PSK now, a signature in the job. */
int auth_job_sign(struct auth_job *j, struct ike_sa *sa,
		  const struct conn_view *v, const char *remote_id,
		  struct ikb_error *err);
/* The peer's AUTH payload auth of m (its certificates), of ID peer,
 * against v's remote end. */
int auth_job_check(struct auth_job *j, struct ike_sa *sa,
		   const struct conn_view *v, const struct wire_msg *m,
		   const struct wire_typed *auth, const struct ike_id *peer,
		   struct ikb_error *err);
/*
 * Runs what is left (on the helper pool when there is a signature) and
 * then then(sa, j) on the loop, with sa NULL when the SA went; then()
 * frees j. Call it last.
 */
void auth_job_start(struct ike_sa *sa, struct auth_job *j, auth_then_fn *then);

/* auth_psk.c: AUTH payload data, §2.15; *len gets the prf size. */
int auth_psk_compute(const struct ike_sa *sa, bool for_initiator,
		     const struct ike_id *id, const uint8_t *psk,
		     size_t psk_len, uint8_t *out, size_t *len,
		     struct ikb_error *err);
/* NULL authentication's AUTH data (RFC 7619 §2.1), the same MIC keyed so. */
int auth_null_compute(const struct ike_sa *sa, bool for_initiator,
		      const struct ike_id *id, uint8_t *out, size_t *len,
		      struct ikb_error *err);

/*
 * unique.c: one IKE SA per peer (uniqueids=, INITIAL_CONTACT, §2.4).
 * with_child: sa's IKE_AUTH brings a Child SA (the initiator: the answer
 * has one; the responder: the request asks for one).
 */
struct ike_sa *unique_mark(struct ike_sa *sa, bool initial_contact,
			   bool with_child);
/* sa lost to the crossed stays: a Delete, and it goes */
void unique_crossed(struct ike_sa *sa, bool with_child,
		    const struct ike_sa *stays);
void unique_takeover(struct ike_sa *sa, struct child_sa *c);
void unique_sweep(struct ike_sa *sa);
bool unique_initial_contact(const struct ike_sa *sa, const char *rid);

/* psk_lookup.c: config/secrets.h stays out of the crypto files. */
int psk_lookup(const struct ike_engine *e, const char *local_id,
	       const char *remote_id, const uint8_t **key, size_t *len);

#endif
