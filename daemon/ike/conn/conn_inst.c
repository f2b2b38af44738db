// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opportunistic instances (conn.h), as libreswan's: a group conn
 * (right=%opportunisticgroup) stands for every destination of its
 * networks, and each destination that traffic or a peer's IKE_SA_INIT
 * brings is a conn of its own, GROUP#ADDRESS, compiled from the group
 * conn's section with that peer as right= and right's subnet the peer
 * alone. The engine then negotiates, rekeys and deletes it as any conn.
 *
 * SAs and routes keep their conn's name, never a pointer across a
 * wake-up of the loop, and the name of an instance finds it again, or
 * makes it anew from the (reloaded) group conn. So an instance can go
 * once nothing names it: a sweep frees those without an IKE SA or a
 * route that nobody has looked up for INST_IDLE_MS. That is what keeps a
 * responder, which makes the instance at IKE_SA_INIT before any
 * authentication, from being filled by spoofed requests: their half-open
 * SAs expire, and then their instances. The number is capped as well.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>

#include "config/groups.h"
#include "crypto/rng.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/ike_sa.h"
#include "ike/route/route.h"
#include "ike/timers.h"
#include "log/log.h"

#define INST_MAX 16384
#define INST_BUCKETS 4096
/* idle this long, with no IKE SA or route: freed (twice HALFOPEN_MS) */
#define INST_IDLE_MS 60000u

struct conn_inst {
	struct conn_inst *hnext; /* in its bucket */
	struct conn_inst *prev, *next; /* every instance */
	unsigned long long used_ms; /* last looked up */
	bool keep; /* during a sweep: a route names it */
	char name[IKE_CONN_NAME_LEN];
	struct conn c;
};

struct conn_insts {
	struct conn_inst *bucket[INST_BUCKETS];
	struct conn_inst *head;
	unsigned n;
	uint32_t seed; /* the peer picks the address: keyed buckets */
	struct event *sweep;
};

static unsigned inst_max(const struct ike_engine *e)
{
	return e->inst_max ? e->inst_max : INST_MAX;
}

static unsigned idle_ms(const struct ike_engine *e)
{
	return e->inst_idle_ms ? e->inst_idle_ms : INST_IDLE_MS;
}

static unsigned bucket_of(const struct conn_insts *t, const char *name)
{
	uint32_t h = 2166136261u ^ t->seed;

	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return h % INST_BUCKETS;
}

static void on_sweep(evutil_socket_t fd, short what, void *arg);

static struct conn_insts *insts(const struct ike_engine *e)
{
	struct conn_set *set = e->conns;

	if (set->inst)
		return set->inst;
	set->inst = calloc(1, sizeof(*set->inst));
	if (!set->inst)
		return NULL;
	rng_bytes(&set->inst->seed, sizeof(set->inst->seed), NULL);
	if (e->base)
		set->inst->sweep = evtimer_new(e->base, on_sweep,
					       (void *)(uintptr_t)e);
	return set->inst;
}

static void sweep_arm(const struct ike_engine *e, struct conn_insts *t)
{
	unsigned ms = idle_ms(e) / 2;
	struct timeval tv = { .tv_sec = ms / 1000,
			      .tv_usec = (suseconds_t)(ms % 1000) * 1000 };

	if (t->sweep && t->n && !evtimer_pending(t->sweep, NULL))
		evtimer_add(t->sweep, &tv);
}

static struct conn_inst *inst_lookup(const struct conn_set *set,
				     const char *name)
{
	struct conn_insts *t = set->inst;
	struct conn_inst *i = t ? t->bucket[bucket_of(t, name)] : NULL;

	while (i && strcmp(i->name, name))
		i = i->hnext;
	if (i)
		i->used_ms = mono_ms();
	return i;
}

static void inst_unlink(struct conn_insts *t, struct conn_inst *i)
{
	struct conn_inst **pp = &t->bucket[bucket_of(t, i->name)];

	while (*pp != i)
		pp = &(*pp)->hnext;
	*pp = i->hnext;
	if (i->prev)
		i->prev->next = i->next;
	else
		t->head = i->next;
	if (i->next)
		i->next->prev = i->prev;
	t->n--;
	conn_free_one(&i->c);
	free(i);
}

static void mark_routed(const char *conn, void *arg)
{
	struct conn_set *set = arg;
	struct conn_insts *t = set->inst;
	struct conn_inst *i = t->bucket[bucket_of(t, conn)];

	while (i && strcmp(i->name, conn))
		i = i->hnext;
	if (i)
		i->keep = true;
}

/*
 * Free the instances nothing names. Only idle ones: a pointer to an
 * instance is held within one wake-up of the loop at most, and every
 * lookup marks it used then, so no caller up the stack can hold one of
 * these (which is why a sweep may also run from inst_new()).
 */
static unsigned sweep(const struct ike_engine *e)
{
	struct conn_set *set = e->conns;
	struct conn_insts *t = set->inst;
	unsigned long long now = mono_ms();
	struct conn_inst *i, *next;
	unsigned freed = 0;

	for (i = t->head; i; i = i->next)
		i->keep = false;
	trap_each_route(e, mark_routed, set);
	for (i = t->head; i; i = next) {
		next = i->next;
		if (i->keep || now - i->used_ms < idle_ms(e) ||
		    ike_sa_find_conn((struct ike_engine *)e, i->name, NULL))
			continue;
		inst_unlink(t, i);
		freed++;
	}
	if (freed)
		log_debug("opportunistic: %u idle instances freed, %u remain",
			  freed, t->n);
	return freed;
}

