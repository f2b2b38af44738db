// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stateless COOKIEs (RFC 7296 §2.6): Cookie = <VersionIDofSecret> |
 * Hash(Ni | IPi | SPIi | <secret>). The secret rotates every two minutes;
 * the previous version stays valid so an initiator in flight succeeds.
 */
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>

#include "crypto/crypto.h"
#include "ike/engine.h"
#include "ike/msg/msg.h"
#include "log/log.h"

#define COOKIE_ROTATE_S 120

static void rotate(evutil_socket_t fd, short what, void *arg)
{
	struct ike_engine *e = arg;
	struct crypto_err err;
	uint8_t v = (uint8_t)(e->cookie_version + 1);

	if (rng_bytes(e->cookie_secret[v & 1], 32, &err)) {
		log_err("COOKIE secret not rotated: %s", err.msg);
		return;
	}
	e->cookie_version = v;
}

int cookie_init(struct ike_engine *e)
{
	struct timeval tv = { COOKIE_ROTATE_S, 0 };

	rotate(-1, 0, e);
	rotate(-1, 0, e);
	e->cookie_timer = event_new(e->base, -1, EV_PERSIST, rotate, e);
	if (!e->cookie_timer)
		return -1;
	return event_add(e->cookie_timer, &tv);
}

void cookie_fini(struct ike_engine *e)
{
	if (e->cookie_timer)
		event_free(e->cookie_timer);
	secret_wipe(e->cookie_secret, sizeof(e->cookie_secret));
}

int cookie_make(const struct ike_engine *e, uint8_t version,
		const struct wire_opaque *ni, const struct ikb_addr *ip,
		const uint8_t spi_i[8], uint8_t out[IKE_COOKIE_LEN])
{
	struct cbytes iov[3] = {
		CBYTES(ni->data, ni->len),
		CBYTES(ip->bytes, ip->family == AF_INET ? 4 : 16),
		CBYTES(spi_i, 8),
	};
	struct crypto_err err;

	out[0] = version;
	/* HMAC keyed with the secret: the same as hashing it in, but keyed */
	return prf_computev(IKEV2_PRF_HMAC_SHA2_256,
			    CBYTES(e->cookie_secret[version & 1], 32), iov, 3,
			    out + 1, &err);
}

bool cookie_valid(const struct ike_engine *e, const struct wire_msg *m,
		  const struct ike_path *p)
{
	const struct wire_notify *n = wire_find_notify(m, WIRE_N_COOKIE);
	const struct wire_payload *ni = wire_find(m, WIRE_PT_NONCE);
	uint8_t want[IKE_COOKIE_LEN];
	uint8_t v;

	if (!n || !ni || n->len != IKE_COOKIE_LEN)
		return false;
	v = n->data[0];
	/* only the current and the previous secret are still known */
	if (v != e->cookie_version && v != (uint8_t)(e->cookie_version - 1))
		return false;
	if (cookie_make(e, v, &ni->u.nonce, &p->remote, m->hdr.spi_i, want))
		return false;
	return !memcmp(want, n->data, IKE_COOKIE_LEN);
}
