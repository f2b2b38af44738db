/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NAT traversal (RFC 7296 §2.23, RFC 3948): an IKE SA's object once
 * IKE_SA_INIT found a NAT between the ends, or encapsulation=yes made one
 * up. It decides UDP encapsulation of the Child SAs, sends NAT-keepalives
 * while we are behind the NAT, and follows the peer when its NAT maps it
 * to another address or port. Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_NAT_H
#define IKB_IKE_NAT_H

#include <stdbool.h>
#include <stdint.h>
#include <ikebana/types.h>

#include "wire/wire.h"

struct ike_sa;
struct ike_path;
struct event;
struct child_sa;

struct ike_nat {
	bool local; /* we are behind a NAT (our address was rewritten) */
	bool remote; /* the peer is (its address was) */
	bool forced; /* encapsulation=yes: we told the peer we are */
	bool encap; /* the Child SAs are ESP in UDP */
	struct event *keepalive; /* while local: RFC 3948 §2.3 */
	unsigned long long last_keepalive_ms; /* monotonic, 0: none yet */
	unsigned long long keepalives; /* sent */
	unsigned long long mappings; /* the peer's moves followed */
};

/* nat_detect.c */
/* SHA-1(SPIi | SPIr | address | port), RFC 7296 §2.23. */
int nat_hash(const uint8_t spi_i[8], const uint8_t spi_r[8],
	     const struct ikb_addr *a, uint16_t port, uint8_t out[20]);
/* The NAT_DETECTION notifies of IKE_SA_INIT, unless encapsulation=no. */
void nat_add_notifies(struct wire_msg *m, const struct ike_sa *sa,
		      uint8_t src[20], uint8_t dst[20]);
/*
 * The peer's NAT_DETECTION notifies of IKE_SA_INIT: makes sa->nat when a
 * NAT is found (or forced), and tells whether IKE moves to port 4500.
 */
void nat_check(struct ike_sa *sa, const struct wire_msg *m);
void nat_free(struct ike_sa *sa);
/* A rekeyed IKE SA (§2.18) keeps the path, so its NAT too. */
void nat_inherit(struct ike_sa *sa, const struct ike_sa *old);
/* The Child SAs are ESP in UDP on the IKE SA's ports. */
bool nat_encap(const struct ike_sa *sa);

/* nat_float.c */
/*
 * The initiator moves IKE to the NAT-T port after IKE_SA_INIT (§2.23):
 * when a NAT was found, or (RFC 4555 §3.3) when it offers MOBIKE and the
 * responder's IKE_SA_INIT response m shows it does NAT-T, so that a NAT
 * met after a move finds IKE on 4500 already.
 */
void nat_float(struct ike_sa *sa, const struct wire_msg *m);
/*
 * Whether a message from p may be of sa although it comes from another
 * address: only from a peer behind a NAT, to our NAT-T port. Its
 * integrity decides (nat_follow) whether the SA moves.
 */
bool nat_may_move(const struct ike_sa *sa, const struct ike_path *p);
/*
 * An authenticated message came from p, or the kernel saw the peer's ESP
 * arrive from there (XFRM_MSG_MAPPING): the SA and its Child SAs move.
 */
void nat_follow(struct ike_sa *sa, const struct ikb_addr *remote,
		uint16_t rport, const char *how);

/*
 * The kernel's IKB_KEV_MAPPING: the peer's ESP in UDP comes from another
 * address or port. Followed as nat_follow, then checked with a liveness
 * request to the new address (the ESP proved only that its sender had
 * a fresh packet of the peer's).
 */
struct ike_engine;
struct ikb_kernel_event;
void nat_mapping(struct ike_engine *e, const struct ikb_kernel_event *ev);

/* nat_keepalive.c: RFC 3948 §2.3, while we are behind the NAT. */
void nat_keepalive_arm(struct ike_sa *sa);

/* nat_ts.c: transport mode behind a NAT (§2.23.1). */
/*
 * The addresses the kernel sees for c's traffic: a host selector on the
 * NAT's side is replaced by the IKE SA's address there.
 */
void nat_ts_kernel(const struct ike_sa *sa, const struct child_sa *c,
		   struct ikb_selector *out);
/*
 * ts_select() for a Child SA of mode: when the plain intersection fails
 * in transport mode behind a NAT, each single-host TS on a NAT's side is
 * read as the IKE SA's address there (as strongSwan and libreswan do),
 * and out keeps the address that was negotiated: the peer's offer when we
 * answer a request, ours when we check the answer to ours.
 */
int nat_ts_select(const struct ike_sa *sa, enum ikb_mode mode,
		  const struct ikb_selector *ours,
		  const struct wire_ts_pld *local,
		  const struct wire_ts_pld *remote, bool strict, bool answer,
		  struct ikb_selector *out);

#endif
