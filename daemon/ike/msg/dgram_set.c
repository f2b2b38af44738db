// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A message as the datagrams that carry it: one, or its IKE fragments
 * (RFC 7383), kept together so that a retransmission resends the whole
 * set (§2.6). In one buffer: each datagram's length (two octets, host
 * order) and its octets.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ike/engine.h"
#include "ike/msg/msg.h"
#include "ike/path/path.h"
#include "ike/timers.h"

int dgram_set_add(struct wbuf *set, const uint8_t *d, size_t len)
{
	uint16_t n = (uint16_t)len;

	if (len > UINT16_MAX)
		return -EMSGSIZE;
	wbuf_put(set, &n, sizeof(n));
	wbuf_put(set, d, len);
	return set->err;
}

int dgram_set_wrap(struct wbuf *one)
{
	struct wbuf set;
	int rc;

	wbuf_init(&set, 0);
	rc = dgram_set_add(&set, one->data, one->len);
	if (rc) {
		wbuf_free(&set);
		return rc;
	}
	wbuf_free(one);
	*one = set;
	return 0;
}

static unsigned send_on(struct ike_sa *sa, const struct ike_path *p,
			const uint8_t *set, size_t len)
{
	unsigned sent = 0;
	uint16_t n;

	for (size_t off = 0; off + sizeof(n) <= len; off += sizeof(n) + n) {
		memcpy(&n, set + off, sizeof(n));
		if (off + sizeof(n) + n > len)
			break;
		if (!engine_send(sa->e, p, set + off + sizeof(n), n))
			sent++;
	}
	/* the path is busy: NAT-keepalives count idle time from here */
	sa->last_send_ms = mono_ms();
	return sent;
}

unsigned dgram_set_send(struct ike_sa *sa, const uint8_t *set, size_t len)
{
	return send_on(sa, &sa->path, set, len);
}

/*
 * RFC 4555 §3.5: with MOBIKE a response goes back where its request came
 * from, which is not the SA's path while the peer probes a new one (an
 * empty INFORMATIONAL from its new address before UPDATE_SA_ADDRESSES).
 * Without MOBIKE an authenticated request has made its path the SA's.
 */
unsigned dgram_set_reply(struct ike_sa *sa, const uint8_t *set, size_t len)
{
	return send_on(sa, mobike_on(sa) ? &sa->rx_path : &sa->path, set, len);
}

const uint8_t *dgram_set_first(const uint8_t *set, size_t len, size_t *n)
{
	uint16_t l;

	if (len < sizeof(l))
		return NULL;
	memcpy(&l, set, sizeof(l));
	if (sizeof(l) + l > len)
		return NULL;
	*n = l;
	return set + sizeof(l);
}
