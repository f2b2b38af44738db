// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Verified peer chains, kept briefly (see cred.h). Only a chain NSS
 * accepted is kept: a refusal is checked again each time, and the
 * signature of every IKE_AUTH is always verified. A small table with
 * round-robin replacement: a responder sees a few host certificates many
 * times, not many certificates once each. Helper threads look up and add
 * (a burst of IKE_AUTHs is queued before the first is verified), so a
 * mutex guards the table and peer certificates count their references
 * atomically.
 */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "crypto/cred.h"
#include "crypto/hash.h"

#define CACHE_SLOTS 128
#define CACHE_SECS 60

static struct slot {
	uint8_t digest[CERT_DIGEST_LEN];
	struct peer_cert *p;
	time_t until;
} slots[CACHE_SLOTS];
static unsigned next_slot;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int cert_chain_digest(const struct cred_der *certs, size_t n,
		      const struct cert_verify_opts *o,
		      uint8_t out[CERT_DIGEST_LEN])
{
	struct cbytes iov[2 * CRED_CHAIN_MAX + 2];
	uint8_t lens[CRED_CHAIN_MAX + 1][4];
	size_t k = 0;

	for (size_t i = 0; i <= n && i <= CRED_CHAIN_MAX; i++) {
		const uint8_t *p = i < n ? certs[i].ptr : o ? o->ca : NULL;
		size_t len = i < n ? certs[i].len : o && o->ca ? o->ca_len : 0;

		/* each part with its length: no two chains hash alike */
		lens[i][0] = (uint8_t)(len >> 24);
		lens[i][1] = (uint8_t)(len >> 16);
		lens[i][2] = (uint8_t)(len >> 8);
		lens[i][3] = (uint8_t)len;
		iov[k++] = CBYTES(lens[i], 4);
		if (len)
			iov[k++] = CBYTES(p, len);
	}
	return hash_computev(HASH_SHA2_256, iov, k, out, NULL);
}

struct peer_cert *cert_cache_find(const uint8_t digest[CERT_DIGEST_LEN])
{
	time_t now = time(NULL);
	struct peer_cert *p = NULL;

	pthread_mutex_lock(&lock);
	for (unsigned i = 0; !p && i < CACHE_SLOTS; i++) {
		struct slot *s = &slots[i];

		if (!s->p || memcmp(s->digest, digest, CERT_DIGEST_LEN))
			continue;
		if (now < s->until) {
			p = peer_cert_get(s->p);
			continue;
		}
		peer_cert_put(s->p);
		s->p = NULL;
	}
	pthread_mutex_unlock(&lock);
	return p;
}

void cert_cache_add(const uint8_t digest[CERT_DIGEST_LEN], struct peer_cert *p)
{
	struct slot *s;
	time_t now = time(NULL), until = now + CACHE_SECS;

	if (p->not_after && p->not_after < until)
		until = p->not_after;
	if (until <= now)
		return;
	pthread_mutex_lock(&lock);
	s = &slots[next_slot];
	next_slot = (next_slot + 1) % CACHE_SLOTS;
	peer_cert_put(s->p);
	memcpy(s->digest, digest, CERT_DIGEST_LEN);
	s->p = peer_cert_get(p);
	s->until = until;
	pthread_mutex_unlock(&lock);
}

void cert_cache_flush(void)
{
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < CACHE_SLOTS; i++) {
		peer_cert_put(slots[i].p);
		slots[i].p = NULL;
	}
	pthread_mutex_unlock(&lock);
}
