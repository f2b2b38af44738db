/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Traffic selectors: from a conn, to the wire, and §2.9 narrowing. */
#ifndef IKB_IKE_TS_H
#define IKB_IKE_TS_H

#include <ikebana/types.h>

#include "config/config.h"
#include "wire/wire.h"

struct conn_view;

/* A prefix of a side's selectors. */
struct ts_net {
	struct ikb_addr a;
	uint8_t plen;
};

/*
 * Several selectors of one Child SA (leftsubnet=A,B, libreswan 5): the
 * prefixes of each side, each pair of them a kernel policy; protocol and
 * ports are the Child SA's (its ts), l[0] and r[0] its ts's prefixes.
 */
#define TS_NETS_MAX IKB_CONN_NETS_MAX
struct ts_set {
	uint8_t nl, nr;
	struct ts_net l[TS_NETS_MAX], r[TS_NETS_MAX];
};
/* The conn's, when a side has several prefixes: 0 and *out (free() it),
 * *out NULL for one pair, or -ENOMEM. */
int ts_set_of_conn(const struct conn_view *v, struct ts_set **out);
/* The pairs: nl * nr; pair i (0: l[0], r[0]) with base's proto and ports. */
unsigned ts_set_pairs(const struct ts_set *s);
void ts_set_pair(const struct ts_set *s, const struct ikb_selector *base,
		 unsigned i, struct ikb_selector *out);
bool ts_set_equal(const struct ts_set *a, const struct ts_set *b);
/*
 * TS payload entries of s (ours: l is local), pair's proto and ports:
 * TSi's and TSr's, as the initiator (initiator) or responder sends them.
 */
void ts_set_wire(const struct ts_set *s, const struct ikb_selector *pair,
		 bool initiator, struct wire_ts *ti, unsigned *ni,
		 struct wire_ts *tr, unsigned *nr);
/*
 * ts_select for sets: every intersection of one of ours with an offered
 * TS, per side, in the offered order; strict: every offered TS lies in
 * one of ours, as it is. 0 with out and first (its first pair), or -1.
 */
int ts_set_select(const struct ts_set *ours, const struct ikb_selector *pair,
		  const struct wire_ts_pld *local,
		  const struct wire_ts_pld *remote, bool strict,
		  struct ts_set *out, struct ikb_selector *first);

/* The conn's selector: our side is src, the peer's dst. */
void ts_from_conn(const struct conn_view *v, struct ikb_selector *sel);
/*
 * A conn side of %any without a subnet is the IKE SA's address there, as
 * libreswan's and strongSwan's %dynamic: fills sel's AF_UNSPEC sides.
 */
struct ike_path;
void ts_fill_dynamic(struct ikb_selector *sel, const struct ike_path *p);
void ts_to_wire(const struct ikb_addr *a, uint8_t plen, uint8_t proto,
		uint16_t port, struct wire_ts *out);
/*
 * Intersect ours with the offered TS lists (local: the TS payload of our
 * side, remote: the peer's). strict: each side must equal an offered TS.
 * 0 and out, or -1 when nothing is left (TS_UNACCEPTABLE).
 */
int ts_select(const struct ikb_selector *ours, const struct wire_ts_pld *local,
	      const struct wire_ts_pld *remote, bool strict,
	      struct ikb_selector *out);

#endif
