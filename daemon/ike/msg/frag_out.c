// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sending a message as IKE fragments (RFC 7383 §2.5): the plaintext of
 * its payloads cut into pieces, each sealed on its own in an SKF payload
 * under the message's header (same Message ID), so that each fragment
 * fits the path whole. Fragment 1 names the first payload's type; the
 * others say none.
 */
#include <errno.h>

#include "crypto/crypto.h"
#include "ike/engine.h"
#include "ike/msg/frag.h"
#include "ike/msg/msg.h"

/* The most plaintext one fragment's datagram of limit octets holds. */
static size_t piece_max(const struct ike_sa *sa, size_t limit)
{
	size_t over = WIRE_HDR_LEN + WIRE_GENERIC_LEN + 4; /* SKF fields */
	size_t n;

	if (limit <= over)
		return 0;
	/* padding and IV make the sealed size a step function: walk down */
	for (n = limit - over; n > 0; n--)
		if (over + sk_sealed_len(sa->sk_out, n) <= limit)
			return n;
	return 0;
}

int frag_seal(struct ike_sa *sa, const struct wire_msg *m, const uint8_t *pt,
	      size_t pt_len, uint8_t first, struct wbuf *out)
{
	size_t piece = piece_max(sa, frag_limit(sa)), total;
	struct wbuf one;
	int rc = 0;

	if (!piece)
		return -EMSGSIZE;
	total = (pt_len + piece - 1) / piece;
	if (total > FRAG_MAX) {
		ike_sa_log(
			sa, IKB_LOG_ERR,
			"cannot send a %zu-octet %s message: %zu fragments of %zu, more than the %d a peer is asked to take",
			pt_len, wire_exchange_name(m->hdr.exchange), total,
			piece, FRAG_MAX);
		return -EMSGSIZE;
	}
	for (size_t i = 0; i < total && !rc; i++) {
		size_t off = i * piece;
		size_t n = pt_len - off < piece ? pt_len - off : piece;

		wbuf_init(&one, 0);
		rc = msg_seal(sa, &m->hdr, i ? WIRE_PT_NONE : first, pt + off,
			      n, (uint16_t)(i + 1), (uint16_t)total, &one);
		if (!rc)
			rc = dgram_set_add(out, one.data, one.len);
		wbuf_free(&one);
	}
	if (!rc) {
		sa->frag->msgs_out++;
		sa->frag->frags_out += total;
		ike_sa_log(sa, IKB_LOG_DEBUG,
			   "%s message %u: %zu octets in %zu fragments",
			   wire_exchange_name(m->hdr.exchange), m->hdr.msgid,
			   pt_len, total);
	}
	return rc;
}
