/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IKE fragmentation (RFC 7383): an IKE SA's object once both ends said
 * IKEV2_FRAGMENTATION_SUPPORTED in IKE_SA_INIT (fragmentation= not no).
 * An encrypted message larger than the path takes goes as a set of SKF
 * payloads, each sealed on its own; a received set is kept, fragment by
 * authenticated fragment, until it is whole. Not for use outside
 * daemon/ike/.
 */
#ifndef IKB_IKE_FRAG_H
#define IKB_IKE_FRAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ike_sa;
struct wire_msg;
struct wire_payload;
struct wbuf;

/* What ikebana reassembles at most: 64 fragments, 64 KiB a message. */
#define FRAG_MAX 64
#define FRAG_BYTES_MAX 65536

struct frag_in;

struct ike_frag {
	/* counters for status */
	unsigned long msgs_out, frags_out, msgs_in, frags_in, dropped;
	/* the path MTU when first needed (ike_io); -1: unknown */
	int path_mtu;
	/* messages being reassembled: [0] requests, [1] responses */
	struct frag_in *in[2];
};

/* frag.c */
/* After IKE_SA_INIT's other end: both announced it, so sa->frag is set. */
void frag_note(struct ike_sa *sa, const struct wire_msg *m);
/* Whether our IKE_SA_INIT says IKEV2_FRAGMENTATION_SUPPORTED. */
bool frag_offer(const struct ike_sa *sa);
/*
 * The largest datagram (UDP payload) sa sends whole: ike-fragment-size=,
 * else the path MTU where it is more than RFC 7383's minimum paths.
 */
size_t frag_limit(const struct ike_sa *sa);
void frag_free(struct ike_sa *sa);
/* A rekeyed IKE SA keeps what IKE_SA_INIT of the first one agreed. */
void frag_inherit(struct ike_sa *sa, const struct ike_sa *old);

/* frag_out.c: the fragments of plaintext pt (first: its first payload's
 * type), as a datagram set (dgram_set_*) in out. */
int frag_seal(struct ike_sa *sa, const struct wire_msg *m, const uint8_t *pt,
	      size_t pt_len, uint8_t first, struct wbuf *out);

/*
 * frag_in.c: an SKF payload of m (the datagram buf). 0: the message is
 * whole, its plaintext in *plain (caller frees), *len and *first set;
 * -EINPROGRESS: kept, more to come; -EBADMSG: dropped (logged).
 */
int frag_collect(struct ike_sa *sa, const struct wire_msg *m,
		 const uint8_t *buf, const struct wire_payload *skf,
		 uint8_t **plain, size_t *len, uint8_t *first);
/* A later fragment of a retransmitted request: no new response for it. */
bool frag_not_first(const uint8_t *buf, size_t len);
void frag_in_free(struct frag_in *f);

#endif