static void on_sweep(evutil_socket_t fd, short what, void *arg)
{
	const struct ike_engine *e = arg;

	(void)fd;
	(void)what;
	sweep(e);
	sweep_arm(e, e->conns->inst);
}

unsigned conn_inst_count(const struct ike_engine *e)
{
	return e->conns && e->conns->inst ? e->conns->inst->n : 0;
}

bool conn_group_has(const struct conn *c, const struct ikb_addr *a)
{
	for (unsigned i = 0; i < c->ngrp; i++)
		if (cfg_prefix_has(&c->grp[i].a, c->grp[i].plen, a))
			return true;
	return false;
}

static void inst_name(const struct conn *c, const struct ikb_addr *a,
		      char *out, size_t len)
{
	char s[INET6_ADDRSTRLEN];

	inet_ntop(a->family, a->bytes, s, sizeof(s));
	snprintf(out, len, "%s#%s", c->name, s);
}

/* The peer's end in both views: the address, and the peer alone. */
static void inst_peer(const struct ike_engine *e, struct conn *c, int side,
		      const struct ikb_addr *a)
{
	struct conn_end *ends[2] = { &c->view[side].local,
				     &c->view[!side].remote };

	for (int i = 0; i < 2; i++) {
		ends[i]->host.kind = IKE_HOST_ADDR;
		ends[i]->net_set = false;
		ends[i]->nnets = 1;
	}
	conn_end_set(e, c, side, a);
}

/*
 * This host's end as the group conn has it now: a %defaultroute or name
 * the group conn resolved is the instance's address (an instance does
 * not look it up again; a new answer reaches the instances made after).
 */
static void inst_local(const struct ike_engine *e, const struct conn *g,
		       struct conn *c)
{
	int side = !g->grp_side;
	const struct conn_end *end = &g->view[side].local;
	struct ikb_addr a = end->addr;

	if (end->host.kind == IKE_HOST_ADDR || !a.family)
		return;
	c->view[side].local.host.kind = IKE_HOST_ADDR;
	c->view[!side].remote.host.kind = IKE_HOST_ADDR;
	conn_end_set(e, c, side, &a);
}

static struct log_ratelimit full_rl = { .per_sec = 5,
					.what = "instance refusals" },
			    new_rl = { .per_sec = 20, .what = "instance lines" };

static struct conn_inst *inst_new(const struct ike_engine *e,
				  const struct conn *g,
				  const struct ikb_addr *a, const char *name)
{
	struct conn_set *set = e->conns;
	struct conn_insts *t = insts(e);
	struct conn_inst *i;
	unsigned b;

	if (t && t->n >= inst_max(e) && !sweep(e)) {
		if (log_ratelimit_ok(&full_rl))
			log_warn("conn %s: %u instances already, none idle: none for %s",
				 g->name, t->n, name);
		return NULL;
	}
	i = t ? calloc(1, sizeof(*i)) : NULL;
	if (!i) {
		log_err("conn %s: out of memory for the instance %s", g->name,
			name);
		return NULL;
	}
	snprintf(i->name, sizeof(i->name), "%s", name);
	conn_compile_one(e, set, g->s, &i->c);
	i->c.name = i->name;
	i->c.inst_of = g->name;
	/* an instance is no group: its peer is the one address */
	free(i->c.grp);
	i->c.grp = NULL;
	i->c.ngrp = 0;
	i->c.grp_side = -1;
	inst_peer(e, &i->c, g->grp_side, a);
	inst_local(e, g, &i->c);
	i->used_ms = mono_ms();
	b = bucket_of(t, i->name);
	i->hnext = t->bucket[b];
	t->bucket[b] = i;
	i->next = t->head;
	if (t->head)
		t->head->prev = i;
	t->head = i;
	t->n++;
	sweep_arm(e, t);
	/* a peer's IKE_SA_INIT makes one: as many lines as it sends */
	if (log_ratelimit_ok(&new_rl))
		log_info("conn %s: instance for %s", i->name, g->name);
	return i;
}

const struct conn *conn_instance(const struct ike_engine *e,
				 const struct conn *c,
				 const struct ikb_addr *peer)
{
	char name[IKE_CONN_NAME_LEN];
	struct conn_inst *i;

	if (!e->conns || c->grp_side < 0 || !conn_group_has(c, peer))
		return NULL;
	inst_name(c, peer, name, sizeof(name));
	i = inst_lookup(e->conns, name);
	if (!i)
		i = inst_new(e, c, peer, name);
	return i ? &i->c : NULL;
}

const struct conn *conn_instance_find(const struct ike_engine *e,
				      const char *name)
{
	struct conn_inst *i;
	struct ikb_addr a;
	char group[128];
	const struct conn *g;

	if (!e->conns || !strchr(name, '#'))
		return NULL;
	i = inst_lookup(e->conns, name);
	if (i)
		return &i->c;
	if (!cfg_inst_name_split(name, group, sizeof(group), &a))
		return NULL;
	g = engine_conn(e, group);
	return g && g->grp_side >= 0 ? conn_instance(e, g, &a) : NULL;
}

void conn_inst_free(struct conn_set *set)
{
	struct conn_insts *t = set->inst;

	if (!t)
		return;
	while (t->head)
		inst_unlink(t, t->head);
	if (t->sweep)
		event_free(t->sweep);
	free(t);
	set->inst = NULL;
}
