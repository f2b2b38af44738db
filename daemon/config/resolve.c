// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * %default and also=, as libreswan's lib/libipsecconf/confread.c does them:
 * every conn %default (wherever it stands; a later one overrides an
 * earlier one) applies to every conn; also= pulls in another conn's keys,
 * depth first in the order written. A conn's own keys win over its also=
 * targets, which win over %default. A conn used only through also= is
 * still a conn.
 */
#include <stdlib.h>
#include <string.h>

#include "config/internal.h"

struct cfg_index {
	size_t cap; /* power of two */
	long *slot; /* index into raw[], -1 = empty */
};

static struct cfg_index *index_new(struct cfg_arena *a, size_t n)
{
	struct cfg_index *ix = arena_alloc(a, sizeof(*ix));

	ix->cap = 16;
	while (ix->cap < n * 2)
		ix->cap *= 2;
	ix->slot = arena_alloc(a, ix->cap * sizeof(long));
	memset(ix->slot, 0xff, ix->cap * sizeof(long));
	return ix;
}

/* The slot for name: holds its index, or -1 where it would go. */
static long *index_slot(const struct cfg_index *ix, const struct ikb_section *v,
			const char *name)
{
	size_t j = cfg_hash(name, strlen(name)) & (ix->cap - 1);

	while (ix->slot[j] >= 0 && strcmp(v[ix->slot[j]].name, name))
		j = (j + 1) & (ix->cap - 1);
	return &ix->slot[j];
}

struct flat {
	int state; /* 0 new, 1 in progress, 2 done */
	size_t n, cap;
	struct ikb_value *kv;
	struct keyset keys; /* kv's keys */
};

struct resolver {
	struct parse_ctx *p;
	struct ikb_section *raw;
	struct cfg_index *byname; /* conn name -> raw index */
	struct flat *flat; /* per raw index */
	long *stack; /* raw indexes being flattened */
	size_t *next; /* for each, the index of its key to look at next */
	size_t depth;
};

/* Append v under its canonical key unless that key is there already. */
static void flat_add(struct cfg_arena *a, struct flat *f,
		     const struct ikb_value *v)
{
	const char *key = arena_intern(a, cfg_canonical_key(v->key));
	size_t at = f->n;

	if (!keyset_put(&f->keys, key, &at))
		return;
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 16;
		f->kv = realloc(f->kv, f->cap * sizeof(*f->kv));
		if (!f->kv)
			abort();
	}
	f->kv[f->n] = *v;
	f->kv[f->n++].key = key;
}

static void report_cycle(struct resolver *r, long target,
			 const struct ikb_value *at)
{
	const struct ikb_section *s = &r->raw[r->stack[r->depth - 1]];
	size_t len = 64, from = 0;

	while (r->stack[from] != target)
		from++;
	for (size_t i = from; i < r->depth; i++)
		len += strlen(r->raw[r->stack[i]].name) + 8;
	len += strlen(r->raw[target].name);
	char *chain = malloc(len), *q = chain;

	if (!chain)
		abort();
	for (size_t i = from; i < r->depth; i++)
		q += sprintf(q, "%s → ", r->raw[r->stack[i]].name);
	strcpy(q, r->raw[target].name);
	diag_report(r->p->d, s, at, IKB_SEV_ERROR, "also= cycle: %s", chain);
	free(chain);
}

/* Start on section i: its own keys now, its also= one at a time. */
static void flat_begin(struct resolver *r, long i)
{
	const struct ikb_section *s = &r->raw[i];
	struct flat *f = &r->flat[i];

	f->state = 1;
	r->stack[r->depth] = i;
	r->next[r->depth++] = 0;
	for (size_t k = 0; k < s->n; k++)
		if (strcmp(s->kv[k].key, "also"))
			flat_add(r->p->a, f, &s->kv[k]);
}

static void flat_merge(struct resolver *r, struct flat *f, long t)
{
	for (size_t j = 0; j < r->flat[t].n; j++)
		flat_add(r->p->a, f, &r->flat[t].kv[j]);
}

/*
 * Depth first without recursion: a chain of 300,000 conns, each also= the
 * next one written, would overflow the stack of the daemon that loads it.
 * r->stack holds the sections in progress, r->next the key each is at.
 */
static void flatten(struct resolver *r, long root)
{
	flat_begin(r, root);
	while (r->depth) {
		long i = r->stack[r->depth - 1];
		const struct ikb_section *s = &r->raw[i];
		size_t *k = &r->next[r->depth - 1];

		if (*k == s->n) {
			r->flat[i].state = 2;
			if (--r->depth) {
				/* the also= that led here, in its section */
				flat_merge(r, &r->flat[r->stack[r->depth - 1]],
					   i);
				r->next[r->depth - 1]++;
			}
			continue;
		}
		const struct ikb_value *v = &s->kv[*k];

		if (strcmp(v->key, "also")) {
			(*k)++;
			continue;
		}
		long t = *index_slot(r->byname, r->raw, v->value);

		if (t < 0) {
			diag_report(r->p->d, s, v, IKB_SEV_ERROR,
				    "no conn named \"%s\"", v->value);
		} else if (r->flat[t].state == 1) {
			report_cycle(r, t, v);
		} else if (r->flat[t].state == 0) {
			flat_begin(r, t); /* merged when it is done */
			continue;
		} else {
			flat_merge(r, &r->flat[i], t);
		}
		(*k)++;
	}
}

