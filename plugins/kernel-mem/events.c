// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's side of the conversation: events, traffic counters and
 * lifetime expiry, driven by tests through the exported functions.
 */
#include <errno.h>
#include <time.h>

#include "mem.h"

int mem_events_subscribe(void *state, ikb_kernel_event_cb cb, void *ctx,
			 struct ikb_error *err)
{
	struct mem_state *st = state;

	if (st->cb)
		return ikb_error_set(err, EBUSY,
				     "events already have a subscriber");
	st->cb = cb;
	st->cb_ctx = ctx;
	return 0;
}

void mem_events_unsubscribe(void *state, ikb_kernel_event_cb cb, void *ctx)
{
	struct mem_state *st = state;

	if (st->cb == cb && st->cb_ctx == ctx)
		st->cb = NULL, st->cb_ctx = NULL;
}

int mem_dump(void *state, void (*sa_cb)(void *ctx, const struct ikb_sa *),
	     void (*pol_cb)(void *ctx, const struct ikb_policy *), void *ctx)
{
	struct mem_state *st = state;

	for (size_t i = 0; sa_cb && i < st->nsa; i++)
		if (!st->sas[i].larval)
			sa_cb(ctx, &st->sas[i].sa);
	for (size_t i = 0; pol_cb && i < st->npol; i++)
		pol_cb(ctx, &st->pols[i]);
	return 0;
}

MEM_EXPORT int ikb_kernel_mem_inject(void *state,
				     const struct ikb_kernel_event *ev);
MEM_EXPORT int ikb_kernel_mem_inject(void *state,
				     const struct ikb_kernel_event *ev)
{
	struct mem_state *st = state;

	if (!st->cb)
		return -ENOTCONN;
	st->cb(st->cb_ctx, ev);
	return 0;
}

static bool over(uint64_t limit, uint64_t value)
{
	return limit != 0 && value >= limit;
}

static void expire(struct mem_state *st, const struct mem_sa *m, bool hard)
{
	struct ikb_kernel_event ev = {
		.type = IKB_KEV_EXPIRE,
		.hard = hard,
		.sel = m->sa.sel,
		.dst = m->sa.dst,
		.spi = m->sa.spi,
		.proto = m->sa.proto,
		.reqid = m->sa.reqid,
		.cpu = m->sa.cpu,
	};

	if (st->cb)
		st->cb(st->cb_ctx, &ev);
}

MEM_EXPORT int ikb_kernel_mem_traffic(void *state, const struct ikb_addr *dst,
				      uint32_t spi, uint8_t proto,
				      uint64_t bytes, uint64_t packets);
MEM_EXPORT int ikb_kernel_mem_traffic(void *state, const struct ikb_addr *dst,
				      uint32_t spi, uint8_t proto,
				      uint64_t bytes, uint64_t packets)
{
	struct mem_state *st = state;
	struct mem_sa *m = mem_sa_find(st, dst, spi, proto);
	const struct ikb_lifetime *l;

	if (!m || m->larval)
		return -ENOENT;
	l = &m->sa.life;
	m->c.bytes += bytes;
	m->c.packets += packets;
	m->c.use_time = (uint64_t)time(NULL);
	if (over(l->hard_bytes, m->c.bytes) ||
	    over(l->hard_packets, m->c.packets)) {
		expire(st, m, true);
		/* The callback may have deleted it already. */
		m = mem_sa_find(st, dst, spi, proto);
		if (m)
			mem_sa_remove(st, m);
		return 0;
	}
	if (!m->soft_sent && (over(l->soft_bytes, m->c.bytes) ||
			      over(l->soft_packets, m->c.packets))) {
		m->soft_sent = true;
		expire(st, m, false);
	}
	return 0;
}
