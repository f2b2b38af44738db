// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A peer that holds the keys and lies (duo.h): the edits keep the header
 * and the keys right, so that what is changed passes the integrity check
 * and reaches the codec and the handlers, which is where the crash of
 * issue 39 was (a response without the IDr its handler read).
 */
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "hostile.h"
#include "ike/ike_sa.h"
#include "ike/msg/msg.h"
#include "wire/wire.h"

#define MAX_PL 32

/* The plaintext's payload chain as far as it is well formed. */
struct chain {
	uint8_t first;
	unsigned n;
	struct {
		uint8_t type;
		size_t off, len;
	} p[MAX_PL];
};

static void chain_walk(struct chain *c, uint8_t first, const uint8_t *pt,
		       size_t len)
{
	size_t off = 0;
	uint8_t type = first;

	c->first = first;
	c->n = 0;
	while (type && c->n < MAX_PL && off + 4 <= len) {
		size_t l = (size_t)(pt[off + 2] << 8 | pt[off + 3]);

		if (l < 4 || off + l > len)
			break;
		c->p[c->n].type = type;
		c->p[c->n].off = off;
		c->p[c->n++].len = l;
		type = pt[off];
		off += l;
	}
}

/* Payload i out of the chain: its predecessor names its successor. */
static size_t drop_payload(struct chain *c, uint8_t *pt, size_t len, unsigned i,
			   uint8_t *first)
{
	size_t off = c->p[i].off, l = c->p[i].len;

	if (i == 0)
		*first = pt[off];
	else
		pt[c->p[i - 1].off] = pt[off];
	memmove(pt + off, pt + off + l, len - off - l);
	return len - l;
}

/* A Notify payload of type and data in front of the chain. */
static size_t add_notify(uint8_t *pt, size_t len, size_t cap, uint8_t *first,
			 uint16_t type, const uint8_t *data, size_t dlen)
{
	size_t l = 8 + dlen;

	if (len + l > cap || l > 0xffff)
		return len;
	memmove(pt + l, pt, len);
	pt[0] = *first;
	pt[1] = 0;
	pt[2] = (uint8_t)(l >> 8);
	pt[3] = (uint8_t)l;
	pt[4] = 0; /* protocol */
	pt[5] = 0; /* SPI size */
	pt[6] = (uint8_t)(type >> 8);
	pt[7] = (uint8_t)type;
	memcpy(pt + 8, data, dlen);
	*first = WIRE_PT_NOTIFY;
	return len + l;
}

/* The edit the input names; the new length of pt. */
static size_t apply(uint8_t op, struct fuzz_in *in, uint8_t *pt, size_t len,
		    size_t cap, uint8_t *first)
{
	struct chain c;
	const uint8_t *d;
	size_t dlen;

	chain_walk(&c, *first, pt, len);
	switch (op) {
	case 2: /* overwrite octets */
		for (unsigned k = fuzz_u8(in) % 8 + 1; k && len; k--) {
			size_t at = fuzz_u16(in) % len;

			pt[at] = fuzz_u8(in);
		}
		return len;
	case 3: /* leave a payload out */
		return c.n ? drop_payload(&c, pt, len, fuzz_u8(in) % c.n,
					  first) :
			     len;
	case 4: /* an error or status notify in front */
		op = (uint8_t)fuzz_u16(in); /* the type's high octet */
		d = fuzz_record(in, &dlen);
		return add_notify(pt, len, cap, first,
				  (uint16_t)(op << 8 | fuzz_u8(in)), d,
				  dlen > 64 ? 64 : dlen);
	case 5: /* other payloads altogether */
		*first = fuzz_u8(in);
		d = fuzz_record(in, &dlen);
		dlen = dlen > cap ? cap : dlen;
		memcpy(pt, d, dlen);
		return dlen;
	case 6: /* cut short */
		return len ? fuzz_u16(in) % len : 0;
	default:
		return len;
	}
}

