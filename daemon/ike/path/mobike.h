/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MOBIKE (RFC 4555): an IKE SA's object once both ends said
 * MOBIKE_SUPPORTED in IKE_AUTH. The initiator follows its own address
 * changes with UPDATE_SA_ADDRESSES and moves the Child SAs when the
 * responder has answered; the responder follows the initiator only on that
 * request, never on other messages from a new address (§3.5). Not for use
 * outside daemon/ike/.
 */
#ifndef IKB_IKE_MOBIKE_H
#define IKB_IKE_MOBIKE_H

#include <stdbool.h>
#include <stdint.h>
#include <ikebana/types.h>

#include "wire/wire.h"

struct ike_sa;
struct ike_path;
struct ike_engine;
struct json_object;

/* The peer's ADDITIONAL_IP*_ADDRESS notifies we keep (§3.6). */
#define MOBIKE_ADDRS_MAX 8
#define MOBIKE_COOKIE2_LEN 16

struct ike_mobike {
	unsigned n_addrs; /* the peer's additional addresses */
	struct ikb_addr addrs[MOBIKE_ADDRS_MAX];
	unsigned long long updates; /* address updates sent or followed */
	unsigned long long last_update_ms; /* monotonic, 0: none yet */
	/* the path before the last update, for status */
	struct ikb_addr prev_local, prev_remote;
};

/* mobike.c */
/* Whether the conn of sa asks for MOBIKE (mobike=yes). */
bool mobike_wanted(const struct ike_sa *sa);
/* Whether MOBIKE is on for sa: both ends said so. */
bool mobike_on(const struct ike_sa *sa);
/*
 * IKE_AUTH: MOBIKE_SUPPORTED into our message when the conn wants it; a
 * responder only when the request had it too.
 */
void mobike_offer(struct wire_msg *m, const struct ike_sa *sa,
		  const struct wire_msg *request);
/* The peer's IKE_AUTH message: MOBIKE is on when both ends said so. */
void mobike_note(struct ike_sa *sa, const struct wire_msg *m);
/* The peer's additional addresses in m, if it lists them (§3.6). */
void mobike_peer_addrs(struct ike_sa *sa, const struct wire_msg *m);
void mobike_free(struct ike_sa *sa);
/* A rekeyed IKE SA (§2.18) keeps MOBIKE. */
void mobike_inherit(struct ike_sa *sa, const struct ike_sa *old);
/* status --json: {"on", "updates", "peer_addresses", ...} or NULL. */
struct json_object *mobike_status(const struct ike_sa *sa);
/*
 * Whether a message from p may be of sa although it comes from another
 * address: MOBIKE's initiator moves (the request tells, §3.5).
 */
bool mobike_may_move(const struct ike_sa *sa, const struct ike_path *p);

/* mobike_update.c */
/*
 * tasks.c, TASK_MOBIKE with the window free: the UPDATE_SA_ADDRESSES
 * request if our address to the peer changed. 0: a request went out.
 */
int mobike_update(struct ike_sa *sa);
/* Our UPDATE_SA_ADDRESSES was answered: the Child SAs follow. */
struct msg_in;
struct expected;
bool mobike_update_response(struct ike_sa *sa, struct msg_in *in,
			    const struct expected *x);
/*
 * The responder's part of an INFORMATIONAL request m: with
 * UPDATE_SA_ADDRESSES the IKE SA and its Child SAs move to where it came
 * from, and resp gets our NAT_DETECTION notifies (nat[] keeps their
 * data); a COOKIE2 is echoed (§3.6) whatever the request.
 */
void mobike_request(struct ike_sa *sa, const struct wire_msg *m,
		    struct wire_msg *resp, uint8_t nat[40]);

#endif
