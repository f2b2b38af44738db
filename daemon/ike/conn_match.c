// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which conn an incoming IKE SA belongs to, as libreswan decides it:
 * first by addresses (our side must be the address the request reached,
 * the peer's side that address or %any; an exact peer address beats
 * %any), then, once IKE_AUTH reveals the peer's ID, by that ID among the
 * conns that match the addresses as well.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/config.h"
#include "ike/engine.h"
#include "ike/conn.h"
#include "plugin/conf_load.h"

/*
 * Every IKE_SA_INIT and IKE_AUTH request looks for its conn among all of
 * them, and a conn view is a dozen string look-ups and an address parse
 * per side: with 1,000 conns that was 2,000 views per request, more CPU
 * than the key exchanges, and a responder too busy to read its socket.
 * The index keeps each conn's left= and right= parsed, once per config,
 * so that only the conns whose addresses fit get a view.
 */
struct conn_addrs {
	struct ikb_addr end[2]; /* left, right; AF_UNSPEC: %any */
	bool parsed[2]; /* false: not an address, conn_view_init() decides */
	bool ignored; /* auto=ignore */
};

struct conn_index {
	const struct cfg *cfg;
	const struct ikb_section *conns;
	size_t n;
	struct conn_addrs a[];
};

/* What conn.c's parse_addr() makes of t, or false where it would fail. */
static bool index_addr(const char *t, struct ikb_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (!t || !strncmp(t, "%any", 4))
		return true;
	if (inet_pton(AF_INET, t, a->bytes) == 1)
		return a->family = AF_INET, true;
	if (inet_pton(AF_INET6, t, a->bytes) == 1)
		return a->family = AF_INET6, true;
	return false;
}

static bool loaded(const struct ikb_section *s);

void conn_index_free(struct ike_engine *e)
{
	free(e->conn_index);
	e->conn_index = NULL;
}

/* Without memory there is no index: matching parses every conn, as before. */
void conn_index_build(struct ike_engine *e)
{
	const struct cfg *c = e->lc ? e->lc->cfg : NULL;
	struct conn_index *ix;

	conn_index_free(e);
	if (!c)
		return;
	ix = calloc(1, sizeof(*ix) + c->nconns * sizeof(ix->a[0]));
	if (!ix)
		return;
	ix->cfg = c;
	ix->conns = c->conns;
	ix->n = c->nconns;
	for (size_t i = 0; i < c->nconns; i++) {
		const struct ikb_section *s = &c->conns[i];
		const struct ikb_value *l = cfg_get(s, "left");
		const struct ikb_value *r = cfg_get(s, "right");

		ix->a[i].ignored = !loaded(s);
		ix->a[i].parsed[0] =
			index_addr(l ? l->value : NULL, &ix->a[i].end[0]);
		ix->a[i].parsed[1] =
			index_addr(r ? r->value : NULL, &ix->a[i].end[1]);
	}
	e->conn_index = ix;
}

/* The index, if it was built for the config the engine uses now. */
static const struct conn_index *index_of(const struct ike_engine *e)
{
	const struct conn_index *ix = e->conn_index;
	const struct cfg *c = e->lc->cfg;

	return ix && ix->cfg == c && ix->conns == c->conns &&
			       ix->n == c->nconns ?
		       ix :
		       NULL;
}

/* false only where score() would give 0 for this side. */
static bool may_fit(const struct conn_addrs *a, int local,
		    const struct ike_path *p)
{
	int remote = 1 - local;

	if (a->parsed[local] && !ike_addr_equal(&a->end[local], &p->local))
		return false;
	return !a->parsed[remote] || !a->end[remote].family ||
	       ike_addr_equal(&a->end[remote], &p->remote);
}

static bool loaded(const struct ikb_section *s)
{
	const struct ikb_value *a = cfg_get(s, "auto");

	return !a || strcasecmp(a->value, "ignore");
}

/* 0: no match, 1: peer %any, 2: exact. */
static int score(const struct ikb_section *s, const struct ike_path *p,
		 bool left_is_local, struct conn_view *v)
{
	struct ikb_error err;

	if (conn_view_init(s, left_is_local, v, &err))
		return 0;
	if (!v->local.addr.family || !ike_addr_equal(&v->local.addr, &p->local))
		return 0;
	if (!v->remote.addr.family)
		return 1;
	return ike_addr_equal(&v->remote.addr, &p->remote) ? 2 : 0;
}

/* The best address match, optionally also accepting peer's ID. */
static const struct ikb_section *best(const struct ike_engine *e,
				      const struct ike_path *p,
				      const struct ike_id *peer,
				      const char *prefer, struct conn_view *out)
{
	const struct cfg *c = e->lc->cfg;
	const struct conn_index *ix = index_of(e);
	const struct ikb_section *found = NULL;
	int top = 0;
	struct conn_view v;

	for (size_t i = 0; i < c->nconns; i++) {
		const struct ikb_section *s = &c->conns[i];

		if (ix ? ix->a[i].ignored : !loaded(s))
			continue;
		for (int side = 0; side < 2; side++) {
			int sc;

			if (ix && !may_fit(&ix->a[i], side, p))
				continue;
			sc = score(s, p, side == 0, &v);

			if (sc && peer && !id_accepts(&v.remote, peer))
				sc = 0;
			/* the conn chosen at IKE_SA_INIT wins a tie */
			if (sc && prefer && !strcmp(prefer, s->name))
				sc += 2;
			if (sc > top) {
				top = sc;
				found = s;
				*out = v;
			}
		}
	}
	return found;
}

const struct ikb_section *conn_match_addr(const struct ike_engine *e,
					  const struct ike_path *p,
					  struct conn_view *v)
{
	return best(e, p, NULL, NULL, v);
}

const struct ikb_section *conn_match_id(const struct ike_engine *e,
					const struct ike_path *p,
					const struct ike_id *peer,
					const char *current,
					struct conn_view *v)
{
	return best(e, p, peer, current, v);
}