static int seal(struct ike_sa *peer, const struct wire_hdr *hdr, uint8_t first,
		const uint8_t *pt, size_t len, unsigned nfrag, struct wbuf *out)
{
	size_t per = nfrag ? (len + nfrag - 1) / nfrag : len;
	struct wbuf one;
	int rc = 0;

	for (unsigned k = 0; !rc && k < (nfrag ? nfrag : 1); k++) {
		size_t off = k * per;
		size_t l = off >= len ? 0 : off + per > len ? len - off : per;

		wbuf_init(&one, 0);
		rc = msg_seal(
			peer, hdr, k ? 0 : first, pt + (off < len ? off : 0), l,
			nfrag ? (uint16_t)(k + 1) : 0, (uint16_t)nfrag, &one);
		if (!rc)
			rc = dgram_set_add(out, one.data, one.len);
		wbuf_free(&one);
	}
	return rc;
}

int hostile_edit(struct ike_sa *sa, struct ike_sa *sa_peer, const uint8_t *buf,
		 size_t len, struct fuzz_in *in, struct wbuf *out)
{
	struct wire_opts o = { sa->iv_len, sa->icv_len, sa->block_len };
	struct wire_msg *m = calloc(1, sizeof(*m));
	const struct wire_payload *sk;
	struct crypto_err cerr = { 0 };
	struct wire_error werr;
	uint8_t op = fuzz_u8(in), first, *pt = NULL;
	size_t plen = 0, cap;
	int rc = -1;

	if (!m || !sa->sk_in || wire_parse(m, buf, len, &o, &werr) ||
	    !(sk = wire_find(m, WIRE_PT_SK)))
		goto out;
	if ((op & 7) == 1) {
		rc = 1;
		goto out;
	}
	cap = sk->u.sk.body_len + 1024;
	plen = sk->u.sk.body_len;
	if (!(pt = malloc(cap)) ||
	    msg_sk_decrypt(sa, buf, sk, pt, &plen, &cerr))
		goto out;
	first = sk->u.sk.inner_type;
	plen = apply(op & 7, in, pt, plen, cap, &first);
	/* bit 3: as fragments (RFC 7383), 2 to 5 of them */
	rc = seal(sa_peer, &m->hdr, first, pt, plen,
		  op & 8 ? (unsigned)(op >> 4) % 4 + 2 : 0, out);
	rc = rc ? -1 : 0;
out:
	free(pt);
	free(m);
	return rc;
}

/* Error types a peer refuses with (IANA), and one without a name. */
static const uint16_t refusals[] = { 1,	 7,  11, 14, 17, 24, 34, 35,  36,
				     37, 38, 39, 40, 43, 44, 48, 8191 };

size_t hostile_draw(uint8_t *ops, size_t cap, uint64_t r)
{
	unsigned pick = (unsigned)(r % 100);
	uint16_t type =
		refusals[(r >> 8) % (sizeof(refusals) / sizeof(refusals[0]))];
	uint8_t frag = (r >> 16) % 8 ? 0 : (uint8_t)(0x08 | ((r >> 20) & 0x30));
	size_t n = 0;

	if (cap < 16)
		return 0;
	if (pick < 40) { /* an error notify in front: the refusal path */
		ops[n++] = 4 | frag;
		ops[n++] = 0;
		ops[n++] = (uint8_t)(type >> 8);
		ops[n++] = 0; /* its data: INVALID_KE_PAYLOAD's group */
		ops[n++] = type == WIRE_N_INVALID_KE_PAYLOAD ? 2 : 0;
		if (type == WIRE_N_INVALID_KE_PAYLOAD) {
			ops[n++] = 0;
			ops[n++] = (uint8_t)(r >> 24);
		}
		ops[n++] = (uint8_t)type;
	} else if (pick < 65) { /* a payload left out */
		ops[n++] = 3 | frag;
		ops[n++] = (uint8_t)(r >> 32);
	} else if (pick < 80) { /* octets overwritten */
		ops[n++] = 2 | frag;
		ops[n++] = 0;
		ops[n++] = (uint8_t)(r >> 32);
		ops[n++] = (uint8_t)(r >> 40);
		ops[n++] = (uint8_t)(r >> 48);
	} else if (pick < 90) { /* cut short */
		ops[n++] = 6 | frag;
		ops[n++] = (uint8_t)(r >> 32);
		ops[n++] = (uint8_t)(r >> 40);
	} else if (pick < 95) { /* lost */
		ops[n++] = 1;
	} else { /* as it was, maybe in fragments */
		ops[n++] = frag ? frag : 0;
	}
	return n;
}
