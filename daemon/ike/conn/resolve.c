// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IKE_SA_RESOLVE_I: the first step of an initiation whose conn has a
 * name or %defaultroute. Every initiation asks again (`ikebana up`,
 * auto=start, each keyingtries= attempt, the restart after a lost
 * peer), so that a peer whose address changed is found where it is now;
 * a lookup already in flight counts as fresh. The SA waits with no
 * address and sends nothing; once every host has answered it goes on to
 * IKE_SA_INIT, or fails naming the host and the answer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ike/conn/conn.h"
#include "ike/conn/host.h"
#include "ike/engine.h"
#include "ike/timers.h"

int resolve_start(struct ike_sa *sa, struct ikb_error *err)
{
	struct ike_engine *e = sa->e;
	const struct conn *c = engine_conn(e, sa->conn);

	ike_sa_set_state(sa, IKE_SA_RESOLVE_I);
	for (int side = 1; c && side >= 0; side--) {
		struct host_rec *r = host_find(e, c->name, side);

		if (!host_needed(c, side))
			continue;
		if (!r || host_lookup(e, r)) {
			snprintf(err->msg, sizeof(err->msg),
				 "conn %s: %s=%.100s: %.100s", c->name,
				 side ? "left" : "right",
				 r ? host_text(r) : "?",
				 r ? r->why : "out of memory");
			return r ? r->rc : -ENOMEM;
		}
		if (r->pending)
			ike_sa_log(sa, IKB_LOG_INFO, "resolving %s=%s",
				   side ? "left" : "right", host_text(r));
	}
	return 0;
}

/* The first host of sa's conn whose lookup failed; NULL: all answered. */
static const struct host_rec *failed(const struct ike_sa *sa, bool *waiting)
{
	const struct conn *c = engine_conn(sa->e, sa->conn);
	const struct host_rec *bad = NULL;

	*waiting = false;
	for (int side = 1; c && side >= 0; side--) {
		const struct host_rec *r = host_find(sa->e, c->name, side);

		if (!host_needed(c, side) || !r)
			continue;
		*waiting |= r->pending;
		if (r->rc && !bad)
			bad = r;
	}
	return bad;
}

static void fail(struct ike_sa *sa, const struct host_rec *r)
{
	char why[400];

	snprintf(why, sizeof(why), "cannot resolve %s=%.200s: %s",
		 r->side ? "left" : "right", host_text(r), r->why);
	engine_outcome(sa, r->rc, why, NULL);
	ike_sa_delete(sa, why);
}

static void go_on(struct ike_sa *sa)
{
	struct ikb_error err = { "" };
	int rc;

	sa->resolved_at = wall_s();
	rc = engine_open(sa, &err);
	if (rc) {
		engine_outcome(sa, rc, err.msg, NULL);
		ike_sa_delete(sa, err.msg);
	}
}

void resolve_answered(struct ike_engine *e, const struct host_rec *rec)
{
	struct ike_sa *sa = ike_sa_find_conn(e, rec->conn, NULL), *next;

	for (; sa; sa = next) {
		const struct host_rec *bad;
		bool waiting;

		next = ike_sa_find_conn(e, rec->conn, sa);
		if (sa->state != IKE_SA_RESOLVE_I)
			continue;
		bad = failed(sa, &waiting);
		if (waiting)
			continue;
		if (bad)
			fail(sa, bad);
		else
			go_on(sa);
	}
}
