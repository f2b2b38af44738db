// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which conn an incoming IKE SA belongs to, as libreswan decides it:
 * first by addresses (our side must be the address the request reached,
 * the peer's side that address or %any; an exact peer address beats
 * %any), then, once IKE_AUTH reveals the peer's ID, by that ID among the
 * conns that match the addresses as well.
 */
#include <string.h>
#include <strings.h>

#include "config/config.h"
#include "ike/engine.h"
#include "plugin/conf_load.h"

static bool same(const struct ikb_addr *a, const struct ikb_addr *b)
{
	size_t n = a->family == AF_INET ? 4 : 16;

	return a->family == b->family && !memcmp(a->bytes, b->bytes, n);
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
	if (!v->local.addr.family || !same(&v->local.addr, &p->local))
		return 0;
	if (!v->remote.addr.family)
		return 1;
	return same(&v->remote.addr, &p->remote) ? 2 : 0;
}

/* The best address match, optionally also accepting peer's ID. */
static const struct ikb_section *best(const struct ike_engine *e,
				      const struct ike_path *p,
				      const struct ike_id *peer,
				      const char *prefer, struct conn_view *out)
{
	const struct cfg *c = e->lc->cfg;
	const struct ikb_section *found = NULL;
	int top = 0;
	struct conn_view v;

	for (size_t i = 0; i < c->nconns; i++) {
		const struct ikb_section *s = &c->conns[i];

		if (!loaded(s))
			continue;
		for (int side = 0; side < 2; side++) {
			int sc = score(s, p, side == 0, &v);

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
