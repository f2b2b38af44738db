// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * When SAs are rekeyed (RFC 7296 §2.8): libreswan's ipsec-lifetime and
 * ikelifetime (8h), rekeymargin (9m) and rekeyfuzz (100%): the rekey
 * starts lifetime - margin - random(margin * fuzz) after the SA was made,
 * so that two peers rarely start at once. A Child SA is also rekeyed on
 * the kernel's soft EXPIRE (kernel_events.c). With rekey=no nothing is
 * rekeyed and the SAs are deleted at their lifetime.
 *
 * ipsec-max-bytes= and ipsec-max-packets= are each SA's hard limits in
 * the kernel, which removes the SA there. The soft limit that starts the
 * rekey is, as libreswan sets it, a quarter of the hard one for the
 * Child SA's initiator and half for its responder, less a random eighth
 * of that: the initiator rekeys first, the peers rarely at once, and
 * more than half the limit is left for the rekey to complete.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <event2/event.h>

#include "crypto/crypto.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/timers.h"
#include "ike/exchange/exchange.h"

#define HOUR_MS (3600ULL * 1000)

bool conn_rekey(const struct ike_engine *e, const char *conn)
{
	const struct conn *c = engine_conn(e, conn);

	return !c || c->rekey;
}

/* How long after creation the rekey starts. */
static unsigned long long rekey_after(const struct ike_engine *e,
				      const char *conn, unsigned long long life)
{
	const struct conn *c = engine_conn(e, conn);
	unsigned long long margin = c ? c->margin_ms : 540000;
	unsigned long long fuzz = margin * (c ? c->fuzz_pct : 100) / 100;
	uint32_t r = 0;

	if (fuzz && !rng_bytes(&r, sizeof(r), NULL))
		margin += (unsigned long long)((double)fuzz * r / 4294967296.0);
	/* the fuzz may eat the whole lifetime: rekey half-way then */
	return margin < life ? life - margin : life / 2;
}

static void arm(struct event *ev, unsigned long long ms)
{
	struct timeval tv = { (time_t)(ms / 1000),
			      (suseconds_t)(ms % 1000) * 1000 };

	if (ev)
		evtimer_add(ev, &tv);
}

/* Child SAs ---------------------------------------------------------- */

struct child_times {
	unsigned long long life, rekey; /* ms; rekey 0: none */
};

static void child_times(const struct ike_sa *sa, struct child_times *t)
{
	const struct conn *c = engine_conn(sa->e, sa->conn);

	t->life = c ? c->child_life_ms : 8 * HOUR_MS;
	t->rekey = conn_rekey(sa->e, sa->conn) ?
			   rekey_after(sa->e, sa->conn, t->life) :
			   0;
}

/* The soft limit of a hard one (above); 0 for none. */
static uint64_t soft_limit(uint64_t hard, bool initiator, bool rekey)
{
	uint64_t base = initiator ? hard / 4 : hard / 2, fuzz = base / 8;
	uint32_t r = 0;

	if (!hard || !rekey)
		return 0;
	if (fuzz && !rng_bytes(&r, sizeof(r), NULL))
		base -= (uint64_t)((double)fuzz * r / 4294967296.0);
	return base ? base : 1; /* 0 would be no limit */
}

void child_lifetime(struct ike_sa *sa, struct child_sa *c, bool initiator,
		    struct ikb_lifetime *life)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct child_times t;
	time_t now = wall_s();

	if (conn) {
		life->hard_bytes = conn->child_max_bytes;
		life->hard_packets = conn->child_max_packets;
	}
	life->soft_bytes = soft_limit(life->hard_bytes, initiator,
				      conn_rekey(sa->e, sa->conn));
	life->soft_packets = soft_limit(life->hard_packets, initiator,
					conn_rekey(sa->e, sa->conn));
	child_times(sa, &t);
	c->born_ms = mono_ms();
	c->life_ms = t.life;
	c->rekey_ms = t.rekey;
	/* the kernel counts whole seconds: never expire before our timer */
	life->hard_add_secs = (t.life + 999) / 1000;
	life->soft_add_secs = t.rekey / 1000;
	if (life->soft_add_secs >= life->hard_add_secs)
		life->soft_add_secs = 0;
	c->rekey_at = t.rekey ? now + (time_t)(t.rekey / 1000) : 0;
	c->expire_at = now + (time_t)life->hard_add_secs;
}

