/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why negotiations failed (issue 20): every failed negotiation, in either
 * role, leaves one record on its conn, the last IKE_FAILURES_KEPT of them
 * kept, and counts towards its kind. The record holds both sides of what
 * did not meet (proposals, selectors, IDs), so that `ikebana explain` can
 * say what differs and where to change it without parsing log lines.
 * Public: the control socket and the metrics read it; failure.c keeps it.
 */
#ifndef IKB_IKE_FAILURE_H
#define IKB_IKE_FAILURE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct ike_engine;
struct json_object;

/* The kinds, in the words of the metrics' reason label. */
enum ike_fail_kind {
	IKE_FAIL_IKE_PROPOSAL, /* no IKE proposal in common (DH group too) */
	IKE_FAIL_ESP_PROPOSAL, /* no ESP/AH proposal in common */
	IKE_FAIL_PFS_GROUP, /* the Child SA's PFS key exchange group */
	IKE_FAIL_TS, /* traffic selectors */
	IKE_FAIL_ID, /* the peer's ID is not the one expected */
	IKE_FAIL_AUTH, /* the peer's AUTH did not verify (PSK, signature) */
	IKE_FAIL_PEER_AUTH, /* the peer answered AUTHENTICATION_FAILED */
	IKE_FAIL_CERT, /* the peer's certificate was refused */
	IKE_FAIL_NO_ANSWER, /* every retransmit went unanswered */
	IKE_FAIL_KERNEL, /* the kernel refused an SA or a policy */
	IKE_FAIL_NOTIFY, /* another error notify from the peer */
	IKE_FAIL_OTHER,
	IKE_FAIL_KINDS
};

#define IKE_FAILURES_KEPT 4
#define IKE_FAIL_TEXT 320

/*
 * One failure. peer and local are the two sides of what did not meet, in
 * the kind's terms: proposals as "A-B-C|D-E-F" (one per proposal),
 * selectors, IDs; empty when this end cannot know (a peer that only says
 * NO_PROPOSAL_CHOSEN does not say what it accepts). closest: for the
 * proposals, the pair nearest to meeting and the transform types that
 * differ ("ENCR: AES_CBC_128 / AES_GCM_16_128"). detail: what the log
 * said (a certificate's validation result, the kernel's errno).
 */
struct ike_failure {
	enum ike_fail_kind kind;
	time_t when; /* wall clock */
	unsigned long serial; /* the IKE SA's "#N", 0: none yet */
	bool initiator; /* this end's role in the exchange */
	uint8_t exchange; /* WIRE_EXCH_*, 0: none (a timeout before any) */
	char conn[128];
	char remote[64]; /* the peer's address and port */
	char auth[48]; /* the authentication method, "" before IKE_AUTH */
	uint16_t notify_sent, notify_received; /* 0: none */
	unsigned retransmits;
	char peer[IKE_FAIL_TEXT];
	char local[IKE_FAIL_TEXT];
	char closest[IKE_FAIL_TEXT];
	char detail[IKE_FAIL_TEXT];
};

/* "ike_proposal", "no_answer", ... (the metrics' reason label) */
const char *ike_fail_kind_name(enum ike_fail_kind k);
/*
 * conn's failures, newest first, as an array of objects {kind, when,
 * serial, role, exchange, remote, auth, notify_sent, notify_received,
 * retransmits, peer, local, closest, detail}; an empty array for a conn
 * that has not failed (or is not known). The caller puts it.
 */
struct json_object *ike_engine_failures(const struct ike_engine *e,
					const char *conn);
/* The newest failure of conn, NULL when none; valid until the engine runs. */
const struct ike_failure *ike_engine_last_failure(const struct ike_engine *e,
						  const char *conn);

#endif
