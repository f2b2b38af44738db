// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Half-open IKE SAs: responder SAs from our IKE_SA_INIT answer until
 * IKE_AUTH completes. Anyone can make one with a single datagram, so
 * they are counted, globally and per source address, and they expire:
 * a legitimate initiator sends IKE_AUTH within a round trip, and
 * HALFOPEN_MS (strongSwan's half_open_timeout) still leaves room for
 * several of its retransmits. Without expiry a sender that answers our
 * COOKIEs fills every slot of max-halfopen-ike for good.
 *
 * The SAs are kept in a list in the order they were made, so the oldest
 * is the head and one timer serves them all.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>

#include "crypto/crypto.h"
#include "ike/engine.h"
#include "ike/msg/halfopen.h"
#include "ike/msg/msg.h"
#include "ike/timers.h"

#define HO_BUCKETS 4096

struct ho_src {
	struct ikb_addr addr;
	unsigned n;
	struct ho_src *next;
};

struct halfopen {
	struct ike_sa *head, *tail; /* oldest first */
	struct event *timer;
	uint32_t seed; /* sources are the sender's choice: key the hash */
	size_t nsrc; /* nodes in src: fini walks the buckets only for them */
	struct ho_src *src[HO_BUCKETS];
};

static unsigned src_bucket(const struct halfopen *ho, const struct ikb_addr *a)
{
	size_t n = a->family == AF_INET6 ? 16 : 4;
	uint32_t h = 2166136261u ^ ho->seed;

	for (size_t i = 0; i < n; i++)
		h = (h ^ a->bytes[i]) * 16777619u;
	return (h ^ (h >> 16)) % HO_BUCKETS;
}

static struct ho_src **src_find(struct halfopen *ho, const struct ikb_addr *a)
{
	struct ho_src **s = &ho->src[src_bucket(ho, a)];

	while (*s && !ike_addr_equal(&(*s)->addr, a))
		s = &(*s)->next;
	return s;
}

static unsigned src_count(struct halfopen *ho, const struct ikb_addr *a)
{
	struct ho_src *s = *src_find(ho, a);

	return s ? s->n : 0;
}

static void arm(struct ike_engine *e)
{
	struct halfopen *ho = e->ho;
	unsigned long long now = mono_ms(), at;
	struct timeval tv;

	if (!ho->timer)
		return;
	if (!ho->head) {
		evtimer_del(ho->timer);
		return;
	}
	at = ho->head->ho_since_ms + e->halfopen_ms;
	at = at > now ? at - now : 0;
	tv.tv_sec = (time_t)(at / 1000);
	tv.tv_usec = (suseconds_t)(at % 1000 * 1000);
	evtimer_add(ho->timer, &tv);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
	struct ike_engine *e = arg;
	unsigned long long now = mono_ms();
	struct ike_sa *sa;

	while ((sa = e->ho->head) && sa->ho_since_ms + e->halfopen_ms <= now)
		ike_sa_delete(sa, "half-open: no IKE_AUTH in time");
	arm(e);
}

int halfopen_init(struct ike_engine *e)
{
	struct halfopen *ho = calloc(1, sizeof(*ho));

	if (!ho)
		return -ENOMEM;
	if (e->base && !(ho->timer = evtimer_new(e->base, on_timer, e))) {
		free(ho);
		return -ENOMEM;
	}
	rng_bytes(&ho->seed, sizeof(ho->seed), NULL);
	e->ho = ho;
	if (!e->halfopen_ms)
		e->halfopen_ms = HALFOPEN_MS;
	return 0;
}

void halfopen_fini(struct ike_engine *e)
{
	struct halfopen *ho = e->ho;

	if (!ho)
		return;
	for (unsigned i = 0; ho->nsrc && i < HO_BUCKETS; i++)
		while (ho->src[i]) {
			struct ho_src *s = ho->src[i];

			ho->src[i] = s->next;
			free(s);
			ho->nsrc--;
		}
	if (ho->timer)
		event_free(ho->timer);
	free(ho);
	e->ho = NULL;
}

void halfopen_add(struct ike_sa *sa)
{
	struct ike_engine *e = sa->e;
	struct halfopen *ho = e->ho;
	struct ho_src **s = src_find(ho, &sa->path.remote);

	if (!*s && (*s = calloc(1, sizeof(**s)))) {
		(*s)->addr = sa->path.remote;
		ho->nsrc++;
	}
	if (*s) /* without it the source is undercounted, nothing worse */
		(*s)->n++;
	sa->ho_src = *s;
	sa->ho_on = true;
	sa->ho_since_ms = mono_ms();
	sa->ho_next = NULL;
	sa->ho_prev = ho->tail;
	if (ho->tail)
		ho->tail->ho_next = sa;
	else
		ho->head = sa;
	ho->tail = sa;
	e->halfopen++;
	if (ho->head == sa)
		arm(e);
}

void halfopen_drop(struct ike_sa *sa)
{
	struct ike_engine *e = sa->e;
	struct halfopen *ho = e->ho;
	struct ho_src **s, *gone;
	bool was_head = ho->head == sa;

	if (!sa->ho_on)
		return;
	sa->ho_on = false;
	*(sa->ho_prev ? &sa->ho_prev->ho_next : &ho->head) = sa->ho_next;
	*(sa->ho_next ? &sa->ho_next->ho_prev : &ho->tail) = sa->ho_prev;
	/* the node it counted in: its path may have changed since */
	if (sa->ho_src && !--sa->ho_src->n) {
		s = src_find(ho, &sa->ho_src->addr);
		gone = *s;
		*s = gone->next;
		free(gone);
		ho->nsrc--;
	}
	sa->ho_src = NULL;
	e->halfopen--;
	if (was_head)
		arm(e);
}

enum halfopen_verdict halfopen_admit(struct ike_engine *e,
				     const struct ikb_addr *src)
{
	unsigned n = src_count(e->ho, src);

	if (e->halfopen >= e->max_halfopen)
		return HALFOPEN_FULL;
	if (n >= HALFOPEN_PER_SOURCE)
		return HALFOPEN_SOURCE_FULL;
	if (e->halfopen >= e->ddos_threshold)
		return HALFOPEN_COOKIE;
	/* ddos-mode=unlimited: never ask, not even one busy source */
	if (n >= HALFOPEN_COOKIE_SOURCE && e->ddos_threshold != UINT_MAX)
		return HALFOPEN_COOKIE;
	return HALFOPEN_OK;
}