static unsigned long long left(unsigned long long born, unsigned long long span)
{
	unsigned long long now = mono_ms();

	return born + span > now ? born + span - now : 0;
}

static void on_child_timer(evutil_socket_t fd, short what, void *arg)
{
	struct child_sa *c = arg;
	struct ike_sa *sa = c->ike;

	if (c->timer_expires) {
		ike_sa_log(sa, IKB_LOG_INFO,
			   "Child SA %08x reached its lifetime: deleting",
			   c->spi_in);
		task_want_child(sa, c, TASK_DELETE_CHILD);
	} else {
		if (c->state != CHILD_REPLACED && c->state != CHILD_REDUNDANT &&
		    !child_rekeying(c))
			task_want_child(sa, c, TASK_REKEY_CHILD);
		c->timer_expires = true;
		arm(c->timer, left(c->born_ms, c->life_ms));
	}
	tasks_schedule(sa);
}

void child_timer_arm(struct ike_sa *sa, struct child_sa *c)
{
	if (!c->life_ms)
		return; /* never prepared: nothing installed */
	if (!c->timer &&
	    !(c->timer = evtimer_new(sa->e->base, on_child_timer, c)))
		return;
	c->timer_expires = !c->rekey_ms;
	arm(c->timer, c->rekey_ms ? left(c->born_ms, c->rekey_ms) :
				    left(c->born_ms, c->life_ms));
}

void child_timer_retry(struct ike_sa *sa, struct child_sa *c)
{
	uint16_t r = 0;

	if (!c->timer)
		return;
	rng_bytes(&r, sizeof(r), NULL);
	c->timer_expires = false;
	arm(c->timer, 1000 + r % 1000);
}

/* IKE SAs ------------------------------------------------------------ */

static void on_ike_timer(evutil_socket_t fd, short what, void *arg)
{
	struct ike_sa *sa = arg;

	if (sa->state != IKE_SA_ESTABLISHED)
		return;
	if (sa->timer_expires) {
		ike_sa_log(sa, IKB_LOG_INFO,
			   "IKE SA reached its lifetime: deleting");
		task_want(sa, TASK_DELETE_IKE);
	} else {
		ike_sa_log(sa, IKB_LOG_INFO, "IKE SA lifetime: rekeying");
		task_want(sa, TASK_REKEY_IKE);
		sa->timer_expires = true;
		arm(sa->timer, left(sa->born_ms, sa->life_ms));
	}
	tasks_schedule(sa);
}

void ike_timer_retry(struct ike_sa *sa)
{
	uint16_t r = 0;

	if (!sa->timer)
		return;
	rng_bytes(&r, sizeof(r), NULL);
	sa->timer_expires = false;
	arm(sa->timer, 1000 + r % 1000);
}

void ike_timer_arm(struct ike_sa *sa)
{
	const struct conn *c = engine_conn(sa->e, sa->conn);
	unsigned long long life = c ? c->ike_life_ms : 8 * HOUR_MS;
	unsigned long long rekey = conn_rekey(sa->e, sa->conn) ?
					   rekey_after(sa->e, sa->conn, life) :
					   0;
	time_t now = wall_s();

	if (!sa->timer &&
	    !(sa->timer = evtimer_new(sa->e->base, on_ike_timer, sa)))
		return;
	sa->born_ms = mono_ms();
	sa->life_ms = life;
	sa->expire_at = now + (time_t)((life + 999) / 1000);
	sa->rekey_at = rekey ? now + (time_t)(rekey / 1000) : 0;
	sa->timer_expires = !rekey;
	arm(sa->timer, rekey ? rekey : life);
}
