// SPDX-License-Identifier: GPL-2.0-or-later
/* NAT detection (RFC 7296 §2.23). */
#include <arpa/inet.h>
#include <string.h>
#include "crypto/crypto.h"
#include "ike/engine.h"
#include "ike/msg.h"

int nat_hash(const uint8_t spi_i[8], const uint8_t spi_r[8],
	     const struct ikb_addr *a, uint16_t port, uint8_t out[20])
{
	uint8_t in[8 + 8 + 16 + 2];
	size_t alen = a->family == AF_INET ? 4 : 16;
	uint16_t nport = htons(port);

	memcpy(in, spi_i, 8);
	memcpy(in + 8, spi_r, 8);
	memcpy(in + 16, a->bytes, alen);
	memcpy(in + 16 + alen, &nport, 2);
	return hash_sha1(CBYTES(in, 16 + alen + 2), out, NULL);
}

/* Any notify of type whose data equals want. */
static bool any_equal(const struct wire_msg *m, uint16_t type,
		      const uint8_t want[20], bool *seen)
{
	const struct wire_payload *p = NULL;
	bool eq = false;

	while ((p = wire_next_notify(m, p))) {
		if (p->u.notify.type != type)
			continue;
		*seen = true;
		if (p->u.notify.len == 20 &&
		    !memcmp(p->u.notify.data, want, 20))
			eq = true;
	}
	return eq;
}

/*
 * The peer's DESTINATION hash is of where it sent to (our address), its
 * SOURCE hash of where it sent from. A mismatch means a NAT rewrote it.
 * Port 4500 float comes with NAT-T; this records what was found.
 */
void nat_check(struct ike_sa *sa, const struct wire_msg *m)
{
	uint8_t h[20];
	bool seen_dst = false, seen_src = false;

	if (!nat_hash(m->hdr.spi_i, m->hdr.spi_r, &sa->path.local,
		      sa->path.lport, h))
		sa->nat_local = !any_equal(
			m, WIRE_N_NAT_DETECTION_DESTINATION_IP, h, &seen_dst);
	if (!nat_hash(m->hdr.spi_i, m->hdr.spi_r, &sa->path.remote,
		      sa->path.rport, h))
		sa->nat_remote = !any_equal(m, WIRE_N_NAT_DETECTION_SOURCE_IP,
					    h, &seen_src);
	if (!seen_dst)
		sa->nat_local = false;
	if (!seen_src)
		sa->nat_remote = false;
	if (sa->nat_local || sa->nat_remote)
		ike_sa_log(
			sa, IKB_LOG_NOTICE,
			"NAT detected (%s%s); UDP encapsulation on port 4500 is not implemented yet",
			sa->nat_local ? "we are behind NAT" : "",
			sa->nat_remote ?
				(sa->nat_local ? ", peer too" :
						 "peer is behind NAT") :
				"");
}
