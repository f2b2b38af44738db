// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hosts that are names or %defaultroute. A conn is compiled once per
 * configuration, but its names live longer: the answer is kept per
 * (conn, side) in a record of the engine, and written into the compiled
 * views (conn_host_set), so that a reload keeps the address until the
 * next answer, and the responder's match by address finds a peer of a
 * name as any other. A failed lookup keeps the last good address for
 * matching; an initiation needs a fresh answer (resolve.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/conn/host.h"
#include "ike/route/route.h"
#include "log/log.h"
#include "ike/msg/msg.h"
#include "ike/timers.h"

static const char *side_key(int side)
{
	return side ? "left" : "right";
}

/* The end of the conn that side is: left is local in view[1]. */
static const struct conn_end *end_of(const struct conn *c, int side)
{
	return &c->view[side].local;
}

const char *host_text(const struct host_rec *r)
{
	return r->kind == IKE_HOST_NAME ? r->name : "%defaultroute";
}

bool host_needed(const struct conn *c, int side)
{
	enum ike_host_kind k = end_of(c, side)->host.kind;

	return !c->ignored && !c->view_rc[side] && k != IKE_HOST_ADDR &&
	       k != IKE_HOST_GROUP;
}

struct host_rec *host_find(const struct ike_engine *e, const char *conn,
			   int side)
{
	struct host_rec *r = e->hosts;

	while (r && (r->gone || r->side != side || strcmp(r->conn, conn)))
		r = r->next;
	return r;
}

static void unlink_rec(struct ike_engine *e, struct host_rec *r)
{
	struct host_rec **pp = &e->hosts;

	while (*pp && *pp != r)
		pp = &(*pp)->next;
	if (*pp)
		*pp = r->next;
}

static void tell(const struct host_rec *r)
{
	char a[64];

	if (r->rc)
		log_warn("conn %s: %s=%s: %s", r->conn, side_key(r->side),
			 host_text(r), r->why);
	else
		log_info("conn %s: %s=%s is %s", r->conn, side_key(r->side),
			 host_text(r), addr_str(&r->addr, a, sizeof(a)));
}

static void record(struct host_rec *r, const struct ike_host_answer *a)
{
	r->at = wall_s();
	r->rc = a->rc;
	snprintf(r->why, sizeof(r->why), "%s",
		 a->rc ? (a->why ? a->why : strerror(-a->rc)) : "");
	if (!a->rc)
		r->addr = a->addr;
}

static void on_answer(void *arg, const struct ike_host_answer *a)
{
	struct host_rec *r = arg;
	struct ike_engine *e = r->e;
	const struct conn *c;

	r->pending = false;
	if (!e || r->gone) {
		if (e)
			unlink_rec(e, r);
		free(r);
		return;
	}
	record(r, a);
	if (a->rc != -ECANCELED)
		tell(r);
	c = engine_conn(e, r->conn);
	if (!a->rc && c) {
		conn_host_set(e, c, r->side, &r->addr);
		/* a trap's endpoints may be what was just learnt */
		trap_host_known(e, c);
	}
	resolve_answered(e, r);
}

int host_lookup(struct ike_engine *e, struct host_rec *r)
{
	struct ike_host_query q = { r->kind, r->name, r->family };
	int rc;

	if (r->pending)
		return 0;
	r->lookups++;
	rc = e->io.resolve ? e->io.resolve(e->io.ctx, &q, on_answer, r) :
			     -ENOSYS;
	if (rc) {
		struct ike_host_answer a = {
			rc, { 0 }, rc == -ENOSYS ? "no resolver" : NULL
		};

		record(r, &a);
		tell(r);
		return rc;
	}
	r->pending = true;
	return 0;
}

/* Whether r still stands for side of c as compiled now. */
static bool same(const struct host_rec *r, const struct conn *c)
{
	const struct conn_host *h = &end_of(c, r->side)->host;

	return host_needed(c, r->side) && h->kind == r->kind &&
	       h->family == r->family &&
	       !strcmp(h->kind == IKE_HOST_NAME ? h->name : "", r->name);
}

static void drop_stale(struct ike_engine *e)
{
	struct host_rec *r = e->hosts, *next;

	for (; r; r = next) {
		const struct conn *c = engine_conn(e, r->conn);

		next = r->next;
		if (r->gone || (c && same(r, c)))
			continue;
		if (r->pending) {
			r->gone = true; /* on_answer frees it */
		} else {
			unlink_rec(e, r);
			free(r);
		}
	}
}

static struct host_rec *rec_new(struct ike_engine *e, const struct conn *c,
				int side)
{
	const struct conn_host *h = &end_of(c, side)->host;
	struct host_rec *r = calloc(1, sizeof(*r));

	if (!r) {
		log_err("conn %s: out of memory for %s=", c->name,
			side_key(side));
		return NULL;
	}
	r->e = e;
	snprintf(r->conn, sizeof(r->conn), "%s", c->name);
	r->side = side;
	r->kind = h->kind;
	r->family = h->family;
	snprintf(r->name, sizeof(r->name), "%s",
		 h->kind == IKE_HOST_NAME ? h->name : "");
	r->next = e->hosts;
	e->hosts = r;
	return r;
}

void hosts_sync(struct ike_engine *e)
{
	const struct conn_set *set = e->conns;

	drop_stale(e);
	for (size_t i = 0; set && i < set->n; i++) {
		const struct conn *c = &set->conns[i];

		for (int side = 1; side >= 0; side--) {
			struct host_rec *r;

			if (!host_needed(c, side))
				continue;
			r = host_find(e, c->name, side);
			if (!r && !(r = rec_new(e, c, side)))
				continue;
			if (r->addr.family)
				conn_host_set(e, c, side, &r->addr);
			host_lookup(e, r); /* at load and at each reload */
		}
	}
}

void hosts_refresh(struct ike_engine *e, const char *conn)
{
	for (int side = 1; side >= 0; side--) {
		struct host_rec *r = host_find(e, conn, side);

		if (r)
			host_lookup(e, r);
	}
}

void hosts_free(struct ike_engine *e)
{
	while (e->hosts) {
		struct host_rec *r = e->hosts;

		e->hosts = r->next;
		if (r->pending)
			r->e = NULL; /* the answer still comes: on_answer */
		else
			free(r);
	}
}
