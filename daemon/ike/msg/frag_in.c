// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reassembling IKE fragments (RFC 7383 §2.6). Each fragment is decrypted
 * and its integrity checked before it is kept, so that only the peer can
 * fill a set; a set is one message (its Message ID), one per direction
 * (our requests' answers, the peer's requests). Bounds: FRAG_MAX
 * fragments, FRAG_BYTES_MAX octets, 30 s from its first fragment. As
 * §2.6.1 says: a duplicate is ignored; a fragment with a larger Total
 * Fragments starts the set again (the sender chose smaller fragments), one
 * with a smaller one is dropped. Each drop is logged with the field.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/engine.h"
#include "ike/msg/frag.h"
#include "ike/msg/msg.h"
#include "ike/timers.h"

#define FRAG_SET_MS 30000

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

struct frag_in {
	uint32_t msgid;
	uint16_t total, have;
	uint8_t first; /* fragment 1's Next Payload */
	size_t bytes;
	unsigned long long started_ms;
	uint8_t *part[FRAG_MAX];
	uint16_t len[FRAG_MAX];
};

void frag_in_free(struct frag_in *f)
{
	if (!f)
		return;
	for (unsigned i = 0; i < FRAG_MAX; i++)
		if (f->part[i]) {
			secret_wipe(f->part[i], f->len[i]);
			free(f->part[i]);
		}
	free(f);
}

bool frag_not_first(const uint8_t *buf, size_t len)
{
	/* the header's Next Payload, then SKF's Fragment Number */
	return len >= WIRE_HDR_LEN + WIRE_GENERIC_LEN + 2 &&
	       buf[16] == WIRE_PT_SKF &&
	       get16(buf + WIRE_HDR_LEN + WIRE_GENERIC_LEN) != 1;
}

static int drop(struct ike_sa *sa, const struct wire_payload *skf,
		const char *why)
{
	char line[300];

	snprintf(line, sizeof(line), "SKF payload (fragment %u of %u): %s",
		 skf->u.sk.frag_num, skf->u.sk.frag_total, why);
	log_wire_drop(&sa->path, line, NULL);
	if (sa->frag)
		sa->frag->dropped++;
	return -EBADMSG;
}

/* The slot for m's message: a set of another message or too old goes. */
static struct frag_in **slot(struct ike_sa *sa, const struct wire_msg *m,
			     uint16_t total)
{
	struct frag_in **f = &sa->frag->in[!!(m->hdr.flags & WIRE_FLAG_R)];
	unsigned long long now = mono_ms();

	if (*f && ((*f)->msgid != m->hdr.msgid || (*f)->total < total ||
		   now - (*f)->started_ms > FRAG_SET_MS)) {
		frag_in_free(*f);
		*f = NULL;
	}
	if (!*f && (*f = calloc(1, sizeof(**f)))) {
		(*f)->msgid = m->hdr.msgid;
		(*f)->total = total;
		(*f)->started_ms = now;
	}
	return f;
}

/* The whole message, in order; the set is freed. */
static int whole(struct frag_in **f, uint8_t **plain, size_t *len,
		 uint8_t *first)
{
	size_t off = 0;

	*plain = malloc((*f)->bytes ? (*f)->bytes : 1);
	if (!*plain)
		return -ENOMEM;
	for (unsigned i = 0; i < (*f)->total; i++) {
		memcpy(*plain + off, (*f)->part[i], (*f)->len[i]);
		off += (*f)->len[i];
	}
	*len = off;
	*first = (*f)->first;
	frag_in_free(*f);
	*f = NULL;
	return 0;
}

static int open_piece(struct ike_sa *sa, const uint8_t *buf,
		      const struct wire_payload *skf, uint8_t **pt,
		      size_t *pt_len)
{
	struct crypto_err cerr = { 0 };

	*pt = malloc(skf->u.sk.body_len ? skf->u.sk.body_len : 1);
	if (!*pt)
		return -ENOMEM;
	if (!msg_sk_decrypt(sa, buf, skf, *pt, pt_len, &cerr))
		return 0;
	free(*pt);
	*pt = NULL;
	return drop(sa, skf, cerr.msg[0] ? cerr.msg : "integrity check failed");
}

int frag_collect(struct ike_sa *sa, const struct wire_msg *m,
		 const uint8_t *buf, const struct wire_payload *skf,
		 uint8_t **plain, size_t *len, uint8_t *first)
{
	uint16_t num = skf->u.sk.frag_num, total = skf->u.sk.frag_total;
	struct frag_in **f;
	uint8_t *pt;
	size_t n;
	int rc;

	if (!sa->frag)
		return drop(
			sa, skf,
			"IKE fragmentation was not negotiated (IKEV2_FRAGMENTATION_SUPPORTED)");
	if (total > FRAG_MAX)
		return drop(
			sa, skf,
			"Total Fragments exceeds the 64 ikebana reassembles");
	if ((rc = open_piece(sa, buf, skf, &pt, &n)))
		return rc;
	f = slot(sa, m, total);
	if (!*f) {
		free(pt);
		return -ENOMEM;
	}
	if (total < (*f)->total || (*f)->part[num - 1]) {
		free(pt);
		return total < (*f)->total ?
			       drop(sa, skf,
				    "Total Fragments smaller than that of the message's other fragments") :
			       -EINPROGRESS; /* a duplicate: ignored */
	}
	if ((*f)->bytes + n > FRAG_BYTES_MAX) {
		free(pt);
		frag_in_free(*f);
		*f = NULL;
		return drop(
			sa, skf,
			"the message would exceed 64 KiB: its fragments are dropped");
	}
	(*f)->part[num - 1] = pt;
	(*f)->len[num - 1] = (uint16_t)n;
	(*f)->bytes += n;
	(*f)->have++;
	sa->frag->frags_in++;
	if (num == 1)
		(*f)->first = skf->u.sk.inner_type;
	if ((*f)->have < (*f)->total)
		return -EINPROGRESS;
	sa->frag->msgs_in++;
	return whole(f, plain, len, first);
}
