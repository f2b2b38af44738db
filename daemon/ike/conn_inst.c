// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opportunistic instances (conn.h), as libreswan's: a group conn
 * (right=%opportunisticgroup) stands for every destination of its
 * networks, and each destination that traffic or a peer's IKE_SA_INIT
 * brings is a conn of its own, GROUP#ADDRESS, compiled from the group
 * conn's section with that peer as right= and right's subnet the peer
 * alone. The engine then negotiates, rekeys and deletes it as any conn.
 *
 * An instance lives as long as its configuration: SAs keep their conn's
 * name, and the name of an instance finds it again, or makes it anew
 * from a reloaded group conn. The number is capped, so that a sender
 * spoofing every address of a /8 cannot make the set grow without end.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/groups.h"
#include "ike/conn.h"
#include "ike/engine.h"
#include "log.h"

#define INST_MAX 16384

struct conn_inst {
	struct conn_inst *next;
	char name[128];
	struct conn c;
};

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

static struct conn_inst *inst_new(const struct ike_engine *e,
				  const struct conn *g,
				  const struct ikb_addr *a, const char *name)
{
	struct conn_set *set = e->conns;
	struct conn_inst *i;

	if (set->ninst >= INST_MAX) {
		log_warn("conn %s: %u instances already: none for %s", g->name,
			 set->ninst, name);
		return NULL;
	}
	i = calloc(1, sizeof(*i));
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
	i->next = set->inst;
	set->inst = i;
	set->ninst++;
	log_info("conn %s: instance for %s", i->name, g->name);
	return i;
}

static struct conn_inst *inst_lookup(const struct conn_set *set,
				     const char *name)
{
	struct conn_inst *i = set->inst;

	while (i && strcmp(i->name, name))
		i = i->next;
	return i;
}

const struct conn *conn_instance(const struct ike_engine *e,
				 const struct conn *c,
				 const struct ikb_addr *peer)
{
	char name[128];
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
	struct conn_inst *i, *next;

	for (i = set->inst; i; i = next) {
		next = i->next;
		conn_free_one(&i->c);
		free(i);
	}
	set->inst = NULL;
	set->ninst = 0;
}