static void index_conns(struct resolver *r, size_t nraw)
{
	for (size_t i = 0; i < nraw; i++) {
		const struct ikb_section *s = &r->raw[i];

		if (s->kind != CFG_CONN || !strcmp(s->name, "%default"))
			continue;
		long *slot = index_slot(r->byname, r->raw, s->name);

		if (*slot >= 0) {
			const struct ikb_section *o = &r->raw[*slot];

			diag_at(r->p->d, IKB_SEV_ERROR, s->file, s->line,
				"conn %s: defined twice (first at %s:%u)",
				s->name, o->file, o->line);
			continue;
		}
		*slot = (long)i;
	}
}

/* All conn %default sections, later ones overriding earlier ones. */
static struct flat collect_defaults(struct resolver *r, size_t nraw)
{
	struct flat def = { 0 };

	for (size_t i = nraw; i-- > 0;) {
		const struct ikb_section *s = &r->raw[i];

		if (s->kind != CFG_CONN || strcmp(s->name, "%default"))
			continue;
		for (size_t k = 0; k < s->n; k++)
			flat_add(r->p->a, &def, &s->kv[k]);
	}
	return def;
}

static void emit(struct cfg_arena *a, struct ikb_section *out,
		 const struct ikb_section *s, const struct flat *own,
		 const struct flat *def)
{
	size_t n = own->n + def->n;

	*out = (struct ikb_section){
		.name = s->name,
		.kind = s->kind,
		.file = s->file,
		.line = s->line,
		.kv = arena_alloc(a, (n + 1) * sizeof(struct ikb_value)),
	};
	out->cap = n;
	for (size_t i = 0; i < own->n; i++)
		out->kv[out->n++] = own->kv[i];
	for (size_t i = 0; i < def->n; i++)
		if (!keyset_get(&own->keys, def->kv[i].key, NULL))
			out->kv[out->n++] = def->kv[i];
}

void cfg_resolve(struct parse_ctx *p)
{
	struct cfg *c = p->cfg;
	size_t nraw = c->nraw, nconns = 0;
	struct resolver r = {
		.p = p,
		.raw = c->raw,
		.flat = calloc(nraw + 1, sizeof(struct flat)),
		.stack = calloc(nraw + 1, sizeof(long)),
		.next = calloc(nraw + 1, sizeof(size_t)),
	};

	if (!r.flat || !r.stack || !r.next)
		abort();
	r.byname = index_new(p->a, nraw);
	index_conns(&r, nraw);
	struct flat def = collect_defaults(&r, nraw), none = { 0 };

	c->conns = arena_alloc(p->a, (nraw + 1) * sizeof(*c->conns));
	c->conn_index = index_new(p->a, nraw);
	for (size_t i = 0; i < nraw; i++) {
		const struct ikb_section *s = &c->raw[i];

		if (s->kind == CFG_SETUP) {
			flatten(&r, (long)i);
			emit(p->a, &c->setup, s, &r.flat[i], &none);
			continue;
		}
		if (!strcmp(s->name, "%default") ||
		    *index_slot(r.byname, r.raw, s->name) != (long)i)
			continue;
		if (r.flat[i].state == 0)
			flatten(&r, (long)i);
		emit(p->a, &c->conns[nconns], s, &r.flat[i], &def);
		*index_slot(c->conn_index, c->conns, s->name) = (long)nconns;
		nconns++;
	}
	c->nconns = nconns;
	for (size_t i = 0; i < nraw; i++) {
		free(r.flat[i].kv);
		keyset_free(&r.flat[i].keys);
	}
	free(def.kv);
	keyset_free(&def.keys);
	free(r.flat);
	free(r.stack);
	free(r.next);
}

const struct ikb_value *cfg_get(const struct ikb_section *s, const char *key)
{
	if (!s || !key)
		return NULL;
	/* resolved sections store salifetime= and friends canonically */
	const char *canon = cfg_canonical_key(key);

	/*
	 * A conn's compile asks for every key it knows, most of them absent:
	 * the second comparison only where the name is an alias.
	 */
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->kv[i].key, key) ||
		    (canon != key && !strcmp(s->kv[i].key, canon)))
			return &s->kv[i];
	return NULL;
}

struct cfg_index *cfg_index_build(struct cfg_arena *a,
				  const struct ikb_section *conns, size_t n)
{
	struct cfg_index *ix = index_new(a, n);

	for (size_t i = 0; i < n; i++)
		*index_slot(ix, conns, conns[i].name) = (long)i;
	return ix;
}

const struct ikb_section *cfg_conn_find(const struct cfg *c, const char *name)
{
	if (!c || !c->conn_index)
		return NULL;
	long i = *index_slot(c->conn_index, c->conns, name);

	return i >= 0 ? &c->conns[i] : NULL;
}

struct cfg *cfg_ref(struct cfg *c)
{
	if (c)
		c->refs++;
	return c;
}

void cfg_free(struct cfg *c)
{
	if (!c)
		return;
	if (c->refs) {
		c->refs--;
		return;
	}
	for (size_t i = 0; i < c->nheld; i++)
		cfg_free(c->held[i]);
	free(c->held);
	arena_free(c->arena);
	free(c);
}
